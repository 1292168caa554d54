"""Styled text without prompt_toolkit: ``(class, text)`` fragments painted with ANSI codes.

Status lines, warnings and errors are built as fragments whose class names
are keys of the ``[colors]`` section (``scan``, ``error``, ...). ``paint``
turns them into text, with SGR escape codes when colour is wanted. Style
strings use prompt_toolkit's notation so the one ``[colors]`` section also
styles the interactive shell's highlighting.
"""

from __future__ import annotations

import os

from .printable import printable

_NAMES = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "gray")
_BRIGHT = ("brightblack", "brightred", "brightgreen", "brightyellow", "brightblue",
           "brightmagenta", "brightcyan", "white")
_FOREGROUND = {f"ansi{name}": 30 + i for i, name in enumerate(_NAMES)}
_FOREGROUND.update({f"ansi{name}": 90 + i for i, name in enumerate(_BRIGHT)})
_ATTRIBUTES = {"bold": "1", "italic": "3", "underline": "4", "reverse": "7"}


def _colour(word: str, background: bool) -> str | None:
    if word in _FOREGROUND:
        return str(_FOREGROUND[word] + (10 if background else 0))
    if word.startswith("#") and len(word) == 7:
        red, green, blue = (int(word[i:i + 2], 16) for i in (1, 3, 5))
        return f"{48 if background else 38};2;{red};{green};{blue}"
    return None


def _code(word: str) -> str | None:
    if word in _ATTRIBUTES:
        return _ATTRIBUTES[word]
    if word.startswith("bg:"):
        return _colour(word[3:], True)
    return _colour(word, False)


def sgr(style: str) -> str:
    """The escape sequence for a prompt_toolkit style string ('' when it sets nothing)."""
    codes = [c for c in (_code(w) for w in style.lower().split()) if c]
    return f"\x1b[{';'.join(codes)}m" if codes else ""


def paint(fragments: list, colors: dict, enabled: bool) -> str:
    """Join ``(class, text)`` fragments, styled from ``colors`` when ``enabled``."""
    out = []
    for name, text in fragments:
        text = printable(text)  # (messages quote the data: never a raw escape on the terminal)
        start = sgr(colors.get(name, "")) if enabled and name else ""
        out.append(f"{start}{text}\x1b[0m" if start else text)
    return "".join(out)


def wants_colour(stream) -> bool:
    """Colour for a terminal, unless NO_COLOR is set (https://no-color.org)."""
    return not os.environ.get("NO_COLOR") and stream.isatty()
