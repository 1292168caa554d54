"""Control characters and terminal escapes from the data are shown escaped, never sent raw to a terminal;
files written for data keep them as they are."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest

from partiql.shell.formatting import render_items
from partiql.shell.printable import printable
from partiql.shell.session import Output
from partiql.shell.style import paint, sgr

HOSTILE = "a\x1b[31mred\x07 \x1b]0;title\x07\r\x00\x7f\x9b\u202eevil\u2066\t"

CASES = {  # text -> as shown
    "plain text": ("Acme — café 🎵", "Acme — café 🎵"),
    "a colour escape": ("\x1b[31mred", "\\x1b[31mred"),
    "a title sequence": ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
    "carriage return and tab": ("a\rb\tc", "a\\rb\\tc"),
    "a line feed stays": ("a\nb", "a\nb"),
    "NUL, DEL and a C1 CSI": ("\x00\x7f\x9b", "\\x00\\x7f\\x9b"),
    "bidirectional override and isolate": ("\u202eabc\u2066", "\\u202eabc\\u2066"),
}


@pytest.mark.parametrize("text, shown", CASES.values(), ids=CASES)
def test_printable(text, shown):
    assert printable(text) == shown


def _raw_controls(text: str) -> set:
    return {c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f or c in "\u202e\u2066"}


ITEM = {"k": HOSTILE, "n": Decimal(1), "doc": {"x\x1b": [HOSTILE]}, "attr\x1b[2J": "v"}


@pytest.mark.parametrize("fmt", ["table", "vertical"])
def test_display_formats_escape_values_documents_and_attribute_names(fmt):
    text = render_items([ITEM], fmt, ["k"])
    assert _raw_controls(text) == set()
    assert "a\\x1b[31mred\\x07" in text and "attr\\x1b[2J" in text and "\\u202eevil" in text


@pytest.mark.parametrize("fmt", ["json", "jsonl", "ddb-json"])
def test_json_formats_escape_the_c0_controls_by_json_s_own_rules(fmt):
    """(the rest — DEL, C1, bidirectional controls — stay JSON text, escaped when written to a terminal)"""
    assert {c for c in _raw_controls(render_items([ITEM], fmt, ["k"])) if ord(c) < 0x20} == set()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_results_written_to_a_terminal_are_escaped_and_to_a_file_kept(tmp_path):
    csv = render_items([{"k": HOSTILE}], "csv", ["k"])
    terminal = _Terminal()
    Output(terminal).write(csv)
    assert _raw_controls(terminal.getvalue()) == set()
    pipe = io.StringIO()  # (not a terminal: data, kept)
    Output(pipe).write(csv)
    assert pipe.getvalue() == csv + "\n"
    output = Output(terminal)
    output.redirect(str(tmp_path / "out.csv"))
    output.write(csv)
    output.close()
    with open(tmp_path / "out.csv", encoding="utf-8", newline="") as file:
        assert file.read() == csv + "\n"


def test_console_messages_quoting_data_are_escaped_with_their_colours_kept():
    start = sgr("ansired bold")
    text = paint([("error", f"ValidationException: Value '{HOSTILE}'")], {"error": "ansired bold"}, True)
    assert start and text.startswith(start) and text.endswith("\x1b[0m")
    assert _raw_controls(text[len(start):-len("\x1b[0m")]) == set()
