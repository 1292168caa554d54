"""A one-line progress report on stderr, for work that takes more than about two seconds.

Nothing is drawn unless the stream is a terminal, and nothing before
``delay`` seconds have passed, so quick statements and redirected runs never
see it; after that the line is redrawn at most every ``REDRAW`` seconds, and
callers ask ``wanted`` before they compute the text. Whatever else is
printed meanwhile goes through ``suspended``, which lifts the line and puts
it back underneath; ``clear`` removes it for good.
"""

from __future__ import annotations

import contextlib
import time

DELAY = 2.0
REDRAW = 0.1
BAR_WIDTH = 20


def bar(done: int, total: int) -> str:
    """``[#######-------------] 7/20``."""
    filled = BAR_WIDTH * done // total if total else BAR_WIDTH
    return f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {done}/{total}"


class Progress:
    """Draws ``show(text)`` over itself on one line of ``stream``."""

    def __init__(self, stream, delay: float = DELAY, clock=time.monotonic):
        self.stream = stream
        self.enabled = stream.isatty()
        self.clock = clock
        self.due = clock() + delay
        self.text = ""
        self.drawn = False

    @property
    def wanted(self) -> bool:
        """Whether ``show`` would draw now."""
        return self.enabled and self.clock() >= self.due

    def show(self, text: str) -> None:
        """Replace the line with ``text`` once the delay has passed."""
        self.text = text
        if self.wanted:
            self._draw()

    def _draw(self) -> None:
        self.stream.write("\r\x1b[K" + self.text)
        self.stream.flush()
        self.drawn = True
        self.due = self.clock() + REDRAW

    def flash(self, text: str) -> None:
        """Draw ``text`` now, delay or not (an answer to a key the user just pressed)."""
        self.text = text
        if self.enabled:
            self._draw()

    def clear(self) -> None:
        """Erase the line if it is drawn."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False

    @contextlib.contextmanager
    def suspended(self):
        """Lift the line while something else is printed, then draw it again below."""
        drawn = self.drawn
        self.clear()
        yield
        if drawn:
            self._draw()
