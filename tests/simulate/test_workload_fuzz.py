"""Any workload file ends in a Workload or a WorkloadError naming the place: never another exception
(the brief: no input may end in an internal error)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.simulate import WorkloadError, parse

KEYS = st.sampled_from(["duration", "seed", "tables", "data", "pattern", "design", "prices", "name", "statement",
                        "params", "rate", "limit", "all_pages", "table", "count", "item", "uniform", "zipf",
                        "choice", "weights", "sequence", "format", "args", "ramp", "base", "spike", "every", "for",
                        "read", "write", "s", "prefix", "number", "string", "date", "timestamp", "x",
                        "autoscaling", "dimension", "min", "max", "target", "index", "disable_scale_in",
                        "cost", "region", "table_class", "free_tier", "month_hours", "items", "item_bytes", "Orders",
                        "operation", "request", "TableName", "Key", "file", "expect"])
SCALARS = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
                    st.text(max_size=20), st.sampled_from(["{}#{}", "k{}", "%Y", "millis", "SELECT 1"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


def toml(value) -> str:
    """A value as TOML inline text (JSON's string escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, int) else (repr(value) if "e" not in repr(value) else f"{value:.6f}")
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + " }"


def document(top: dict, patterns: list) -> str:
    lines = [f"{k} = {toml(v)}" for k, v in top.items()]
    for pattern in patterns:
        lines.append("[[pattern]]")
        lines += [f"{k} = {toml(v)}" for k, v in pattern.items()]
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4), st.lists(st.dictionaries(KEYS, VALUES, max_size=5), max_size=3))
def test_generated_workloads_parse_or_say_what_is_wrong(top, patterns):
    try:
        parse(document(top, patterns), "w.toml")
    except WorkloadError as error:
        assert str(error).startswith("w.toml")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_says_what_is_wrong(text):
    try:
        parse(text, "w.toml")
    except WorkloadError as error:
        assert str(error).startswith("w.toml")


STATEMENTS = ["INSERT INTO Things VALUE {'pk': ?, 'n': ?}", "SELECT * FROM Things WHERE pk = ?",
              "UPDATE Things SET v = ? WHERE pk = ? AND n = ?", "DELETE FROM Things WHERE pk = ? AND n = ?",
              "SELECT * FROM Things WHERE v > ?", "SELEC oops"]
GENERATORS = st.one_of(SCALARS, st.lists(SCALARS, max_size=3),
                       st.builds(lambda n: {"uniform": n, "prefix": "k"}, st.integers(1, 5)),
                       st.builds(lambda v: {"choice": v}, st.lists(SCALARS, min_size=1, max_size=3)),
                       st.just({"sequence": True}), st.just({"date": True}), st.just({"number": [0, 9]}),
                       st.just({"string": 3}), st.just({"timestamp": "millis"}))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(STATEMENTS), st.lists(GENERATORS, max_size=4), st.integers(1, 30),
                          st.booleans()), min_size=1, max_size=3))
def test_generated_workloads_run_without_an_internal_error(patterns):
    from partiql.simulate import simulate
    text = 'duration = 2\ntables = ["CREATE TABLE Things PRIMARY KEY (pk STRING HASH, n NUMBER RANGE)"]\n'
    for statement, params, rate, pages in patterns:
        text += (f"[[pattern]]\nstatement = {json.dumps(statement)}\nparams = {toml(params)}\nrate = {rate}\n"
                 f"all_pages = {toml(pages)}\n")
    try:
        workload = parse(text, "w.toml")
    except WorkloadError:
        return
    try:  # (a statement that cannot run with any values stops the run before it starts, naming its pattern)
        outcome = simulate(workload)
    except WorkloadError as error:
        assert str(error).startswith("w.toml: pattern pattern[")
        assert "cannot run" in str(error) or "generator" in str(error)
        return
    # (what depends on the values drawn is DynamoDB's refusal of those requests, counted as failures)
    assert outcome.requests == sum(2 * rate for _, _, rate, _ in patterns)
