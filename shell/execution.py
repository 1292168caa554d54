"""Run one statement page by page, so Ctrl-C can stop it between pages.

``collect`` follows every page of a statement (``db.pages``), reports
progress, and stops after the current page when Ctrl-C was pressed (saying
so at once, even before the first progress line is due); the pages read so
far are put together into one ``Result`` so the status line can still say
what was read and spent. A second Ctrl-C stops at once, and the status line
still says what the pages that came back read and spent.
"""

from __future__ import annotations

import signal
import threading
import time

from partiql.result import ConsumedCapacity, Result

from .status import Run, capacity_text


class Cancelled(Exception):
    """Ctrl-C stopped a statement between pages; whatever ran it stops too."""


class Interrupt:
    """While active, the first SIGINT only sets ``requested`` (and calls ``noticed``); the next
    raises KeyboardInterrupt."""

    def __init__(self, noticed=None):
        self.requested = False
        self.noticed = noticed
        self._previous = None

    def _handle(self, signum, frame):
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        if self.noticed is not None:
            self.noticed()

    def __enter__(self) -> "Interrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def _capacity(pages: list) -> ConsumedCapacity:
    return ConsumedCapacity.of([units for page in pages for units in page.consumed_capacity.tables])


def merge(pages: list) -> Result:
    """Pages of one statement as one Result: items, counts and capacity summed (none: an empty one)."""
    if not pages:
        return Result()
    first = pages[0]
    return Result(items=[item for page in pages for item in page.items],
                  count=sum(page.count for page in pages),
                  scanned_count=sum(page.scanned_count for page in pages),
                  next_token=pages[-1].next_token, consumed_capacity=_capacity(pages), plan=first.plan,
                  warnings=list(dict.fromkeys(w for page in pages for w in page.warnings)),
                  message=first.message)


def _progress_text(pages: list) -> str:
    items = sum(len(page.items) for page in pages)
    scanned = sum(page.scanned_count for page in pages)
    return (f"{len(pages)} pages · {items} items · {scanned} scanned · {capacity_text(_capacity(pages))}"
            " · Ctrl-C stops after this page")


def collect(db, statement: str, progress, parameters=None, consistent: bool = False) -> Run:
    """Run ``statement`` through all its pages (or until Ctrl-C) and put them together."""
    started = time.perf_counter()
    pages = []
    stopping = "stopping after this page (Ctrl-C again stops at once)"
    with Interrupt(lambda: progress.flash(stopping)) as interrupt:
        try:
            for page in db.pages(statement, parameters, consistent_read=consistent):
                pages.append(page)
                if interrupt.requested:
                    break
                if progress.wanted:
                    progress.show(_progress_text(pages))
        except KeyboardInterrupt:
            if not pages:
                raise  # nothing came back: nothing to report
    return Run(statement, merge(pages), time.perf_counter() - started, len(pages), interrupt.requested)


def one_page(db, statement: str, parameters, limit: int, consistent: bool, next_token=None) -> Run:
    """One page of ``statement`` with DynamoDB's ``Limit`` (``.limit``); ``more`` when a NextToken remains."""
    started = time.perf_counter()
    page = db.execute(statement, parameters, limit=limit, next_token=next_token, consistent_read=consistent)
    return Run(statement, page, time.perf_counter() - started, more=page.next_token is not None)
