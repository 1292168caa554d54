"""Items as text: values, columns, every format, the row limit."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from partiql.shell.formatting import FORMATS, cell, columns, literal, render_items, to_json

ITEMS = [
    {"SongTitle": "Hi", "Artist": "Acme", "Released": Decimal("2024"), "Genre": "Pop"},
    {"Artist": "Acme", "SongTitle": "Yo", "Released": Decimal("2020"), "Tags": frozenset({"b", "a"}),
     "Stats": {"plays": Decimal("12"), "likes": [Decimal("1"), Decimal("2.50")]}},
    {"Artist": "Zed", "SongTitle": "Ok, \"quoted\"", "Released": Decimal("2024"), "Live": True,
     "Cover": b"\x00\xff", "Note": None},
]
KEYS = ["Artist", "SongTitle"]

VALUES = [
    # value, cell, literal, json
    ("it's", "it's", "'it''s'", '"it\'s"'),
    (Decimal("12.50"), "12.50", "12.50", "12.50"),
    (Decimal("1E+3"), "1000", "1000", "1000"),
    (True, "true", "true", "true"),
    (None, "NULL", "NULL", "null"),
    (b"hi", "aGk=", "'aGk='", '"aGk="'),
    ([Decimal(1), "a"], "[1, 'a']", "[1, 'a']", '[1, "a"]'),
    ({"k": {"n": Decimal(2)}}, "{'k': {'n': 2}}", "{'k': {'n': 2}}", '{"k": {"n": 2}}'),
    (frozenset({"b", "a"}), "<<'a', 'b'>>", "<<'a', 'b'>>", '["a", "b"]'),
    (frozenset({Decimal(10), Decimal(9)}), "<<9, 10>>", "<<9, 10>>", "[9, 10]"),
    ("née ☃", "née ☃", "'née ☃'", '"née ☃"'),
]


@pytest.mark.parametrize("value, as_cell, as_literal, as_json", VALUES)
def test_values(value, as_cell, as_literal, as_json):
    assert cell(value) == as_cell
    assert literal(value) == as_literal
    assert to_json(value) == as_json


def test_json_numbers_are_exact():
    digits = Decimal("1234567890123456789012345678901234567.8")
    assert json.loads(to_json({"n": digits}), parse_float=Decimal)["n"] == digits


@pytest.mark.parametrize("items, keys, expected", [
    (ITEMS, KEYS, ["Artist", "SongTitle", "Released", "Genre", "Tags", "Stats", "Live", "Cover", "Note"]),
    (ITEMS[:1], ["Released", "Missing"], ["Released", "SongTitle", "Artist", "Genre"]),
    ([], KEYS, []),
])
def test_columns_put_keys_first_then_the_union(items, keys, expected):
    assert columns(items, keys) == expected


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_formats(fmt, golden):
    golden(f"items.{fmt}.txt", render_items(ITEMS, fmt, KEYS) + "\n")


@pytest.mark.parametrize("fmt, expected", [
    ("table", ""), ("vertical", ""), ("json", "[]"), ("jsonl", ""), ("csv", ""), ("ddb-json", ""),
])
def test_no_items(fmt, expected):
    assert render_items([], fmt, KEYS) == expected


def test_csv_and_json_read_back():
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(render_items(ITEMS, "csv", KEYS))))
    assert rows[2]["SongTitle"] == 'Ok, "quoted"' and rows[0]["Tags"] == ""
    assert json.loads(render_items(ITEMS, "json", KEYS))[1]["Tags"] == ["a", "b"]
    assert [json.loads(line)["Artist"] for line in render_items(ITEMS, "jsonl", KEYS).splitlines()] == [
        "Acme", "Acme", "Zed"]
    typed = [json.loads(line) for line in render_items(ITEMS, "ddb-json", KEYS).splitlines()]
    assert typed[1]["Tags"] == {"SS": ["a", "b"]} and typed[2]["Cover"] == {"B": "AP8="}


def test_row_limit_adds_a_footer():
    text = render_items(ITEMS, "jsonl", KEYS, limit=2)
    assert text.splitlines()[-1] == "2 of 3 items shown (.last shows them all)"
    assert len(text.splitlines()) == 3
    assert "items shown" not in render_items(ITEMS, "jsonl", KEYS, limit=3)


def test_a_table_wider_than_the_terminal_turns_vertical():
    wide = [{"pk": "x" * 50, "other": "y" * 50}]
    assert render_items(wide, "table", ["pk"], width=200).startswith("┌")
    assert render_items(wide, "table", ["pk"], width=80).startswith("-[ ITEM 1 ]")


def test_number_columns_are_right_aligned():
    lines = render_items([{"n": Decimal(5)}, {"n": Decimal(1234)}], "table", []).splitlines()
    assert lines[3] == "│    5 │"
