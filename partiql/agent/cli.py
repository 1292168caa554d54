"""``partiql mcp [DATABASE] [--read-only] [--scan POLICY] [--endpoint-url URL] [--region R] [--profile P]``:
serve the tools to an agent over stdio (the Model Context Protocol).

The database is a file, or in memory; an endpoint (DynamoDB, partiql serve, DynamoDB Local) only when the
person starting the server names one: no tool takes an endpoint, so no call can reach one otherwise. The
scan policy is ``deny`` unless given (an agent's Scan of a production table costs money and time).
"""

from __future__ import annotations

import argparse
import signal
import sys

from partiql.cli_help import WordWrap

SCAN_POLICIES = ("deny", "warn", "allow")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="partiql mcp", formatter_class=WordWrap, description="Serve "
                                     "partiql-ddb's tools (tables, EXPLAIN, statements, heat, simulate, design "
                                     "comparison) to a coding agent over the Model Context Protocol on stdio.")
    parser.add_argument("database", metavar="DATABASE", nargs="?", help="a database file (default: in memory)")
    parser.add_argument("--read-only", action="store_true", help="no tool writes (a file is read as a snapshot)")
    parser.add_argument("--scan", choices=SCAN_POLICIES, default="deny",
                        help="what a full table Scan does: deny (default), warn (runs, with a warning) or allow")
    parser.add_argument("--throughput", choices=("report", "enforce", "off"), default="report",
                        help="partition throughput of a local database (default: report)")
    parser.add_argument("--endpoint-url", metavar="URL", help="use the DynamoDB at URL instead of a local database")
    parser.add_argument("--region", help="use real DynamoDB in REGION (the usual AWS credential chain)")
    parser.add_argument("--profile", help="the AWS profile for --region or --endpoint-url")
    return parser


def main(argv: list) -> int:
    args = build_parser().parse_args(argv)
    try:
        from .stdio import serve
    except ImportError as error:
        print(f"partiql mcp: needs the MCP SDK ({error.name or error}): pip install 'partiql-ddb[mcp]'",
              file=sys.stderr)
        return 1
    import partiql

    from .desk import Desk

    try:
        db = _connect(partiql, args)
    except (OSError, ImportError, ValueError) as error:
        print(f"partiql mcp: {error}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, _terminate)
    with db:  # (closed however the serving ends: the client closing stdin, Ctrl-C, SIGTERM)
        try:
            serve(Desk(db, read_only=args.read_only, scan=args.scan), partiql.__version__)
        except KeyboardInterrupt:
            return 130
        except Terminated:
            return 143
    return 0


class Terminated(Exception):
    """SIGTERM arrived: the serving stops and the database closes."""


def _terminate(signum, frame):
    raise Terminated


def _connect(partiql, args):
    if args.endpoint_url or args.region or args.profile:
        if args.database is not None:
            raise ValueError("give a DATABASE file or an endpoint (--endpoint-url, --region, --profile), not both")
        return partiql.connect(endpoint_url=args.endpoint_url, region=args.region, profile=args.profile,
                               read_only=args.read_only)
    if args.read_only and args.database is not None:
        return partiql.connect(args.database, read_only=True, throughput=args.throughput)
    return partiql.connect(args.database, throughput=args.throughput)
