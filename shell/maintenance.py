"""``partiql check FILE`` and ``partiql backup FILE DEST``: a database file's health, and a safe copy.

Both read the file without changing it, and work while another process has
it open (``backup`` uses SQLite's online backup, so what is still in the
write-ahead log is copied too). The storage work is ``engine.storage.integrity``'s.
"""

from __future__ import annotations

import argparse
import sys

from partiql.engine.storage import StorageError

COMMANDS = ("check", "backup")


def parser() -> argparse.ArgumentParser:
    """``partiql check FILE`` / ``partiql backup FILE DEST``."""
    top = argparse.ArgumentParser(prog="partiql", description="Check a database file, or copy it safely.")
    commands = top.add_subparsers(dest="command", required=True, metavar="{check,backup}")
    check = commands.add_parser("check", help="verify every table and item of FILE (read-only); "
                                "exit status 1 if anything is damaged")
    check.add_argument("file", metavar="FILE")
    backup = commands.add_parser("backup", help="copy FILE, as it is now, to the new file DEST "
                                 "(safe while FILE is open)")
    backup.add_argument("file", metavar="FILE")
    backup.add_argument("dest", metavar="DEST")
    return top


def main(argv: list, stdout=None, stderr=None) -> int:
    """Run ``check`` or ``backup``; the exit status."""
    # why here: the shell routes every command line through this module, and the integrity
    # checks import SQLite's whole storage stack, which a session in memory never uses
    from partiql.engine.storage.integrity import backup_file, check_file

    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = parser().parse_args(argv)
    try:
        if args.command == "backup":
            backup_file(args.file, args.dest)
            print(f"backed up {args.file} to {args.dest}", file=stderr)
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
