"""ProjectionExpression semantics (item-api §3.11): rows of (item, paths, expected)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partiql.engine.expressions.model import Path
from partiql.engine.expressions.projection import project
from partiql.engine.types import from_python, values_equal


def P(*elements) -> Path:
    return Path(tuple(elements))


ITEM = {
    "pk": "p",
    "s": "hello",
    "n": 5,
    "a": {"b": "dog", "c": [1, 2, 3], "d": {"e": "deep"}},
    "l": [{"k": "v0", "j": 0}, "x", [10, 20, 30], {"k": "v3"}],
    "ss": {"a", "b"},
    "nul": None,
}

PROJECTIONS = [
    ("top-level", [P("s"), P("n")], {"s": "hello", "n": 5}),
    ("key not added implicitly", [P("s")], {"s": "hello"}),
    ("whole map", [P("a")], {"a": ITEM["a"]}),
    ("set", [P("ss")], {"ss": {"a", "b"}}),
    ("NULL is present", [P("nul")], {"nul": None}),
    ("nested", [P("a", "b")], {"a": {"b": "dog"}}),
    ("deep", [P("a", "d", "e")], {"a": {"d": {"e": "deep"}}}),
    ("two keys of one map merge", [P("a", "b"), P("a", "d", "e")], {"a": {"b": "dog", "d": {"e": "deep"}}}),
    ("list element", [P("a", "c", 1)], {"a": {"c": [2]}}),
    ("indexes in index order, holes squeezed", [P("a", "c", 2), P("a", "c", 0)], {"a": {"c": [1, 3]}}),
    ("map inside list", [P("l", 0, "k")], {"l": [{"k": "v0"}]}),
    ("maps inside list", [P("l", 3, "k"), P("l", 0, "j")], {"l": [{"j": 0}, {"k": "v3"}]}),
    ("list inside list", [P("l", 2, 1)], {"l": [[20]]}),
    ("mixed list members", [P("l", 1), P("l", 2, 0), P("l", 0, "k")], {"l": [{"k": "v0"}, "x", [10]]}),
    ("missing omitted", [P("s"), P("nope")], {"s": "hello"}),
    ("past the end omitted", [P("a", "c", 9), P("s")], {"s": "hello"}),
    ("dot on a string omitted", [P("s", "x")], {}),
    ("index on a map omitted", [P("a", 0)], {}),
    ("missing nested key omitted", [P("a", "q")], {}),
    ("nothing matches", [P("q"), P("r", "s")], {}),
    ("no paths", [], {}),
    ("whole value then part of it", [P("a"), P("a", "b")], {"a": ITEM["a"]}),
    ("part of a value then the whole", [P("a", "b"), P("a")], {"a": ITEM["a"]}),
]


@pytest.mark.parametrize("paths, expected", [pytest.param(p, e, id=i) for i, p, e in PROJECTIONS])
def test_project(paths, expected):
    item = from_python(ITEM)
    snapshot = copy.deepcopy(item)
    result = project(item, paths)
    assert values_equal(result, from_python(expected)), result
    assert values_equal(item, snapshot)


def test_absent_item():
    assert project({}, [P("a"), P("b", 0)]) == {}


def test_result_shares_nothing_mutable():
    item = from_python(ITEM)
    result = project(item, [P("a"), P("l", 0), P("l", 2)])
    result["a"]["c"].append("mutated")
    result["a"]["d"]["e"] = "mutated"
    result["l"][0]["k"] = "mutated"
    result["l"][1].append("mutated")
    assert values_equal(item, from_python(ITEM))


# ------------------------------------------------------------------------ properties

scalars = st.one_of(st.text(max_size=3), st.integers(-99, 99).map(from_python), st.booleans(), st.none())
values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=3),
                               st.dictionaries(st.sampled_from("xyz"), children, max_size=3)),
    max_leaves=8,
)
items = st.dictionaries(st.sampled_from(["a", "b", "c"]), values, max_size=3)


def _leaf_paths(value, prefix):
    if isinstance(value, dict) and value:
        return [p for key, member in value.items() for p in _leaf_paths(member, prefix + (key,))]
    if isinstance(value, list) and value:
        return [p for index, member in enumerate(value) for p in _leaf_paths(member, prefix + (index,))]
    return [prefix]


@settings(max_examples=200, deadline=None)
@given(item=items)
def test_projecting_every_attribute_gives_the_item(item):
    result = project(item, [P(name) for name in item])
    assert values_equal(result, item)
    for name, value in result.items():
        if isinstance(value, (dict, list)):
            assert value is not item[name]


@settings(max_examples=200, deadline=None)
@given(item=items)
def test_projecting_every_leaf_gives_the_item_back(item):
    # Empty maps/lists are leaves themselves, so every leaf path together rebuilds the item.
    paths = [P(*path) for name, value in item.items() for path in _leaf_paths(value, (name,))]
    assert values_equal(project(item, paths), item)


@settings(max_examples=200, deadline=None)
@given(item=items, data=st.data())
def test_projection_is_a_subset(item, data):
    paths = [P(*path) for name, value in item.items() for path in _leaf_paths(value, (name,))]
    chosen = data.draw(st.lists(st.sampled_from(paths), unique=True, max_size=4)) if paths else []
    result = project(item, chosen)
    assert set(result) <= set(item)
    assert set(result) == {path.elements[0] for path in chosen}
