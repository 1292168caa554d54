"""``partiql serve [DATABASE] [--host 127.0.0.1] [--port 8000] [--credentials ID:SECRET | --unsigned] [--ttl-interval S]
[--throughput off|report|enforce] [--classic-partitions] [--drain S]``.

Prints one line with the address (``http://HOST:PORT``, the port the OS
chose for ``--port 0``) and the database served, then serves until SIGINT
or SIGTERM, drains (``--drain`` seconds at most; a second signal stops at
once) and closes the database cleanly.
"""

from __future__ import annotations

import argparse
import sys

from partiql.cli_help import WordWrap

SERVE = "serve"


def is_serve(argv: list) -> bool:
    """Whether a ``partiql`` command line asks for the server."""
    return bool(argv) and argv[0] == SERVE


def build_parser() -> argparse.ArgumentParser:
    from .runner import DRAIN_SECONDS
    from .ttl import DEFAULT_INTERVAL

    parser = argparse.ArgumentParser(
        prog="partiql serve", description="Serve a database over DynamoDB's HTTP API, for every AWS SDK, "
        "the AWS CLI and GUI tools (endpoint URL http://HOST:PORT, any region).", formatter_class=WordWrap)
    parser.add_argument("database", nargs="?", metavar="DATABASE",
                        help="database file (created if needed; default: an in-memory database)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 lets the OS pick)")
    parser.add_argument("--credentials", metavar="ID:SECRET",
                        help="verify SigV4 signatures made with this access key (default: accept any well-formed one)")
    parser.add_argument("--unsigned", action="store_true",
                        help="also serve requests without a signature (every AWS SDK signs; curl and hand-made "
                             "clients may not)")
    parser.add_argument("--ttl-interval", type=float, default=DEFAULT_INTERVAL, metavar="SECONDS",
                        help=f"seconds between Time to Live sweeps (default: {DEFAULT_INTERVAL:g})")
    parser.add_argument("--throughput", choices=("off", "report", "enforce"), default="report",
                        help="partition throughput: report (default) serves what DynamoDB would throttle and logs "
                             "a warning; enforce answers DynamoDB's throttling errors; off counts nothing")
    parser.add_argument("--classic-partitions", action="store_true",
                        help="split provisioned throughput evenly over partitions, without adaptive capacity")
    parser.add_argument("--realism", metavar="FILE|PRESET",
                        help="production behaviours: scripted faults from a TOML file, each injected one logged "
                        "(default: off)")
    parser.add_argument("--index-timing", choices=("instant", "realistic"), default="instant",
                        help="vector indexes: ACTIVE at once (instant, default) or through DynamoDB's phases on the "
                             "clock: allocation, backfill, the search lag, DELETING (realistic)")
    parser.add_argument("--drain", type=float, default=DRAIN_SECONDS, metavar="SECONDS",
                        help=f"on SIGINT/SIGTERM, seconds to let open requests finish before their connections "
                             f"are closed (default: {DRAIN_SECONDS:g}; a second signal stops at once)")
    return parser


def main(argv: list, stdout=None, stderr=None) -> int:
    """Run ``partiql serve …`` (``argv`` without the word ``serve``); the exit status."""
    import partiql
    from partiql.engine.realism import RealismError

    from .runner import Server
    from .sigv4 import parse_credentials

    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        credentials = parse_credentials(args.credentials) if args.credentials else None
    except ValueError as error:
        parser.error(str(error))
    if args.ttl_interval <= 0:
        parser.error("--ttl-interval takes a positive number of seconds")
    if args.drain < 0:
        parser.error("--drain takes a number of seconds, 0 or more")
    try:
        db = partiql.connect(args.database, throughput=args.throughput,
                             adaptive_capacity=not args.classic_partitions, realism=args.realism,
                             index_timing=args.index_timing)
    except RealismError as error:
        print(f"partiql serve: --realism: {error}", file=stderr)
        return 1
    except OSError as error:  # StorageError and DatabaseLocked too
        print(f"partiql: {error}", file=stderr)
        return 1
    if db.remote:  # (connect reaches a served file through its server)
        print(f"partiql: cannot serve {args.database}: it is already served at {db.endpoint_url}; point clients "
              "there, or stop that server first", file=stderr)
        db.close()
        return 1
    try:
        server = Server(db, args.host, args.port, credentials=credentials, unsigned=args.unsigned,
                        ttl_interval=args.ttl_interval, drain=args.drain)
    except OSError as error:
        db.close()
        print(f"partiql: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=stderr)
        return 1
    if server.open_bind:
        print(server.OPEN_BIND_WARNING.format(host=args.host), file=stderr)
    log = _log_warnings(stderr)
    served = f"database {args.database}" if args.database else "an in-memory database (lost on exit)"
    try:
        server.run(ready=lambda: print(f"partiql serve: listening on {server.url}, serving {served}",
                                       file=stdout, flush=True))
    except OSError as error:  # (closing: a file deleted while served is written to a recovery file)
        log.close()  # (the counts of repeated warnings still open, before the last line)
        print(f"partiql serve: stopped; {error}", file=stderr, flush=True)
        return 1
    log.close()
    print("partiql serve: stopped, database closed", file=stderr, flush=True)
    return 0


def _log_warnings(stream):
    """Report mode's throttle warnings (spec throughput.md §1) and the server's own as log lines, a
    repeated one counted rather than repeated (``log.Repeats``)."""
    import logging

    from .log import Repeats

    handler = Repeats(stream)
    handler.setFormatter(logging.Formatter("partiql serve: warning: %(message)s"))
    for name in ("partiql.engine.throughput", "partiql.serve", "partiql.server"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
    return handler
