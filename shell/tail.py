"""``.tail TABLE [--from start|now|SEQUENCE]``: a table's stream records as they commit, until Ctrl-C.

Each record is a row in the session's output format: ``event`` (INSERT /
MODIFY / REMOVE), ``sequence``, ``time`` (UTC), the key attributes, then
``new`` and ``old`` (the images the stream's view type carries) and ``by``
("ttl" for a Time to Live deletion). By default the records kept (the last
24 hours) come first, then the shell waits for more: writes of another
thread or of a server sharing the database show as they commit. Ctrl-C
stops it. A script (not interactive) prints what is there and goes on.
"""

from __future__ import annotations

from datetime import datetime, timezone

from .formatting import render_items

STARTS = {"start": "TRIM_HORIZON", "now": "LATEST"}
POLL = 0.25  # seconds between looks for Ctrl-C while waiting


class TailError(ValueError):
    """A ``.tail`` argument that is not one."""


def parse(argument: str) -> tuple[str, str]:
    """(table, start) of ``.tail``'s argument."""
    words = argument.replace('"', " ").split()
    start = "TRIM_HORIZON"
    if len(words) == 3 and words[1] == "--from":
        start = STARTS.get(words[2].lower(), words[2])
        words = words[:1]
    if len(words) != 1:
        raise TailError(".tail needs a TABLE, and optionally --from start, now or a sequence number")
    return words[0], start


def rows(records: list, keys: list) -> list:
    """The rows ``.tail`` prints of stream ``records``."""
    out = []
    for record in records:
        body = record["dynamodb"]
        row = {"event": record["eventName"], "sequence": body["SequenceNumber"],
               "time": datetime.fromtimestamp(body["ApproximateCreationDateTime"], tz=timezone.utc)
               .strftime("%Y-%m-%d %H:%M:%S")}
        row.update((name, body["Keys"][name]) for name in keys if name in body["Keys"])
        if "NewImage" in body:
            row["new"] = body["NewImage"]
        if "OldImage" in body:
            row["old"] = body["OldImage"]
        if "userIdentity" in record:
            row["by"] = "ttl"
        out.append(row)
    return out


def follow(session, argument: str, stop=None) -> int:
    """Print the table's changes (see the module's docstring); the number printed. ``stop()``, when
    given, ends the wait (tests); otherwise an interactive session waits until Ctrl-C."""
    table, start = parse(argument)
    keys = session.catalog.keys(table, None)
    shown = 0
    with session.db.changes(table, start=start) as feed:
        try:
            while True:
                found = feed.poll()
                if found:
                    session.show(render_items(rows(found, keys), session.settings.format,
                                              ["event", "sequence", "time", *keys]))
                    shown += len(found)
                    continue
                if not session.interactive or (stop is not None and stop()):
                    break
                feed.wait_for(POLL)
        except KeyboardInterrupt:
            pass
    return shown
