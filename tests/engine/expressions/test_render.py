"""Engine model → expression text, and the round trip parse(render(x)) == x."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partiql.engine.expressions.model import (
    Add, And, Arithmetic, Between, Call, Comparison, Delete, In, Not, Or, Path, Predicate, Remove, Set, Update,
    Value,
)
from partiql.engine.expressions.parser import (
    ExpressionContext, parse_condition, parse_projection, parse_update,
)
from partiql.engine.expressions.render import Renderer


def P(*elements):
    return Path(tuple(elements))


# ------------------------------------------------------------ exact texts

RENDERED = [
    ("condition", And((Comparison("=", P("a"), Value("x")), Call("begins_with", (P("b"), Value("p"))))),
     "#n0 = :v0 AND begins_with(#n1, :v1)", {"#n0": "a", "#n1": "b"}, {":v0": "x", ":v1": "p"}),
    ("condition", Or((Comparison("<", P("a", "b", 1), Value(D(1))), And((Not(Call("attribute_exists", (P("a"),))),
                                                                        Comparison(">", P("c"), P("a")))))),
     "#n0.#n1[1] < :v0 OR (NOT attribute_exists(#n0) AND #n2 > #n0)", {"#n0": "a", "#n1": "b", "#n2": "c"},
     {":v0": D(1)}),
    ("condition", And((And((Comparison("=", P("a"), Value(1)), Comparison("=", P("b"), Value(2)))),
                       Comparison("=", P("c"), Value(3)))),
     "(#n0 = :v0 AND #n1 = :v1) AND #n2 = :v2", {"#n0": "a", "#n1": "b", "#n2": "c"},
     {":v0": 1, ":v1": 2, ":v2": 3}),
    ("condition", Not(Or((Comparison("=", P("a"), Value(1)), Comparison("=", P("a"), Value(1))))),
     "NOT (#n0 = :v0 OR #n0 = :v1)", {"#n0": "a"}, {":v0": 1, ":v1": 1}),
    ("condition", Between(P("a.b"), Value(1), Value(2)), "#n0 BETWEEN :v0 AND :v1", {"#n0": "a.b"}, {":v0": 1, ":v1": 2}),
    ("condition", In(Call("size", (P("a"),)), (Value(1), P("b"))), "size(#n0) IN (:v0, #n1)",
     {"#n0": "a", "#n1": "b"}, {":v0": 1}),
    # PartiQL only: a condition as a BOOL operand, shown parenthesised.
    ("condition", Comparison("=", Predicate(Call("attribute_exists", (P("a"),))), Value(True)),
     "(attribute_exists(#n0)) = :v0", {"#n0": "a"}, {":v0": True}),
    ("update", Update((Set(P("a"), Arithmetic("+", P("a"), Value(D(1)))), Remove(P("b", 0)), Set(P("c"), P("a")),
                       Add(P("d"), Value(frozenset({"x"}))), Delete(P("e"), Value(frozenset({"y"}))))),
     "SET #n0 = #n0 + :v0, #n1 = #n0 REMOVE #n2[0] ADD #n3 :v1 DELETE #n4 :v2",
     {"#n0": "a", "#n1": "c", "#n2": "b", "#n3": "d", "#n4": "e"},
     {":v0": D(1), ":v1": frozenset({"x"}), ":v2": frozenset({"y"})}),
    # PartiQL only: a + b + c, shown parenthesised.
    ("update", Update((Set(P("a"), Arithmetic("+", Arithmetic("+", P("a"), P("b")), P("c"))),)),
     "SET #n0 = (#n0 + #n1) + #n2", {"#n0": "a", "#n1": "b", "#n2": "c"}, {}),
    ("projection", (P("a"), P("b", 2, "c"), P("select")), "#n0, #n1[2].#n2, #n3",
     {"#n0": "a", "#n1": "b", "#n2": "c", "#n3": "select"}, {}),
]


@pytest.mark.parametrize("kind, node, text, names, values", RENDERED, ids=[row[2] for row in RENDERED])
def test_rendered_text(kind, node, text, names, values):
    renderer = Renderer()
    assert getattr(renderer, kind)(node) == text
    assert renderer.names == names
    assert renderer.values == values


def test_one_renderer_shares_placeholders_across_expressions():
    renderer = Renderer()
    assert renderer.condition(Comparison("=", P("a"), Value(1))) == "#n0 = :v0"
    assert renderer.projection((P("a"), P("b"))) == "#n0, #n1"
    assert renderer.names == {"#n0": "a", "#n1": "b"}
    assert renderer.values == {":v0": 1}


# ------------------------------------------------------------- round trip
# Models the parser can produce (statically valid: typed values where the
# parser checks types, distinct operands, no overlapping update paths).

names = st.text(min_size=1, max_size=6)
indexes = st.integers(0, 2 ** 31 - 1)


def paths(first=names):
    return st.builds(lambda head, rest: Path((head, *rest)), first, st.lists(names | indexes, max_size=3))


numbers = st.integers(-10 ** 6, 10 ** 6).map(D)
strings = st.text(max_size=6)
binaries = st.binary(max_size=4)
scalars = numbers | strings | binaries
documents = st.recursive(scalars | st.booleans() | st.none(),
                         lambda inner: st.lists(inner, max_size=3) | st.dictionaries(strings, inner, max_size=3),
                         max_leaves=5)
sets = (st.frozensets(numbers, min_size=1, max_size=3) | st.frozensets(strings, min_size=1, max_size=3)
        | st.frozensets(binaries, min_size=1, max_size=3))
any_values = st.builds(Value, documents | sets)
ordered_values = st.builds(Value, scalars)
sized_values = st.builds(Value, strings | binaries | sets | st.lists(scalars, max_size=2))


def distinct(node_operands):
    first, *rest = node_operands
    return not (type(first) is Path and any(other == first for other in rest))


sizes = st.builds(lambda arg: Call("size", (arg,)), paths() | sized_values)
operands = paths() | any_values | sizes
ordered_operands = paths() | ordered_values | sizes


@st.composite
def comparisons(draw):
    op = draw(st.sampled_from(("=", "<>", "<", "<=", ">", ">=")))
    side = ordered_operands if op in ("<", "<=", ">", ">=") else operands
    node = Comparison(op, draw(side), draw(side))
    return node if distinct((node.left, node.right)) else draw(comparisons())


@st.composite
def betweens(draw):
    subject = draw(ordered_operands)
    if draw(st.booleans()):
        kind = draw(st.sampled_from((numbers, strings, binaries)))
        low, high = sorted((draw(kind), draw(kind)))
        low, high = Value(low), Value(high)
    else:
        low, high = draw(paths()), draw(ordered_operands)
    return Between(subject, low, high) if distinct((subject, low, high)) else draw(betweens())


@st.composite
def ins(draw):
    subject = draw(operands)
    candidates = tuple(draw(st.lists(operands, min_size=1, max_size=4)))
    return In(subject, candidates) if distinct((subject, *candidates)) else draw(ins())


@st.composite
def function_conditions(draw):
    name = draw(st.sampled_from(("attribute_exists", "attribute_not_exists", "attribute_type", "begins_with",
                                 "contains")))
    if name in ("attribute_exists", "attribute_not_exists"):
        args = (draw(paths()),)
    elif name == "attribute_type":
        args = (draw(paths()), Value(draw(st.sampled_from(("S", "N", "B", "SS", "NS", "BS", "BOOL", "NULL", "L", "M")))))
    elif name == "begins_with":
        prefix = paths() | st.builds(Value, strings | binaries)
        args = (draw(prefix), draw(prefix))
    else:
        args = (draw(operands), draw(operands))
    return Call(name, args) if distinct(args) else draw(function_conditions())


atoms = comparisons() | betweens() | ins() | function_conditions()
conditions = st.recursive(
    atoms,
    lambda inner: (st.builds(lambda xs: And(tuple(xs)), st.lists(inner, min_size=2, max_size=3))
                   | st.builds(lambda xs: Or(tuple(xs)), st.lists(inner, min_size=2, max_size=3))
                   | st.builds(Not, inner)),
    max_leaves=8,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def round_trip(kind, node):
    renderer = Renderer()
    text = getattr(renderer, kind)(node)
    ctx = ExpressionContext(renderer.names or None, renderer.values or None)
    parsed = {"condition": parse_condition, "update": parse_update, "projection": parse_projection}[kind](text, ctx)
    ctx.check_unused()
    return parsed


@SETTINGS
@given(conditions)
def test_condition_round_trip(condition):
    assert round_trip("condition", condition) == condition


update_operands = st.deferred(lambda: paths() | any_values | if_not_exists | list_appends)
if_not_exists = st.builds(lambda path, value: Call("if_not_exists", (path, value)), paths(), update_operands)
list_operands = st.deferred(lambda: paths() | st.builds(Value, st.lists(scalars, max_size=2)) | if_not_exists
                            | list_appends)
list_appends = st.builds(lambda a, b: Call("list_append", (a, b)), list_operands, list_operands)
number_operands = paths() | st.builds(Value, numbers) | if_not_exists
arithmetic = st.builds(Arithmetic, st.sampled_from("+-"), number_operands, number_operands)
set_values = st.builds(Value, sets)


def actions(kind, path):
    if kind == "SET":
        return st.builds(Set, st.just(path), update_operands | arithmetic)
    if kind == "REMOVE":
        return st.just(Remove(path))
    if kind == "ADD":
        return st.builds(Add, st.just(path), set_values | st.builds(Value, numbers))
    return st.builds(Delete, st.just(path), set_values)


@st.composite
def updates(draw):
    kinds = draw(st.permutations(("SET", "REMOVE", "ADD", "DELETE")))[:draw(st.integers(1, 4))]
    heads = iter(draw(st.lists(names, min_size=12, max_size=12, unique=True)))  # no two paths overlap
    out = []
    for kind in kinds:
        for _ in range(draw(st.integers(1, 3))):
            out.append(draw(actions(kind, draw(paths(st.just(next(heads)))))))
    return Update(tuple(out))


@SETTINGS
@given(updates())
def test_update_round_trip(update):
    assert round_trip("update", update) == update


@st.composite
def projections(draw):
    heads = draw(st.lists(names, min_size=1, max_size=5, unique=True))
    return tuple(draw(paths(st.just(head))) for head in heads)


@SETTINGS
@given(projections())
def test_projection_round_trip(projection):
    assert round_trip("projection", projection) == projection
