"""``partiql copy SOURCE DEST [TABLE…] [--definitions-only | --sample N] [--into-existing] [--max-wcu N]
[--profile P]``.

SOURCE and DEST are each a database file, an endpoint URL (``http://…``:
``partiql serve``, DynamoDB Local, any endpoint) or ``aws:REGION`` (real
DynamoDB, the usual credential chain; ``--profile`` picks a profile). Every
table is copied unless TABLEs are named: its definition (keys, indexes,
billing, streams, Time to Live) and its items — the definition alone with
``--definitions-only``, the first N items with ``--sample N``
(``partiql.copying``); ``--into-existing`` fills a table that exists at DEST
with the same key. Exit status 1 when nothing could be copied.
"""

from __future__ import annotations

import argparse
import sys

from partiql.cli_help import WordWrap

from .progress import Progress
from .transfer import progress_reporter

PROGRAM = "partiql copy"
AWS = "aws:"


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(prog=PROGRAM, description=__doc__.splitlines()[0].strip("`. "),
                                    formatter_class=WordWrap)
    found.add_argument("source", metavar="SOURCE", help="a database file, an endpoint URL or aws:REGION")
    found.add_argument("dest", metavar="DEST", help="a database file, an endpoint URL or aws:REGION")
    found.add_argument("tables", nargs="*", metavar="TABLE", help="the tables to copy (default: every one)")
    what = found.add_mutually_exclusive_group()
    what.add_argument("--items", action="store_true", help="copy every item (the default)")
    what.add_argument("--definitions-only", action="store_true", help="copy the tables' definitions, no item")
    what.add_argument("--sample", type=int, metavar="N", help="copy the first N items a Scan returns")
    found.add_argument("--into-existing", action="store_true",
                       help="fill a table that exists at DEST (same key) instead of refusing it")
    found.add_argument("--max-wcu", type=float, metavar="N", help="write units a second a remote DEST may spend")
    found.add_argument("--profile", help="the AWS profile for aws:REGION and endpoints")
    return found


def open_place(place: str, profile: str | None):
    """A connection to a file, an endpoint URL or ``aws:REGION``."""
    import partiql

    if place.startswith(("http://", "https://")):
        return partiql.connect(endpoint_url=place, profile=profile)
    if place.startswith(AWS):
        return partiql.connect(region=place[len(AWS):], profile=profile)
    return partiql.connect(place)


def main(argv: list) -> int:
    from partiql.copying import copy
    from partiql.engine.errors import DynamoDBError

    args = parser().parse_args(argv)
    if args.sample is not None and args.sample < 1:
        print(f"{PROGRAM}: --sample takes a positive number of items", file=sys.stderr)
        return 1
    opened = []
    try:
        for place in (args.source, args.dest):
            opened.append(open_place(place, args.profile))
        source, dest = opened
        report = copy(source, dest, args.tables or None, items=not args.definitions_only, sample=args.sample,
                      max_wcu=args.max_wcu, progress=progress_reporter(Progress(sys.stderr), args.dest),
                      into_existing=args.into_existing)
    except (DynamoDBError, OSError, ValueError, ImportError) as error:
        print(f"{PROGRAM}: {getattr(error, 'message', None) or error}", file=sys.stderr)
        return 1
    finally:
        for db in opened:
            db.close()
    print(report, file=sys.stderr)
    return 0
