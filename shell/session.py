"""The shell's state and how one input runs: shared by scripts, ``.read`` and the REPL.

A ``Session`` holds the connection, the settings, where results go
(``Output``: the terminal or a file from ``.output`` / ``.once``), where
status lines and errors go (``Console``: stderr in scripts, the terminal in
the REPL), the catalog cache and the last result. ``run_script`` splits a
text into statements and meta-commands and runs each; ``run_statement``
runs one statement page by page, prints its items and the status line, and
reports any error (DynamoDB's, or a bug of ours) instead of raising it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

from partiql import hints
from partiql.errors import EndpointUnreachable
from partiql.result import ConsumedCapacity
from partiql.splitter import split_statements

from . import blocks, commands, served
from .catalog import Catalog
from .config import Settings
from .diagnostics import ShellError, Where, error_fragments
from .execution import Cancelled, collect, one_page
from .explain import render_description, render_plan
from .formatting import render_items
from .printable import printable
from .knobs import LIMIT_HINT, Knobs
from .progress import Progress, bar
from .status import READ_ONLY, Run, capacity_text, leading_word, status_fragments
from .style import paint, wants_colour

NOT_FOUND = (126, 127)  # the shell could not start the pager


_SELECT_STAR = re.compile(r"\s*SELECT\s+\*", re.I)

class Console:
    """Where status lines, warnings and errors go, painted when the stream is a terminal."""

    def __init__(self, stream, colors: dict):
        self.stream = stream
        self.colors = colors
        self.colour = wants_colour(stream)

    def say(self, fragments: list) -> None:
        """Print ``(class, text)`` fragments as one message."""
        self.stream.write(paint(fragments, self.colors, self.colour) + "\n")
        self.stream.flush()


class Output:
    """Where results go: the terminal stream, or a file named by ``.output`` or ``.once``."""

    def __init__(self, terminal):
        self.terminal = terminal
        self.file = None
        self.once = False

    @property
    def redirected(self) -> bool:
        return self.file is not None

    def redirect(self, path: str | None, once: bool = False) -> None:
        """Send results to ``path`` (truncated), or back to the terminal when None."""
        self.close()
        if path is not None:
            self.file = open(path, "w", encoding="utf-8")
            self.once = once

    def close(self) -> None:
        """Back to the terminal."""
        if self.file is not None:
            self.file.close()
        self.file = None
        self.once = False

    def write(self, text: str) -> None:
        """Write one result (a newline is added): to the terminal with what it would act on escaped, to a
        file as it is; a ``.once`` file is closed after it."""
        stream = self.file or self.terminal
        if self.file is None and _is_terminal(stream):
            text = printable(text)
        stream.write(text + "\n")
        stream.flush()
        if self.once:
            self.close()


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # (a closed or plain stream)
        return False


class Session:
    """One shell: a connection, settings, output, console, catalog and the last result."""

    def __init__(self, db, settings: Settings, *, interactive: bool, bail: bool = False,
                 stdout=None, stderr=None):
        self.db = db
        self.interactive = interactive
        self.bail = bail
        self.settings = settings
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.output = Output(self.stdout)
        self.console = Console(self.stdout if interactive else self.stderr, settings.colors)
        self.catalog = Catalog(db)
        self.last: Run | None = None
        self.progress = Progress(self.stderr)
        self.history = lambda: []  # the REPL plugs its history in
        self.confirm = None  # the REPL's yes/no question before a full Scan (scan = warn)
        self.done = False  # set by .quit
        self.knobs = Knobs()  # .limit, .consistent, .param
        self.hinted: list = []  # hints shown before a scan question, not repeated as the result's warnings
        self.block = None  # an open BEGIN … COMMIT (shell.blocks)
        self.ask_before_drop = False  # a remote endpoint without --yes: DROP TABLE is confirmed first
        self.local_options: dict = {}  # how the shell opens a database file (a served one whose server is gone)

    def replace_connection(self, db) -> None:
        """Go on with ``db`` (a snapshot read again: ``.refresh``); what was read of the old one is forgotten."""
        self.db = db
        self.catalog = Catalog(db)
        self.last = None
        self.knobs.pending = None

    @property
    def settings(self) -> Settings:
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings
        self.db.scan_policy = settings.scan

    # ------------------------------------------------------------ messages
    def say(self, fragments: list) -> None:
        """``(class, text)`` fragments on the console, above any progress line."""
        with self.progress.suspended():
            self.console.say(fragments)

    def error(self, error: Exception, statement: str = "", where: Where | None = None) -> None:
        """Report an error on the console (a served file's server gone: offer to open the file here)."""
        self.say(error_fragments(error, statement, where))
        if isinstance(error, EndpointUnreachable):
            served.offer_local(self)

    def notice(self, text: str, style: str = "status") -> None:
        """A line on the console (``style`` is a ``[colors]`` key)."""
        self.say([(style, text)])

    # ------------------------------------------------------------- results
    def _terminal_size(self) -> os.terminal_size | None:
        if self.output.redirected or not self.stdout.isatty():
            return None
        return shutil.get_terminal_size()

    def show(self, text: str) -> None:
        """Print a result: through the pager when it does not fit the interactive terminal."""
        size = self._terminal_size()
        tall = self.interactive and size is not None and text.count("\n") + 2 > size.lines
        with self.progress.suspended():
            if not (tall and self._page(text)):
                self.output.write(text)

    def _page(self, text: str) -> bool:
        """Show ``text`` in the pager ($PAGER, else the setting); False when there is none."""
        pager = os.environ.get("PAGER") or self.settings.pager
        if not pager:
            return False
        done = subprocess.run(pager, shell=True, input=text + "\n", text=True, check=False)
        return done.returncode not in NOT_FOUND

    def render(self, run: Run, limit: int) -> str | None:
        """The text of a result: a plan, a table description or items (None for writes and DDL)."""
        result = run.result
        if run.verb == "EXPLAIN":
            return render_plan(result.plan)
        if result.plan is not None and result.plan.kind == "DescribeTable":
            return render_description(result.items[0])
        if not result.items and run.verb not in ("SELECT", "SHOW"):
            return None
        size = self._terminal_size()
        plan = result.plan
        # (a SELECT list orders the columns as it was written: its items come so; SELECT * puts keys first)
        listed = run.verb == "SELECT" and not _SELECT_STAR.match(run.statement)
        keys = [] if listed else self.catalog.keys(plan and plan.table, plan and plan.index)
        return render_items(result.items, self.settings.format, keys, size.columns if size else 0, limit)

    def print_run(self, run: Run, limit: int) -> None:
        """The result's text (if any), its warnings, then the status line."""
        text = self.render(run, limit)
        if text:
            self.show(text)
        for warning in run.result.warnings:
            if warning not in self.hinted:  # (shown before the scan question already)
                self.notice(f"warning: {warning}", "warning")
        self.hinted = []
        self.say(status_fragments(run, self.settings.timer, self.db.where if self.db.remote else None))

    # ---------------------------------------------------------- statements
    def _scan_answer(self, statement: str) -> bool | None:
        """The user's answer to running a full Scan (REPL, scan = warn); None when nothing was asked."""
        if self.confirm is None or self.db.scan_policy != "warn" or leading_word(statement) != "SELECT":
            return None
        parameters = list(self.knobs.params) if self.knobs.params and "?" in statement else []
        plan = self.db.explain(statement, parameters or None)
        if not plan.full_table_scan:
            return None
        self.hinted = hints.for_plan(self.db, statement, parameters, plan)
        self.show_hints(self.hinted)  # (before the question: an informed answer)
        return self.confirm(f"{plan.access_path} reads the whole table. Run it?")

    def run_statement(self, statement: str, where: Where | None = None) -> bool:
        """Run one statement and print what it returned; False when it failed.

        Raises ``Cancelled`` (after printing what was read) when Ctrl-C
        stopped it between pages, so every script around it stops too.
        """
        limit = self.settings.row_limit if self.interactive and not self.output.redirected else 0
        try:
            if not self._drop_confirmed(statement):
                self.notice("not run")
                return True
            answer = self._scan_answer(statement)
            if answer is False:
                self.notice("not run")
                return True
            run = self.last = self._run(statement, scan_policy="allow" if answer else None)
            self.print_run(run, limit)
        except Exception as error:  # why: DynamoDB's errors, and our bugs, must not end the session
            self.error(error, statement, where)
            self._after_error(error, statement)
            return False
        finally:
            if leading_word(statement) not in READ_ONLY:
                self.catalog.forget()
        if run.cancelled:
            raise Cancelled
        return True

    def _drop_confirmed(self, statement: str) -> bool:
        """DROP TABLE on a remote endpoint: asked first (a script must say --yes)."""
        if not self.ask_before_drop or leading_word(statement) != "DROP":
            return True
        if self.confirm is None:
            raise ShellError(f"DROP TABLE on {self.db.where} is not run from a script without --yes")
        return self.confirm(f"Drop this table on {self.db.where}? Its items are deleted for good.")

    def show_hints(self, found) -> None:
        """``hint: …`` lines, in the warning colour."""
        for hint in found:
            self.notice(f"hint: {hint}", "warning")

    def _after_error(self, error: Exception, statement: str) -> None:
        """What DynamoDB still charged for a failed write, and a hint for the usual causes."""
        consumed = getattr(error, "consumed", None)
        if consumed is not None:
            self.notice(f"charged: {capacity_text(ConsumedCapacity.of([consumed]))}", "capacity")
        self.show_hints(getattr(error, "hints", ()))  # partiql.hints: advice beside DynamoDB's error
        if getattr(error, "message", "").startswith("Unsupported clause: LIMIT"):
            self.notice(LIMIT_HINT, "warning")
        elif getattr(error, "code", "") == "ConditionalCheckFailedException" and \
                leading_word(statement) in ("UPDATE", "DELETE"):
            self.notice(f"hint: {leading_word(statement)} changes an existing item only: no item has this key, "
                        "or the rest of its WHERE is false for it", "warning")

    def _run(self, statement: str, next_token=None, scan_policy: str | None = None) -> Run:
        """All pages of a statement, or one page with DynamoDB's Limit for a SELECT under ``.limit``
        (``scan_policy``: this statement's, as after a yes to the scan question: not warned again)."""
        if scan_policy is not None:
            self.db.scan_policy = scan_policy
            try:
                return self._run(statement, next_token)
            finally:
                self.db.scan_policy = self.settings.scan
        knobs = self.knobs
        parameters = knobs.params if knobs.params and "?" in statement else None
        if knobs.limit is None or leading_word(statement) != "SELECT":
            return collect(self.db, statement, self.progress, parameters, knobs.consistent)
        run = one_page(self.db, statement, parameters, knobs.limit, knobs.consistent, next_token)
        knobs.pending = (statement, run.result.next_token) if run.more else None
        return run

    def next_page(self) -> bool:
        """``.next``: the page after the last one a ``.limit`` read left."""
        if self.knobs.pending is None:
            self.notice("nothing more to read: .next follows a SELECT run with .limit N that had more")
            return True
        statement, token = self.knobs.pending
        try:
            run = self.last = self._run(statement, token)
            self.print_run(run, 0)
        except Exception as error:  # noqa: BLE001 - as run_statement: report, keep the session
            self.error(error, statement)
            return False
        return True

    def run_one(self, text: str, where: Where | None = None) -> bool:
        """A meta-command or a statement."""
        if commands.is_command(text):
            return commands.dispatch(self, text, where)
        try:
            handled = blocks.handle(self, text)
        except Exception as error:  # why: as run_statement, nothing may end the session
            self.error(error, text, where)
            return False
        if handled is not None:
            return handled
        return self.run_statement(text, where)

    def run_script(self, script: str, source: str | None = None) -> bool:
        """Every statement and meta-command of ``script``, in order; False if any failed.

        Stops at the first failure when ``bail`` is set, and at ``.quit``;
        ``source`` names the script in errors.
        """
        pieces = split_statements(script)
        outer, self.progress = self.progress, Progress(self.stderr)
        ok = True
        try:
            for number, (text, line) in enumerate(pieces, 1):
                self.progress.show(f"{bar(number - 1, len(pieces))} statement at line {line}")
                succeeded = self.run_one(text, Where(source, line) if source else None)
                ok = ok and succeeded
                if self.done or not succeeded and self.bail:
                    break
        finally:
            self.progress.clear()
            self.progress = outer
        return ok
