"""Results are capped, and what was cut is said (``answers.capped``); values become JSON without loss where JSON
can hold them (``answers.plain``)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from partiql.agent.answers import Answer, capped, plain


def test_a_long_text_is_cut_at_a_line_and_says_how_much():
    text = "\n".join(f"line {n}" for n in range(5000))
    cut = capped(Answer(text, {}), max_text=1000)
    kept, note = cut.text.rsplit("\n", 1)
    assert len(kept) <= 1000 and text.startswith(kept) and kept.endswith(tuple("0123456789"))
    assert note.startswith("… cut: ") and f"{len(text) - 1000:,} more characters" in note


def test_large_data_keeps_the_head_of_its_longest_lists_and_names_the_cut():
    data = {"items": [{"n": n} for n in range(4000)], "count": 4000, "nested": {"rows": list(range(300))}}
    cut = capped(Answer("t", data), max_data=5000)
    assert len(json.dumps(cut.data, separators=(",", ":"))) <= 5000 + 300  # (the note itself)
    assert cut.data["items"] == data["items"][:len(cut.data["items"])] and cut.data["count"] == 4000
    kept = len(cut.data["items"])
    assert any(note.startswith(f"items: the first {kept:,} of 4,000 kept") for note in cut.data["cut"])


def test_data_within_the_cap_is_untouched():
    data = {"items": [1, 2, 3]}
    assert capped(Answer("t", data)).data == data


def test_data_without_a_list_to_shorten_is_left_out_with_a_note():
    cut = capped(Answer("t", {"blob": "x" * 10_000}), max_data=1000)
    assert list(cut.data) == ["cut"] and "left out" in cut.data["cut"][0]


@pytest.mark.parametrize("value, expected", [
    (Decimal("3"), 3), (Decimal("2.5"), 2.5), (Decimal("1E+2"), 100),
    (Decimal("0.1"), 0.1), (Decimal("3.14159265358979323846264338327950288"), "3.14159265358979323846264338327950288"),
    (b"\x00\x01", "AAE="), (frozenset({"b", "a"}), ["a", "b"]), ((1, Decimal("2")), [1, 2]),
    ({None: 1, "a": {Decimal(1)}}, {"null": 1, "a": [1]}), ("text", "text"), (None, None), (True, True),
])
def test_plain_keeps_what_json_can_hold(value, expected):
    assert plain(value) == expected
    json.dumps(plain(value))
