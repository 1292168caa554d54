"""A table's changes, as its DynamoDB stream records them: ``Connection.changes(table, start=...)``.

::

    with db.changes("Orders", start="LATEST", wait=5.0) as feed:   # from another thread, while writes happen
        for record in feed:                                        # waits up to 5 s for each next record
            record["eventName"], record["dynamodb"]["Keys"]

``start`` is ``"TRIM_HORIZON"`` (the oldest record kept), ``"LATEST"``
(only what commits from now on) or a sequence number (from that record on;
older than what is kept: ``TrimmedDataAccessException``). Iterating yields
records in commit order (sequence order) and waits for new ones: ``wait``
seconds at most (``None``: until ``close()``); ``poll()`` returns what is
there without waiting. Records are DynamoDB's (item-api §7.3) with Python
values; each reader gets its own copies.
"""

from __future__ import annotations

from partiql.engine.errors import TrimmedDataAccessException, ValidationException
from partiql.engine.types import copy_value

STARTS = ("TRIM_HORIZON", "LATEST")


class Feed:
    """What every reader of changes shares: iteration over ``poll`` and ``wait_for``, and ``with``."""

    wait: float | None = None
    closed = False

    def __iter__(self):
        while not self.closed:
            found = self.poll()
            if found:
                yield from found
            elif not self.wait_for(self.wait):
                return  # ``wait`` seconds without a record

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Changes(Feed):
    """The records of one table's stream from a position on (see the module's docstring)."""

    def __init__(self, engine, table: str, start: str = "TRIM_HORIZON", wait: float | None = None):
        self.engine = engine
        self.wait = wait
        self.closed = False
        with engine.lock:
            stream = engine.streams.stream_of(engine.table(table).name)
            if stream is None:
                raise ValidationException(f"Table {table} has no stream enabled: CREATE or ALTER it with a "
                                          "StreamSpecification first")
            self.stream = stream
            self.position = _position(engine, stream, start)

    def poll(self, limit: int | None = None) -> list:
        """The records committed since the last one returned (at most ``limit``), without waiting."""
        with self.engine.lock:
            self.engine.streams.trim(self.engine.epoch())
            found = self.engine.streams.records(self.stream, self.position)
            if limit is not None:
                found = found[:limit]
            if found:
                self.position = int(found[-1]["dynamodb"]["SequenceNumber"])
            return [copy_value(record) for record in found]

    def wait_for(self, timeout: float | None) -> bool:
        """Wait until a record is there to ``poll`` (True), ``timeout`` seconds pass or the feed is
        closed (False)."""
        streams = self.engine.streams
        with streams.changed:
            if self.closed:
                return False
            streams.waiting += 1
            try:
                return streams.changed.wait_for(self._more, timeout=timeout) and not self.closed
            finally:
                streams.waiting -= 1

    def _more(self) -> bool:
        return self.closed or self.engine.streams.sequence > self.position and bool(self.stream.after(self.position))

    def close(self) -> None:
        """Stop iterating (a waiting iterator returns at once)."""
        self.closed = True
        with self.engine.streams.changed:
            self.engine.streams.changed.notify_all()


def _position(engine, stream, start) -> int:
    """The sequence number just before the first record to return."""
    if start == "LATEST":
        return engine.streams.sequence
    engine.streams.trim(engine.epoch())
    oldest = stream.oldest()
    if start == "TRIM_HORIZON":
        return 0 if oldest is None else oldest - 1
    sequence = sequence_number(start)
    if oldest is not None and sequence < oldest or oldest is None and sequence <= engine.streams.sequence:
        raise TrimmedDataAccessException(f"The sequence number {start} is beyond the trim horizon of the stream")
    return sequence - 1


def sequence_number(start) -> int:
    """A ``start`` that is neither TRIM_HORIZON nor LATEST, as the sequence number it must be."""
    text = str(start)
    if not (text.isascii() and text.isdigit()) or not 21 <= len(text) <= 40:
        raise ValidationException(f"start takes {' or '.join(STARTS)} or a sequence number (21 to 40 digits), "
                                  f"not {start!r}")
    return int(text)
