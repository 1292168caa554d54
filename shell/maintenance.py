"""``partiql check FILE``, ``partiql backup FILE DEST`` and ``partiql recover FILE``: a database file's
health, a safe copy, and the explicit recovery from a damaged write log.

``check`` and ``backup`` read the file without changing it, and work while
another process has it open (``backup`` uses SQLite's online backup, so what
is still in the write-ahead log is copied too). ``recover`` (also ``check
--repair``) owns the file while it applies a damaged write log's intact
records. The storage work is ``engine.storage.integrity``'s and ``recovery``'s.
"""

from __future__ import annotations

import argparse
import sys

from partiql.cli_help import WordWrap
from partiql.engine.storage import StorageError

COMMANDS = ("check", "backup", "recover")


def parser() -> argparse.ArgumentParser:
    """``partiql check FILE`` / ``partiql backup FILE DEST``."""
    top = argparse.ArgumentParser(prog="partiql", description="Check a database file, copy it safely, or "
                                  "recover it from a damaged write log.", formatter_class=WordWrap)
    commands = top.add_subparsers(dest="command", required=True, metavar="{check,backup,recover}")
    check = commands.add_parser("check", help="verify every table and item of FILE (read-only); "
                                "exit status 1 if anything is damaged", formatter_class=WordWrap)
    check.add_argument("file", metavar="FILE")
    check.add_argument("--repair", action="store_true", help="as partiql recover FILE")
    recover = commands.add_parser("recover", help="apply every intact write of FILE's damaged write log, "
                                  "name those it cannot restore, and keep the log as FILE-writes.damaged",
                                  formatter_class=WordWrap)
    recover.add_argument("file", metavar="FILE")
    backup = commands.add_parser("backup", help="copy FILE, as it is now, to the new file DEST "
                                 "(safe while FILE is open)", formatter_class=WordWrap)
    backup.add_argument("file", metavar="FILE")
    backup.add_argument("dest", metavar="DEST")
    return top


def main(argv: list, stdout=None, stderr=None) -> int:
    """Run ``check`` or ``backup``; the exit status."""
    # why here: the shell routes every command line through this module, and the integrity
    # checks import SQLite's whole storage stack, which a session in memory never uses
    from partiql.engine.storage.integrity import backup_file, check_file
    from partiql.engine.storage.recovery import recover

    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parser().parse_args(argv)
    try:
        if args.command == "backup":
            backup_file(args.file, args.dest)
            print(f"backed up {args.file} to {args.dest}", file=stderr)
            return 0
        if args.command == "recover" or args.repair:
            _print_recovery(recover(args.file), stdout)
            return 0
        report = check_file(args.file)
    except StorageError as error:
        print(f"partiql: {error}", file=stderr)
        return 1
    _print_report(report, stdout)
    return 0 if report.ok else 1


def _print_report(report, out) -> None:
    for name, count in report.tables.items():
        print(f"{name}: {count:,} items", file=out)
    if report.ok:
        logged = f", {report.logged:,} of the newest writes in its write log" if report.logged else ""
        print(f"{report.path}: ok (file format {report.version}, {len(report.tables)} tables, "
              f"{sum(report.tables.values()):,} items{logged})", file=out)
        return
    for problem in report.problems:
        print(f"damaged: {problem}", file=out)
    if report.more_problems:
        print(f"… and {report.more_problems} more", file=out)
    print(f"{report.path}: DAMAGED ({len(report.problems) + report.more_problems} problems)", file=out)


def _print_recovery(report, out) -> None:
    if report.kept_as is None:
        print(f"{report.path}: its write log is not damaged; nothing to recover (it opens as it is)", file=out)
        return
    if report.already_folded:
        print(f"{report.path}: the damaged write log's writes were already in the file; nothing applied",
              file=out)
    for damage in report.damage:
        print(f"skipped: {_records(damage.first, damage.last)} (byte {damage.offset}: {damage.why})", file=out)
    for first, last in report.unknown:
        print(f"not recovered: the writes of {_records(first, last)}, whose keys cannot be read either", file=out)
    for key in report.lost:
        print(f"not recovered: {key} (its last write was in a skipped record; it holds its previous value)",
              file=out)
    if not report.already_folded:
        print(f"{report.path}: recovered: {report.applied:,} intact logged writes applied; "
              f"{len(report.lost):,} keys not recovered; the damaged log was kept as {report.kept_as}", file=out)


def _records(first: int, last: int) -> str:
    return f"record {first}" if first == last else f"records {first}–{last}"
