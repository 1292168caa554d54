"""Text from the data (items, attribute and pattern names, messages quoting them) made safe to show.

An item may hold any character, and a terminal acts on some: ESC begins a
sequence that can recolour, clear or retitle it (``\\x1b]0;…\\x07``), CR
overwrites the line, BEL rings, and the bidirectional overrides reorder
what a reader sees (CVE-2021-42574, "Trojan Source"). Shown text escapes
them (``\\x1b``, ``\\r``, ``\\u202e``) and keeps line breaks; files written
for data (``.output``, ``--format csv`` into a pipe, JSON) keep every
character as it is.
"""

from __future__ import annotations

import re

# C0 controls but the line feed, DEL, C1 controls, the bidirectional embeddings, overrides and isolates
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\t": "\\t", "\r": "\\r"}


def _escaped(match: re.Match) -> str:
    character = match.group()
    named = _NAMED.get(character)
    if named is not None:
        return named
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on (but the line feed) escaped."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text
