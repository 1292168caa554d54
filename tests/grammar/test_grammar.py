"""The grammar file itself: it loads as LALR(1) without conflicts, and every
rule (or alias) has a tree-builder method, so no Lark Tree leaks into the AST."""

import logging
from importlib import resources

import lark
import pytest

from partiql.parser import grammar_text
from partiql.tree_builder import PostLex, TreeBuilder

GRAMMAR = grammar_text()
GRAMMAR_DIR = resources.files("partiql.grammar")


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_grammar_is_lalr_without_conflicts():
    handler, level = _Collect(), lark.logger.level
    lark.logger.addHandler(handler)
    lark.logger.setLevel(logging.DEBUG)
    try:
        lark.Lark(GRAMMAR, parser="lalr", start=["statement", "dml_statement"], postlex=PostLex(),
                  maybe_placeholders=True, cache=False)
    finally:
        lark.logger.removeHandler(handler)
        lark.logger.setLevel(level)
    assert [m for m in handler.messages if "conflict" in m.lower()] == []


def _callback_names():
    """Names Lark calls back for: aliases, and rules not inlined away."""
    parser = lark.Lark(GRAMMAR, parser="lalr", start=["statement", "dml_statement"],
                       postlex=PostLex(), maybe_placeholders=True)
    names = set()
    for rule in parser.rules:
        kept = [s for s in rule.expansion if not (s.is_term and s.filter_out)]
        if rule.origin.name.startswith("_") or (rule.options.expand1 and len(kept) == 1):
            continue
        names.add(rule.alias or rule.origin.name)
    return names


@pytest.mark.parametrize("name", sorted(_callback_names()))
def test_every_rule_has_a_builder_method(name):
    assert callable(getattr(TreeBuilder, name, None)), name


def test_grammar_directory_holds_only_grammar_files():
    names = {p.name for p in GRAMMAR_DIR.iterdir() if not p.name.startswith((".", "__pycache__"))}
    assert {n for n in names if not n.endswith(".lark")} == {"__init__.py"}
