"""The ``partiql`` command: read the arguments, pick a mode, return the exit status.

With ``-e``/``-f``, or when stdin is not a terminal, statements run as a
script (``batch``); otherwise the interactive shell starts (``repl``, which
is imported only then: prompt_toolkit and pygments are slow to import).
"""

from __future__ import annotations

import argparse
import sys

import partiql
from partiql.cli_help import RawWordWrap

# (the settings module loads after ``--version``'s early return: it and dataclasses are a third of that path)

PROGRAM = "partiql"
DESCRIPTION = ("An interactive PartiQL shell over a faithful local DynamoDB. Every statement\n"
               "shows its access path (GetItem, Query, Scan) and the capacity it consumed.")
# Every subcommand, as `partiql --help` lists them (each has its own --help)
SUBCOMMANDS = (
    ("serve [DATABASE]", "serve DynamoDB's HTTP API to every SDK"),
    ("simulate WORKLOAD [DATABASE]", "replay a workload on a virtual clock"),
    ("mcp [DATABASE]", "tools for coding agents (MCP over stdio)"),
    ("copy SOURCE DEST [TABLE…]", "copy tables and items between places"),
    ("model import|export …", "Workbench and MCP-server data models"),
    ("DATABASE import FILE TABLE", "import items (JSON lines, DDB JSON, CSV)"),
    ("DATABASE export TABLE FILE", "export a table's items"),
    ("check FILE", "verify a database file"),
    ("recover FILE", "fold in a damaged log's intact writes"),
    ("backup FILE DEST", "copy a database file safely, even open"),
)
EPILOG = ("Statements end with ';'. With -e, -f or statements on stdin the shell runs\n"
          "them as a script: results on stdout, status lines and errors on stderr, exit\n"
          "status 1 if any failed.\n\nsubcommands (each with its own --help):\n"
          + "\n".join(f"  partiql {usage:<28} {what}" for usage, what in SUBCOMMANDS))


class _Script(argparse.Action):
    """Collects -e and -f in command-line order, so they run in the order given."""

    def __call__(self, parser, namespace, value, option_string=None):
        namespace.scripts.append(("-e" if self.dest == "execute" else "-f", value))


def build_parser() -> argparse.ArgumentParser:
    """The command line: ``partiql [DATABASE] [-e STATEMENT]… [-f FILE] [options]``."""
    from partiql.engine.throughput import MODES as THROUGHPUT_MODES

    from .config import FORMATS, SCAN_POLICIES

    parser = argparse.ArgumentParser(prog=PROGRAM, description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=RawWordWrap)
    parser.set_defaults(scripts=[])
    parser.add_argument("database", nargs="?", metavar="DATABASE",
                        help="database file (default: an in-memory database)")
    parser.add_argument("-e", "--execute", action=_Script, metavar="STATEMENT", dest="execute",
                        help="run STATEMENT (repeatable) and exit")
    parser.add_argument("-f", "--file", action=_Script, metavar="FILE", dest="file",
                        help="run the statements in FILE and exit")
    parser.add_argument("--format", choices=FORMATS, help="output format (default: table)")
    parser.add_argument("--bail", action="store_true", help="stop at the first statement that fails")
    parser.add_argument("--scan", choices=SCAN_POLICIES,
                        help="what a full table Scan does: allow (default), warn or deny")
    parser.add_argument("--throughput", choices=THROUGHPUT_MODES, default="report",
                        help="partition throughput: report (default: warn of what DynamoDB would throttle), "
                             "enforce (throttle as DynamoDB does) or off")
    parser.add_argument("--classic-partitions", action="store_true",
                        help="split provisioned throughput evenly over partitions (no adaptive capacity)")
    parser.add_argument("--realism", metavar="FILE|PRESET",
                        help="production behaviours: scripted faults from a TOML file (default: off)")
    parser.add_argument("--index-timing", choices=("instant", "realistic"), default="instant",
                        help="vector indexes ACTIVE at once (default) or through DynamoDB's phases on the clock")
    parser.add_argument("--endpoint-url", metavar="URL",
                        help="run on the DynamoDB at URL (partiql serve, DynamoDB Local, any endpoint)")
    parser.add_argument("--region", help="run on real DynamoDB in REGION (the usual AWS credential chain)")
    parser.add_argument("--profile", help="the AWS profile for --region or --endpoint-url")
    parser.add_argument("--yes", action="store_true", help="do not ask before DROP TABLE on a remote endpoint")
    parser.add_argument("--read-only", action="store_true",
                        help="read a snapshot of DATABASE, writing nothing (what the shell does by itself, "
                             "with a notice, when another process has the file open)")
    parser.add_argument("--config", metavar="FILE",
                        help="settings file (default: $XDG_CONFIG_HOME/partiql/config)")
    parser.add_argument("--version", action="version", version=f"{PROGRAM} {partiql.__version__}")
    return parser


def _remote(args) -> bool:
    return bool(args.endpoint_url or args.region or args.profile)


def _settings(args):
    from .config import load

    settings = load(args.config)
    for key in ("format", "scan"):
        if getattr(args, key):
            settings = settings.with_value(key, getattr(args, key))
    if _remote(args) and not args.scan and settings.scan == "allow":
        settings = settings.with_value("scan", "warn")  # a remote full Scan costs money: warn unless told
    return settings


def main(argv: list | None = None) -> int:
    """Run the shell; the exit status is 0 when every statement succeeded."""
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--version"]:  # before the library loads (start-up time)
        print(f"{PROGRAM} {partiql.__version__}")
        return 0
    from . import maintenance, transfer
    from .config import ConfigError

    if argv[:1] == ["serve"]:  # partiql serve … (the server stack loads only then)
        from partiql.server.cli import main as serve

        return serve(argv[1:])
    if argv[:1] == ["simulate"]:  # partiql simulate WORKLOAD …
        from .simulate import main as simulate

        return simulate(argv[1:])
    if argv[:1] == ["mcp"]:  # partiql mcp [DATABASE] … (the MCP SDK loads only then)
        from partiql.agent.cli import main as mcp

        return mcp(argv[1:])
    if argv[:1] == ["model"]:  # partiql model import FILE … | export DATABASE …
        from .model import main as model

        return model(argv[1:])
    if argv[:1] == ["copy"]:  # partiql copy SOURCE DEST [TABLE…]
        from .copy import main as copy

        return copy(argv[1:])
    if argv[:1] and argv[0] in maintenance.COMMANDS:  # partiql check | recover FILE / partiql backup FILE DEST
        return maintenance.main(argv)
    code = transfer.subcommand(argv)  # partiql DATABASE import|export …
    if code is not None:
        return code
    args = build_parser().parse_args(argv)
    try:
        settings = _settings(args)
        db = _connect(args)
    except (ConfigError, OSError, ImportError, ValueError) as error:  # OSError: StorageError, DatabaseLocked
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return 1
    with db:
        return _run(db, settings, args)


def _connect(args) -> partiql.Connection:
    """The database; a file another process holds is read as a snapshot, with a notice saying so."""
    from .config import ConfigError

    if _remote(args):
        if args.database is not None:
            raise ConfigError("give a DATABASE file or an endpoint (--endpoint-url, --region, --profile), not both")
        if args.realism is not None:
            raise ConfigError("--realism runs on a local database: an endpoint has its own behaviour (partiql serve "
                              "--realism FILE injects faults for its clients)")
        return partiql.connect(endpoint_url=args.endpoint_url, region=args.region, profile=args.profile,
                               read_only=args.read_only)
    options = _local_options(args)
    if args.read_only and args.database is None:
        raise ConfigError("--read-only takes a database file")
    from .commands import snapshot_notice

    try:
        db = partiql.connect(args.database, read_only=args.read_only, **options)
    except partiql.DatabaseLocked as error:
        db = partiql.connect(args.database, read_only=True, **options)
        print(f"{PROGRAM}: {args.database} is open in {error.holder}: {snapshot_notice(args.database)}. To share "
              f"it between programs: partiql serve {args.database}", file=sys.stderr)
        return db
    if args.read_only:
        print(f"{PROGRAM}: {snapshot_notice(args.database)}", file=sys.stderr)
    if db.remote:  # the file is served: statements go through the server
        print(f"{PROGRAM}: {args.database} is served at {db.where}: connected through it", file=sys.stderr)
    return db


def _local_options(args) -> dict:
    return dict(throughput=args.throughput, adaptive_capacity=not args.classic_partitions, realism=args.realism,
                index_timing=args.index_timing)


def _run(db, settings, args) -> int:
    from . import batch
    from .session import Session

    interactive = not args.scripts and sys.stdin.isatty()
    session = Session(db, settings, interactive=interactive, bail=args.bail)
    session.ask_before_drop = _remote(args) and not args.yes
    session.local_options = _local_options(args)
    if db.remote:  # DDL waits for its table to be ACTIVE: say so on the progress line
        db.progress = session.progress.show
    try:
        if interactive:
            from .repl import run

            return run(session, args.database or getattr(db, "where", None))
        return batch.run(session, batch.gather(args.scripts, sys.stdin))
    finally:
        if session.db is not db:  # (a served file opened here once its server was gone, or .refresh)
            session.db.close()
