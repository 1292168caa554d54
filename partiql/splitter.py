"""Pure text helpers for the shell: split a script into statements, tell a complete buffer.

A `;` ends a statement unless it is inside a 'string', a "quoted identifier",
a `-- comment` or a `/* comment */`. A line whose first non-blank character
is `.` or `\\` at the start of a statement is a meta-command: it ends at the
end of its line and needs no `;`.
"""

from __future__ import annotations

import re

# A 'string' or a "quoted name", possibly unterminated (doubled quotes inside).
QUOTED = re.compile(r"""'(?:[^']|'')*'?|"(?:[^"]|"")*"?""")
# One lexical piece at a time: quoted text, comments, a semicolon, or a run of anything else.
_PIECE = re.compile(r"""
      (?P<quoted>""" + QUOTED.pattern + r""")
    | (?P<comment>--[^\n]*|/\*[\s\S]*?(?:\*/|\Z))
    | (?P<semi>;)
    | (?P<other>[^'";/-]+|[/-])
""", re.VERBOSE)
# Blanks and complete comments, skipped before a statement.
_BLANK = re.compile(r"(?:\s+|--[^\n]*|/\*[\s\S]*?\*/)*")
_META_START = (".", "\\")
# why: psql and sqlite users type these alone on a line, with or without ';' (never PartiQL)
_BARE = re.compile(r"(?i)(?:help|quit|exit)[ \t]*;?[ \t]*(?=\r?\n|\Z)")


def _pieces(text: str, pos: int = 0):
    for match in _PIECE.finditer(text, pos):
        yield match.lastgroup, match.start(), match.end()


def split_statements(script: str) -> list[tuple[str, int]]:
    """The statements of ``script`` as ``(text, start_line)``, in order.

    ``text`` starts at the statement's first character (blanks and comments
    before it are skipped), is stripped and has no terminating `;`;
    ``start_line`` is the 1-based line of that first character. Empty
    statements are dropped.
    """
    statements: list[tuple[str, int]] = []
    pos = _BLANK.match(script).end()
    while pos < len(script):
        meta = script.startswith(_META_START, pos) or _BARE.match(script, pos)
        end = _meta_end(script, pos) if meta else _statement_end(script, pos)
        text = script[pos:end].strip()
        if text:
            statements.append((text, script.count("\n", 0, pos) + 1))
        pos = _BLANK.match(script, end + 1).end()
    return statements


def _meta_end(script: str, pos: int) -> int:
    """A meta-command ends with its line."""
    end = script.find("\n", pos)
    return len(script) if end < 0 else end


def _statement_end(script: str, pos: int) -> int:
    """The index of the `;` ending the statement at ``pos`` (or the script's length)."""
    for kind, start, _ in _pieces(script, pos):
        if kind == "semi":
            return start
    return len(script)


def is_complete(buffer: str) -> bool:
    """Whether the shell may run ``buffer``: it ends in a `;` that is outside
    strings and comments (blanks and complete comments may follow), or it is
    a meta-command line."""
    if buffer.strip().startswith(_META_START) or _BARE.fullmatch(buffer.strip()):
        return True
    complete = False
    for kind, start, end in _pieces(buffer):
        piece = buffer[start:end]
        if kind == "semi":
            complete = True
        elif kind == "comment":
            complete = complete and (piece.startswith("--") or piece.endswith("*/") and len(piece) > 3)
        elif kind == "quoted" or piece.strip():
            complete = False
    return complete


_OPEN = {"'": re.compile(r"'(?:[^']|'')*'"), '"': re.compile(r'"(?:[^"]|"")*"')}


def open_quote(text: str) -> str | None:
    """What ``text`` ends inside of: ``'`` (a string), ``"`` (a quoted name), ``/*`` (a comment) or None."""
    last = None
    for kind, start, end in _pieces(text):
        last = (kind, start, end)
    if last is None or last[0] not in ("quoted", "comment"):
        return None
    kind, start, end = last
    piece = text[start:end]
    if kind == "comment":
        return "/*" if piece.startswith("/*") and (len(piece) < 4 or not piece.endswith("*/")) else None
    closed = _OPEN[piece[0]].fullmatch(piece)
    return None if closed else piece[0]


def string_spans(text: str):
    """(start, end, closed) of each 'string' in ``text`` (not "quoted names" or comments), in order."""
    for kind, start, end in _pieces(text):
        if kind == "quoted" and text[start] == "'":
            yield start, end, _OPEN["'"].fullmatch(text, start, end) is not None
