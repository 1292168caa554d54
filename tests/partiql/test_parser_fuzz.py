"""Random text and mutated statements: parse() + check_statement() end in a tree or a
ValidationException, never in another exception (and never leak a Lark tree); the
parser's own LALR loop makes the tree Lark's parser makes, and gives up where Lark refuses."""

import re
import re._parser as re_parser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from partiql import ast, ast_walk, parser
from partiql.checks import check_statement
from partiql.engine.errors import ValidationException
from partiql.lalr_loop import GiveUp
from partiql.parser import parse, parse_dml

SEEDS = [
    "SELECT * FROM \"H\" WHERE pk = 'a' AND n IN [?, 2] AND s IS NOT MISSING",
    "SELECT m.sub, l[1] FROM \"T\".\"idx\" WHERE pk = ? ORDER BY sk DESC",
    "SELECT COUNT(*) FROM \"C\" WHERE size(s) > 3 OR attribute_exists(m.x) = true LIMIT 1",
    "INSERT INTO \"H\" VALUE {'pk': ?, 'm': {'k': [1, -2.5e3, <<'a'>>]}, 'ns': <<1, 2>>}",
    "UPDATE \"H\" SET a = a + 1, ss = set_add(ss, <<'x'>>) REMOVE c WHERE pk = 'a' RETURNING ALL NEW *",
    "FROM \"H\" WHERE pk = 'a' AND NOT (n BETWEEN 0 AND 5) SET l = list_append(l, ['c'])",
    "DELETE FROM \"H\" WHERE pk = 'a' AND begins_with(s, 'x') RETURNING ALL OLD *",
    "EXISTS(SELECT * FROM \"H\" WHERE pk = 'a' AND s = 'str')",
    "CREATE TABLE T (pk S, sk N) PRIMARY KEY (pk HASH, sk RANGE) GSI (g ON (sk HASH) PROJECTING ALL)",
    "ALTER TABLE T SET BILLING MODE PROVISIONED (1 RCU, 2 WCU)",
    "EXPLAIN SELECT VALUE x FROM t AS u -- comment\n /* block */ ;",
]
TOKENS = ["SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IS", "IN", "BETWEEN", "SET", "REMOVE", "VALUE",
          "MISSING", "NULL", "TRUE", "?", "*", ".", ",", "(", ")", "[", "]", "{", "}", "<<", ">>", "=",
          "<>", "!=", "<", ">=", "-", "+", "'", '"', "--", "/*", "*/", ";", "1e126", "-1", "[-1]", "pad",
          "size(", "exists(", "set_add(", "`ion`", "#", "\n", " ", "ORDER BY", "LIMIT", "RETURNING",
          "CREATE", "TABLE", "HASH", "GSI", ":"]
ALPHABET = st.sampled_from(list("abcsn01.9eE-+*/%|?'\"`;:,()[]{}<>=! \n#_$@\\") + ["SELECT ", " FROM ",
                                                                               " WHERE ", " AND "])
SIMPLE = (str, int, bool, type(None))

FUZZ = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _well_formed(node):
    """Every field of every node is a node, a span, a plain value or a tuple of those."""
    if isinstance(node, tuple):
        for item in node:
            _well_formed(item)
        return
    if isinstance(node, (ast.Span,) + SIMPLE):
        return
    assert isinstance(node, ast.Node), repr(node)
    for name in node._fields:
        _well_formed(getattr(node, name))


def _nodes(node):
    """Every node under ``node``, found by looking into every field: what ast_walk.walk must yield."""
    if isinstance(node, tuple):
        return [found for item in node for found in _nodes(item)]
    if not isinstance(node, ast.Node):
        return []
    return [node] + [found for name in node._fields for found in _nodes(getattr(node, name))]


def _depth(node) -> int:
    """How deep ``node``'s tree is, found by looking into every field: what ast_walk.depth must say."""
    if isinstance(node, tuple):
        return max((_depth(item) for item in node), default=0)
    if not isinstance(node, ast.Node):
        return 0
    return 1 + max((_depth(getattr(node, name)) for name in node._fields), default=0)


def _outcome(run):
    """A parse's tree, or how it was refused (the loop giving up and Lark's syntax errors alike)."""
    parser.lark_parser()[1].parameters = 0
    try:
        return run()
    except (GiveUp, UnexpectedInput):
        return "refused"
    except ValidationException as error:
        return str(error)


def _loop_agrees_with_lark(text):
    """The parser's own LALR loop makes Lark's tree, and gives up where Lark raises."""
    lark = parser.lark_parser()[0]
    for start in ("statement", "dml_statement"):
        assert (_outcome(lambda: parser.fast_loop().parse(text, start))
                == _outcome(lambda: lark.parse(text, start=start))), start


def _run(text):
    _loop_agrees_with_lark(text)
    for parse_function in (parse, parse_dml):
        try:
            stmt = parse_function(text)
        except ValidationException:
            continue
        assert isinstance(stmt, ast.Statement)
        _well_formed(stmt)
        assert [id(n) for n in ast_walk.walk(stmt)] == [id(n) for n in _nodes(stmt)]
        assert ast_walk.depth(stmt) == _depth(stmt)
        try:
            check_statement(stmt)
        except ValidationException:
            pass


def test_the_installed_lark_keeps_the_fast_loop():
    assert parser.fast_loop() is not None


def _may_begin_with(parsed, char: str) -> tuple[bool, bool]:
    """(whether a match of the parsed regex may begin with ``char``, whether it may be empty)."""
    code = ord(char)
    for op, arg in parsed:
        name = str(op)
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            begins, empty = _may_begin_with(arg[2], char)
            if begins:
                return True, False
            if arg[0] > 0 and not empty:
                return False, False
            continue
        if name in ("SUBPATTERN", "ATOMIC_GROUP"):
            begins, empty = _may_begin_with(arg[-1], char)
        elif name == "BRANCH":
            outcomes = [_may_begin_with(branch, char) for branch in arg[1]]
            begins, empty = any(b for b, _ in outcomes), any(e for _, e in outcomes)
        elif name in ("AT", "ASSERT_NOT", "ASSERT"):  # (match nothing themselves; a lookahead may be wider)
            begins, empty = name == "ASSERT" and _may_begin_with(arg[1], char)[0], True
        elif name == "LITERAL":
            begins, empty = arg == code, False
        elif name == "NOT_LITERAL":
            begins, empty = arg != code, False
        elif name == "ANY":
            begins, empty = char != "\n", False
        elif name == "IN":
            begins, empty = re.fullmatch(_class_text(arg), char) is not None, False
        else:
            raise AssertionError(f"the test cannot read a regex with {name}")
        if begins or not empty:
            return begins, empty
    return False, True


def _class_text(items) -> str:
    """A character class back as regex text (enough to test one character against it)."""
    parts, negated = [], False
    for op, arg in items:
        name = str(op)
        if name == "NEGATE":
            negated = True
        elif name == "LITERAL":
            parts.append(re.escape(chr(arg)))
        elif name == "RANGE":
            parts.append(f"{re.escape(chr(arg[0]))}-{re.escape(chr(arg[1]))}")
        elif name == "CATEGORY":
            parts.append({"CATEGORY_SPACE": r"\s", "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_DIGIT": r"\d",
                          "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}[str(arg)])
        else:
            raise AssertionError(f"the test cannot read a character class with {name}")
    return f"[{'^' if negated else ''}{''.join(parts)}]"


@pytest.mark.parametrize("regex, begins", [
    (r"\s+", True), (r"[^\n]*x", True), (r"--[^\n]*", False), (r"(?:a|\s)b", True), (r"a?\sb", True),
    (r"a?b", False), (r"[A-Za-z_]\w*", False), (r"\/(?!\*)", False), (r"(?= )x*", True), (r"[ -~]", True)])
def test_the_first_character_reading_of_a_regex(regex, begins):
    assert _may_begin_with(re_parser.parse(regex), " ")[0] is begins


def test_a_space_can_begin_no_token_but_the_ignored_whitespace():
    """What the loop's skipping of spaces without the lexer's regex rests on (``LalrLoop.parse``)."""
    lark, _ = parser.lark_parser()
    ignored = set(lark.lexer_conf.ignore)
    beginning = {terminal.name for terminal in lark.terminals
                 if _may_begin_with(re_parser.parse(terminal.pattern.to_regexp()), " ")[0]}
    assert beginning and beginning <= ignored and not beginning & set(lark.lexer_conf.callbacks)


@pytest.mark.parametrize("text", SEEDS)
def test_the_loop_parses_the_seeds_itself(text):
    _loop_agrees_with_lark(text)
    assert _outcome(lambda: parser.fast_loop().parse(text, "statement")) == parse(text)


@FUZZ
@given(st.lists(ALPHABET, max_size=40).map("".join))
def test_random_text(text):
    _run(text)


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        pos = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert_char", "delete", "replace", "insert_token"]))
        if action == "insert_char":
            text = text[:pos] + draw(ALPHABET) + text[pos:]
        elif action == "delete":
            end = pos + draw(st.integers(1, 6))
            text = text[:pos] + text[end:]
        elif action == "replace":
            text = text[:pos] + draw(ALPHABET) + text[pos + 1:]
        else:
            text = text[:pos] + " " + draw(st.sampled_from(TOKENS)) + " " + text[pos:]
    return text


@FUZZ
@given(mutated())
def test_mutated_statements(text):
    _run(text)


@FUZZ
@given(st.sampled_from(SEEDS), st.data())
def test_every_prefix(text, data):
    _run(text[:data.draw(st.integers(0, len(text)))])


def test_deepest_statements_end_in_a_validation_exception():
    for text in ["SELECT * FROM t WHERE " + "NOT " * 2000 + "a = 1",
                 "SELECT * FROM t WHERE " + " AND ".join(["a = 1"] * 1300),
                 "UPDATE t SET a = " + " + ".join(["1"] * 2000) + " WHERE pk = 1",
                 "SELECT * FROM t WHERE a = " + "(" * 2500 + "1" + ")" * 2500]:
        stmt = parse(text)
        assert len(list(ast_walk.walk(stmt))) > 1
        try:
            check_statement(stmt)
        except ValidationException:
            pass


def test_huge_numbers_end_in_a_validation_exception():
    for text in ["1e" + "9" * 5000, "1e-" + "0" * 5000 + "5", "9" * 5000, "0." + "0" * 5000 + "1"]:
        for statement in (f"SELECT * FROM t WHERE n = {text}", f"SELECT l[{text}] FROM t"):
            try:
                check_statement(parse(statement))
            except ValidationException:
                pass


def test_without_the_fast_loop_lark_parses_alone(monkeypatch):
    texts = SEEDS + ["SELECT * FROM t WHERE", "SELEC 1"]
    expected = [_outcome(lambda: parse(text)) for text in texts]
    monkeypatch.setattr(parser, "fast_loop", lambda: None)  # a Lark whose internals moved
    parser._parse.cache_clear()
    try:
        assert [_outcome(lambda: parse(text)) for text in texts] == expected
    finally:
        parser._parse.cache_clear()
