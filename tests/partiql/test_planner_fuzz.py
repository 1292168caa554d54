"""Random and mutated statements through ``db.execute`` / batches / transactions against the §9.0
fixtures: every input ends in a Result or a ``DynamoDBError`` — never another exception type."""

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partiql.engine.errors import DynamoDBError
from partiql.result import Result

from .conformance import cases_decision, cases_index, cases_multi, cases_select, cases_where, cases_write
from .conformance.fixtures import build


def _statements(cases) -> list[str]:
    found = []
    for c in cases:
        for s in c.steps:
            entries = [s.statement] + list(s.batch or ()) + list(s.transaction or ())
            for entry in entries:
                text = entry if isinstance(entry, str) or entry is None else entry[0]
                if text and len(text) < 600 and text not in found:
                    found.append(text)
    return found


SEEDS = _statements(cases_select.CASES + cases_where.CASES + cases_write.CASES + cases_multi.CASES
                    + cases_index.CASES + cases_decision.CASES)
TABLES = ["HHH", "CCC", "CNN", "BIG", "XXX", "WWW", '"XXX"."gsi-all"', 'XXX."lsi-keys"', '"Nope"', "WWW.\"gsi-inc\""]
ATTRIBUTES = ["pk", "sk", "n", "s", "ss", "m.sub", "l[0]", "tag", "gsiPk", "lsiSk", "projattr", "nonproj", "nope"]
VALUES = ["'a'", "'p'", "'1'", "1", "-2.5e3", "?", "NULL", "TRUE", "MISSING", "[1, 'x']", "{'k': 1}", "<<'a'>>",
          "<<1, 2>>", "'zzz'", "1e126", "''"]
OPERATORS = ["=", "<>", "<", "<=", ">", ">=", "IN", "BETWEEN", "AND", "OR", "NOT", "IS", "+", "-"]
CLAUSES = [r" WHERE .*?(?= ORDER BY| RETURNING|$)", r" ORDER BY .*?(?= RETURNING|$)", r" RETURNING .*$",
           r" AND [^ ]+ [^ ]+ [^ ]+", r" OR [^ ]+ [^ ]+ [^ ]+", r"\(.*?\)", r"\[.*?\]"]
SWAPS = {  # kind -> (what to find, what may replace it)
    "table": (r"\b(HHH|CCC|CNN|BIG|XXX|WWW)\b", TABLES),
    "attribute": (r"\b(pk|sk|n|s|ss|tag|gsiPk)\b", ATTRIBUTES),
    "value": (r"'[^']*'|\b\d+(\.\d+)?\b|\?", VALUES),
    "operator": (r"<>|<=|>=|=|<|>|\bAND\b|\bOR\b", OPERATORS),
}
PYTHON_VALUES = st.one_of(st.text(max_size=4), st.integers(-5, 5), st.booleans(), st.none(), st.binary(max_size=3),
                          st.lists(st.integers(0, 3), max_size=2),
                          st.dictionaries(st.sampled_from("ab"), st.integers(0, 2)),
                          st.sets(st.sampled_from(["a", "b"]), min_size=1))
# PARTIQL_FUZZ_EXAMPLES=5000 for a long hunt; the default keeps the suite quick.
FUZZ = settings(max_examples=int(os.environ.get("PARTIQL_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _swap(draw, text: str) -> str:
    pattern, choices = SWAPS[draw(st.sampled_from(sorted(SWAPS)))]
    matches = list(re.finditer(pattern, text))
    if not matches:
        return text
    match = draw(st.sampled_from(matches))
    return text[:match.start()] + draw(st.sampled_from(choices)) + text[match.end():]


def _drop(draw, text: str) -> str:
    matches = list(re.finditer(draw(st.sampled_from(CLAUSES)), text))
    if not matches:
        return text
    match = draw(st.sampled_from(matches))
    return text[:match.start()] + text[match.end():]


def _token(draw, text: str) -> str:
    words = text.split(" ")
    position = draw(st.integers(0, len(words)))
    words.insert(position, draw(st.sampled_from(VALUES + OPERATORS + ATTRIBUTES + ["(", ")", ",", "*"])))
    return " ".join(words)


MUTATIONS = [_swap, _drop, _token]


@st.composite
def statements(draw):
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 3))):
        text = draw(st.sampled_from(MUTATIONS))(draw, text)
    return text


# Generated SELECTs aimed at the planner: key conditions of every shape and type on every source.
SOURCES = ["HHH", "CCC", "CNN", "BIG", "XXX", 'XXX."gsi-all"', 'XXX."gsi-inc"', 'XXX."lsi-all"', 'XXX."lsi-keys"']
KEY_ATTRIBUTES = ["pk", "sk", "gsiPk", "gsiPk2", "lsiSk", "tag", "n", "nonproj"]
LITERALS = ["'p'", "'q'", "'a'", "'1'", "'s1'", "'x'", "1", "2", "3", "''", "true", "NULL", "[1]", "<<1>>", "?"]


@st.composite
def predicates(draw, depth=0):
    attribute, value = draw(st.sampled_from(KEY_ATTRIBUTES)), draw(st.sampled_from(LITERALS))
    leaves = [f"{attribute} {draw(st.sampled_from(['=', '<>', '<', '<=', '>', '>=']))} {value}",
              f"{attribute} BETWEEN {value} AND {draw(st.sampled_from(LITERALS))}",
              f"{attribute} IN [{', '.join(draw(st.lists(st.sampled_from(LITERALS), min_size=1, max_size=4)))}]",
              f"begins_with({attribute}, {value})", f"attribute_exists({attribute})", f"{attribute} IS MISSING"]
    if depth < 3 and draw(st.booleans()):
        left, right = draw(predicates(depth + 1)), draw(predicates(depth + 1))
        return draw(st.sampled_from([f"({left} AND {right})", f"({left} OR {right})", f"NOT ({left})"]))
    return draw(st.sampled_from(leaves))


@st.composite
def selects(draw):
    text = f"SELECT * FROM {draw(st.sampled_from(SOURCES))}"
    if draw(st.booleans()):  # pin the key: point reads, as batches and transactions need
        return text + f" WHERE pk = {draw(st.sampled_from(LITERALS))} AND " + draw(predicates())
    if draw(st.integers(0, 9)):
        text += " WHERE " + draw(predicates())
    if draw(st.booleans()):
        text += " ORDER BY " + draw(st.sampled_from(["pk", "sk", "pk DESC, sk DESC", "gsiPk", "lsiSk DESC"]))
    return text


@st.composite
def calls(draw):
    """(statement, parameters, limit, consistent)."""
    text = draw(statements() | selects())
    parameters = draw(st.lists(PYTHON_VALUES, max_size=3))
    limit = draw(st.none() | st.integers(1, 3))
    return text, parameters, limit, draw(st.booleans())


def _settles(call, *args, **kwargs):
    """Call; return its value, or None when it raised a DynamoDBError."""
    try:
        return call(*args, **kwargs)
    except DynamoDBError:
        return None


@FUZZ
@given(calls())
def test_execute_ends_in_a_result_or_a_dynamodb_error(call):
    text, parameters, limit, consistent = call
    db = build()
    result = _settles(db.execute, text, parameters, limit=limit, consistent_read=consistent)
    assert result is None or isinstance(result, Result)
    if result is not None and result.next_token is not None:
        more = _settles(db.execute, text, parameters, limit=limit, consistent_read=consistent,
                        next_token=result.next_token)
        assert more is None or isinstance(more, Result)


@FUZZ
@given(st.lists(st.tuples(statements() | selects(), st.lists(PYTHON_VALUES, max_size=2)), min_size=1, max_size=4))
def test_batches_and_transactions_end_in_results_or_dynamodb_errors(entries):
    db = build()
    results = _settles(db.execute_batch, entries)
    assert results is None or all(isinstance(r, (Result, DynamoDBError)) for r in results)
    results = _settles(db.execute_transaction, entries)
    assert results is None or all(isinstance(r, Result) for r in results)


@FUZZ
@given(statements())
def test_explain_ends_in_a_plan_or_a_dynamodb_error(text):
    db = build()
    _settles(db.explain, text)
