"""Styled fragments painted with ANSI codes."""

from __future__ import annotations

import io

import pytest

from partiql.shell.style import paint, sgr, wants_colour


@pytest.mark.parametrize("style, expected", [
    ("ansired bold", "\x1b[31;1m"),
    ("ansibrightblack", "\x1b[90m"),
    ("bg:ansired ansiwhite", "\x1b[41;97m"),
    ("#ff8000 italic underline", "\x1b[38;2;255;128;0;3;4m"),
    ("", ""),
    ("nonsense", ""),
])
def test_sgr(style, expected):
    assert sgr(style) == expected


def test_paint():
    fragments = [("scan", "SCAN of T"), ("", " · "), ("unknown", "x")]
    colors = {"scan": "ansired"}
    assert paint(fragments, colors, enabled=True) == "\x1b[31mSCAN of T\x1b[0m · x"
    assert paint(fragments, colors, enabled=False) == "SCAN of T · x"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_colour_only_on_a_terminal_and_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_colour(Terminal()) and not wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(Terminal())
