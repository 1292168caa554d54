"""Import and export in the shell: ``.import``, ``.export`` and the ``partiql DATABASE import|export`` commands.

    .import FILE TABLE [--format F] [--continue-on-error] [--types NAME=TYPE,…] [--max-wcu N]
    .export TABLE FILE [--format F] [--max-rcu N]
    partiql DATABASE import FILE TABLE [--format F] [--continue-on-error] [--types NAME=TYPE,…]
    partiql DATABASE export TABLE FILE [--format F]

They run ``Connection.import_items`` / ``export_items`` (``partiql.transfer``):
formats ddb-json, json and csv (guessed from the file when not given), a
progress bar on stderr once a transfer takes more than two seconds, bad rows
reported with their line numbers. An import is all or nothing unless
``--continue-on-error``; the subcommands exit with 1 when nothing could be
imported or exported, 0 otherwise. On a remote endpoint ``--max-wcu`` /
``--max-rcu`` cap the capacity a transfer spends per second
(``partiql.remote.transfer``: batches, retries with backoff, parallel Scans).

The meta-commands are registered by ``commands.py`` from ``META_COMMANDS``;
``cli.main`` hands its arguments to ``subcommand`` first. Nothing here
imports prompt_toolkit.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass
from typing import Callable

from partiql.cli_help import WordWrap

from .progress import Progress, bar

IMPORT_USAGE = "FILE TABLE [--format F] [--continue-on-error] [--types …] [--max-wcu N]"
EXPORT_USAGE = "TABLE FILE [--format F] [--max-rcu N]"


class UsageError(ValueError):
    """A meta-command's arguments do not parse."""


@dataclass
class Request:
    """One import or export, as the user asked for it."""

    file: str
    table: str
    format: str | None = None
    continue_on_error: bool = False
    types: dict | None = None
    capacity: float | None = None  # --max-wcu (import) / --max-rcu (export): a remote table's units per second


# ------------------------------------------------------------- arguments

def parse_types(text: str) -> dict:
    """``age=N,zip=S`` -> {"age": "N", "zip": "S"}."""
    types = {}
    for pair in filter(None, (part.strip() for part in text.split(","))):
        name, equals, kind = pair.partition("=")
        if not equals or not name or not kind:
            raise UsageError(f"--types wants NAME=TYPE pairs separated by commas, not {pair!r}")
        types[name.strip()] = kind.strip().upper()
    return types


# option -> (takes a value, how it sets the request)
_OPTIONS: dict[str, tuple[bool, Callable]] = {
    "--format": (True, lambda request, value: setattr(request, "format", _format(value))),
    "--continue-on-error": (False, lambda request, _: setattr(request, "continue_on_error", True)),
    "--types": (True, lambda request, value: setattr(request, "types", {**(request.types or {}),
                                                                        **parse_types(value)})),
    "--max-wcu": (True, lambda request, value: setattr(request, "capacity", _units(value))),
    "--max-rcu": (True, lambda request, value: setattr(request, "capacity", _units(value))),
}
_EXPORT_OPTIONS = ("--format", "--max-rcu")
_IMPORT_OPTIONS = tuple(name for name in _OPTIONS if name != "--max-rcu")


def _units(value: str) -> float:
    try:
        units = float(value)
    except ValueError:
        units = 0.0
    if not units > 0 or units == float("inf"):
        raise UsageError(f"--max-wcu / --max-rcu take a positive number of units per second, not {value!r}")
    return units


def _format(value: str) -> str:
    names = format_names()
    if value not in names:
        raise UsageError(f"unknown format {value!r}: use one of {', '.join(names)}")
    return value


def format_names() -> list:
    """The registered file formats."""
    from partiql.transfer_formats import FORMATS  # why: imported when a transfer is asked for, not at start-up
    return list(FORMATS)


def parse(argument: str, direction: str) -> Request:
    """The request of ``.import`` (``direction`` "import": FILE TABLE) or ``.export`` (TABLE FILE)."""
    try:
        words = shlex.split(argument)
    except ValueError as error:
        raise UsageError(str(error)) from None
    positional, options = [], []
    while words:
        word = words.pop(0)
        name, equals, inline = word.partition("=")
        if not word.startswith("--"):
            positional.append(word)
            continue
        if name not in (_EXPORT_OPTIONS if direction == "export" else _IMPORT_OPTIONS):
            raise UsageError(f"unknown option {name} for .{direction}")
        takes_value = _OPTIONS[name][0]
        if takes_value and not equals and not words:
            raise UsageError(f"{name} needs a value")
        options.append((name, (inline if equals else words.pop(0)) if takes_value else None))
    usage = IMPORT_USAGE if direction == "import" else EXPORT_USAGE
    if len(positional) != 2:
        raise UsageError(f"usage: .{direction} {usage}")
    file, table = positional if direction == "import" else reversed(positional)
    request = Request(file, table)
    for name, value in options:
        _OPTIONS[name][1](request, value)
    return request


# --------------------------------------------------------------- running

STAGES = {
    "read": lambda file, done, total: f"reading {file} {bar(done >> 10, total >> 10)} KB",
    "write": lambda file, done, total: f"writing {file} {bar(done, total)} items",
    "commit": lambda file, done, total: f"committing {total:,} items to the database…",
    "scan": lambda file, done, total: f"scanning for {file} {bar(done, total)} items",
}


def progress_reporter(progress: Progress, file: str) -> Callable:
    """A ``progress(stage, done, total)`` callback drawing a bar through the shell's Progress."""
    def report(stage: str, done: int, total: int) -> None:
        if progress.wanted:  # "read" counts bytes of the file, "write" items, "commit" once
            progress.show(STAGES[stage](file, done, total))
    return report


def run_import(db, request: Request, progress: Progress, say: Callable) -> bool:
    """Import as asked; ``say(text, style)`` reports the outcome. True when it imported."""
    def go():
        return db.import_items(request.table, request.file, request.format,
                               continue_on_error=request.continue_on_error, types=request.types,
                               progress=progress_reporter(progress, request.file),
                               **_capacity(db, "max_wcu", request.capacity))
    report = _attempt(go, progress, say, request.file)
    if report is None:
        return False
    say(str(report), "warning" if report.errors else "status")
    return True


def run_export(db, request: Request, progress: Progress, say: Callable) -> bool:
    """Export as asked; ``say(text, style)`` reports the outcome. True when it exported."""
    def go():
        return db.export_items(request.table, request.file, request.format,
                               progress=progress_reporter(progress, request.file),
                               **_capacity(db, "max_rcu", request.capacity))
    report = _attempt(go, progress, say, request.file)
    if report is not None:
        say(str(report), "status")
        for warning in report.warnings:
            say(f"warning: {warning}", "warning")
    return report is not None


def _capacity(db, name: str, units: float | None) -> dict:
    """The capacity cap a remote transfer takes; a local database has no capacity to spare (ValueError)."""
    if units is None:
        return {}
    if not db.remote:
        raise ValueError(f"--{name.replace('_', '-')} paces a transfer with a remote table; a local one spends "
                         "no capacity")
    return {name: units}


def _attempt(go: Callable, progress: Progress, say: Callable, file: str):
    """``go()``'s report, or None after saying why it failed."""
    from partiql.engine.errors import DynamoDBError

    try:
        return go()
    except DynamoDBError as error:  # no such table
        say(error.message, "error")
    except OSError as error:
        say(f"cannot use {file}: {error.strerror or error}", "error")
    except ValueError as error:  # TransferError (bad rows), unknown format or types
        say(str(error), "error")
    finally:
        progress.clear()
    return None


# ---------------------------------------------------------- meta-commands

def import_command(session, argument: str) -> bool:
    """``.import FILE TABLE [options]``."""
    return _meta(session, argument, "import", run_import)


def export_command(session, argument: str) -> bool:
    """``.export TABLE FILE [--format F]``."""
    return _meta(session, argument, "export", run_export)


def _meta(session, argument: str, direction: str, run: Callable) -> bool:
    try:
        request = parse(argument, direction)
    except UsageError as error:
        session.notice(str(error), "error")
        return False
    return run(session.db, request, Progress(session.stderr), session.notice)


@dataclass(frozen=True)
class MetaCommand:
    """What ``commands.command`` needs to register one of these."""

    name: str
    usage: str
    summary: str
    run: Callable
    argument: str  # what completion offers first


META_COMMANDS = (
    MetaCommand(".import", IMPORT_USAGE, "load items from FILE (ddb-json, json or csv) into TABLE",
                import_command, "file"),
    MetaCommand(".export", EXPORT_USAGE, "write every item of TABLE to FILE (DynamoDB JSON lines, "
                "lossless; .csv or --format json/csv for plain ones)", export_command, "table"),
)


# ------------------------------------------------------------- subcommands

SUBCOMMANDS = ("import", "export")


def subcommand_parser() -> argparse.ArgumentParser:
    """``partiql DATABASE import …`` and ``partiql DATABASE export …``."""
    parser = argparse.ArgumentParser(formatter_class=WordWrap, prog="partiql",
                                     description="Import items into, or export them from, a database file.")
    parser.add_argument("database", metavar="DATABASE", help="the database file (created if needed)")
    commands = parser.add_subparsers(dest="direction", required=True, metavar="{import,export}")
    importing = commands.add_parser("import", formatter_class=WordWrap, help="load items from FILE into TABLE")
    importing.add_argument("file", metavar="FILE")
    importing.add_argument("table", metavar="TABLE")
    importing.add_argument("--continue-on-error", action="store_true",
                           help="import the good rows and report the bad ones (default: all or nothing)")
    importing.add_argument("--types", type=parse_types, metavar="NAME=TYPE,…",
                           help="declared attribute types for csv and json (S, N, B, BOOL, NULL, L, M, SS, NS, BS)")
    exporting = commands.add_parser("export", formatter_class=WordWrap, help="write every item of TABLE to FILE")
    exporting.add_argument("table", metavar="TABLE")
    exporting.add_argument("file", metavar="FILE")
    for sub in (importing, exporting):
        sub.add_argument("--format", choices=format_names(),
                         help="file format (default: from the file name, or its first line)")
    return parser


def is_subcommand(argv: list) -> bool:
    """Whether the command line is ``DATABASE import|export …``."""
    return len(argv) >= 2 and not argv[0].startswith("-") and argv[1] in SUBCOMMANDS


def subcommand(argv: list | None = None, stderr=None) -> int | None:
    """Run ``partiql DATABASE import|export …``: its exit status, or None for any other command line."""
    import partiql

    argv = sys.argv[1:] if argv is None else argv
    if not is_subcommand(argv):
        return None
    stderr = stderr or sys.stderr
    args = subcommand_parser().parse_args(argv)
    request = Request(args.file, args.table, args.format, getattr(args, "continue_on_error", False),
                      getattr(args, "types", None))

    def say(text: str, style: str = "status") -> None:
        print(f"partiql: {text}" if style == "error" else text, file=stderr)

    try:
        db = partiql.connect(args.database)
    except OSError as error:  # StorageError, DatabaseLocked
        say(str(error), "error")
        return 1
    with db:
        run = run_import if args.direction == "import" else run_export
        return 0 if run(db, request, Progress(stderr), say) else 1
