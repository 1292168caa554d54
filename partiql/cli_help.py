"""argparse's help, wrapped at words: a long option (``--into-existing``) or a word is never split.

argparse wraps with ``textwrap``'s defaults, which break at hyphens and
inside words longer than the width. Every ``partiql`` command (the shell,
``serve``, ``simulate``, ``copy``, ``check``, ``backup``, ``import``,
``export``) builds its parser with ``WordWrap`` (``RawWordWrap`` keeps a
description's own line breaks).
"""

from __future__ import annotations

import argparse
import textwrap

_WORDS = dict(break_long_words=False, break_on_hyphens=False)


class WordWrap(argparse.HelpFormatter):
    """Help text wrapped at spaces only."""

    def _split_lines(self, text: str, width: int) -> list:
        return textwrap.wrap(" ".join(text.split()), width, **_WORDS)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             **_WORDS)


class RawWordWrap(argparse.RawDescriptionHelpFormatter, WordWrap):
    """A description and epilog as written; the options' help wrapped at spaces only."""
