"""Meta-commands: one registry feeds dispatch, ``.help`` and completion.

Each ``@command`` registration names the command, its aliases, its usage,
a one-line summary and what its argument is (``"table"``, ``"file"`` or a
tuple of words) so the completer can offer it. Handlers take the session
and the argument text; they raise ``ShellError`` (or let a DynamoDB error
through) when they cannot do what was asked, and ``dispatch`` reports it
with the script's name and line. ``.read`` returns False when a statement
of its file failed.
"""

from __future__ import annotations

import json

from dataclasses import dataclass
from typing import Callable

from partiql.engine.errors import DynamoDBError
from partiql.engine.throughput import MODES as THROUGHPUT_MODES
from partiql.nearest import nearest_name

from .config import FORMATS, SCAN_POLICIES, ConfigError
from . import blocks, heat, helptext, knobs, tail, vector_search
from .diagnostics import ShellError, local_only
from .explain import render_description, render_tables
from partiql.schema import create_request, create_statement
from .formatting import literal

PREFIXES = (".", "\\")
HISTORY_SHOWN = 20
KEYS_HELP = """Keys: Enter runs a statement ending in ';' (or a meta-command), otherwise starts a new line;
Ctrl-C clears the line or stops a running statement after its current page; Ctrl-D exits;
Ctrl-R searches the history; Right-arrow takes the grey suggestion; Tab completes;
Ctrl-X Ctrl-E (vi: v) edits the statement in $EDITOR."""


@dataclass(frozen=True)
class Command:
    """A meta-command: ``name`` and ``aliases`` dispatch to ``run(session, argument)``."""

    name: str
    usage: str
    summary: str
    run: Callable
    aliases: tuple = ()
    argument: str | tuple | None = None  # "table", "file", or the words it accepts


COMMANDS: dict = {}  # every name and alias -> Command


def command(name: str, usage: str, summary: str, *, aliases: tuple = (), argument=None):
    """Register the decorated handler as meta-command ``name``."""
    def register(run: Callable) -> Callable:
        entry = Command(name, usage, summary, run, aliases, argument)
        for word in (name, *aliases):
            COMMANDS[word] = entry
        return run
    return register


def commands() -> list:
    """Each command once, in registration order."""
    return list(dict.fromkeys(COMMANDS.values()))


# Words psql and sqlite users type bare (with or without ';'), and the commands they mean.
BARE = {"help": ".help", "quit": ".quit", "exit": ".quit"}


def _bare(text: str) -> str | None:
    return BARE.get(text.strip().rstrip(";").strip().lower())


def is_command(text: str) -> bool:
    """Whether ``text`` is a meta-command line (or a bare ``help`` / ``quit`` / ``exit``)."""
    return text.lstrip().startswith(PREFIXES) or _bare(text) is not None


def split(text: str) -> tuple:
    """``'.format  csv'`` -> ``('.format', 'csv')``; ``'quit;'`` -> ``('.quit', '')``."""
    bare = _bare(text)
    if bare is not None:
        return bare, ""
    word, _, argument = text.strip().partition(" ")
    return word, argument.strip()


def dispatch(session, text: str, where=None) -> bool:
    """Run the meta-command line ``text``; False when it is unknown or failed."""
    word, argument = split(text)
    try:
        found = COMMANDS.get(word)
        if found is None:
            raise ShellError(f"unknown command {word} (.help lists them)")
        return found.run(session, argument) is not False
    except (ShellError, DynamoDBError) as error:
        session.error(error, text, where)
        session.show_hints(_meta_hints(session, error, argument))
        return False


def _meta_hints(session, error, argument: str) -> list:
    """A meta-command naming a table that is not there: the nearest one, and how to make it; a table
    without a stream (``.tail``): the statement that turns one on."""
    if not argument.split():
        return []
    name = argument.split()[0].strip('"')
    if "has no stream enabled" in getattr(error, "message", ""):
        return [f"ALTER TABLE {name} SET STREAM NEW_AND_OLD_IMAGES; turns one on"]
    if getattr(error, "code", "") != "ResourceNotFoundException":
        return []
    if name in session.db.table_names():  # (there, but not yet ACTIVE: realism's lifecycle, --index-timing)
        return [f"{name} is there but not ACTIVE yet (DESCRIBE {name} says its status): try again in a while"]
    nearest = nearest_name(name, sorted(session.db.table_names()))
    found = [f"there is no table {name}: did you mean {nearest}?"] if nearest else []
    return found + [f"CREATE TABLE {name} PRIMARY KEY (pk STRING HASH) creates it (.help CREATE)"]


def read_script(path: str) -> str:
    """The text of a script file (ShellError when it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as script:
            return script.read()
    except (OSError, ValueError) as error:
        raise ShellError(f"cannot read {file_problem(path, error)}") from None


def file_problem(path: str, error: Exception) -> str:
    """``path: why`` for a file a command could not use; a name no file can have (a NUL, an unpaired
    surrogate: ValueError from ``open``) says so. A name that would not print (a control character, an
    undecodable byte) is shown escaped, so the message itself prints."""
    shown = path if _printable(path) else ascii(path)
    if isinstance(error, OSError):
        return f"{shown}: {error.strerror or error}"
    return f"{shown}: not a usable file name"


def _printable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # an undecodable byte of a file name (surrogateescape)
        return False
    return text.isprintable()


# ---------------------------------------------------------------- handlers

def _setting(session, key: str, argument: str) -> None:
    """Show a setting, or change it from ``argument``."""
    if argument:
        try:
            session.settings = session.settings.with_value(key, argument)
        except ConfigError as error:
            raise ShellError(str(error)) from None
    value = getattr(session.settings, key)
    session.notice(f"{key}: {('on' if value else 'off') if isinstance(value, bool) else value}")


@command(".help", "[COMMAND|TOPIC]", "list the meta-commands, or describe one; topics: CREATE, ALTER, "
         "transaction", aliases=("\\?",), argument="command")
def _help(session, argument: str) -> None:
    text = helptext.topic(argument) if argument else None
    if text is not None:
        session.show(text)
        return
    found = COMMANDS.get(argument) or COMMANDS.get("." + argument)
    if argument and found is None:
        raise ShellError(f"no help for {argument!r}: .help lists the commands; topics: CREATE, ALTER, transaction")
    lines = helptext.command_lines([found] if found else commands())
    if found is None:
        lines += helptext.paragraph(
            "Statements: PartiQL (SELECT, INSERT, UPDATE, DELETE), CREATE/DROP/ALTER TABLE, DESCRIBE T, SHOW "
            "TABLES, EXPLAIN <statement>; end each with ';'. Transactions and batches: BEGIN [TRANSACTION] or "
            "BEGIN BATCH, statements, COMMIT or ROLLBACK. help, quit and exit work bare too.")
        if session.interactive:
            lines.append(KEYS_HELP)
    session.show("\n".join(lines))


@command(".tables", "[-q]", "list the tables with their keys, indexes and item counts (-q: names only)",
         aliases=("\\dt",), argument=("-q",))
def _tables(session, argument: str) -> None:
    names = session.catalog.tables()
    if argument not in ("", "-q"):
        raise ShellError(f".tables takes -q (names only) or nothing, not {argument!r}")
    if not names:
        session.show("(no tables)")
    elif argument == "-q":
        session.show("\n".join(names))
    else:
        session.show(render_tables([session.catalog.description(name) for name in names]))


@command(".describe", "TABLE", "keys, indexes, billing mode, partitions, item count and size",
         aliases=("\\d",), argument="table")
def _describe(session, argument: str) -> None:
    if not argument:
        return _tables(session, argument)
    name = argument.strip('"')
    session.show(render_description(session.db.describe(name), session.db.layout(name)))


SCHEMA_FORMATS = ("json", "workbench")


@command(".schema", "[TABLE] [--format json|workbench]", "the statement that recreates TABLE (every table without "
         "one); --format json: DynamoDB's CreateTable request instead; --format workbench: a NoSQL Workbench model",
         argument="table")
def _schema(session, argument: str) -> None:
    words = argument.split()
    shape = words[-1] if words[-2:-1] == ["--format"] else None
    if shape is not None:
        words = words[:-2]
    if len(words) > 1 or "--format" in words or shape not in (None,) + SCHEMA_FORMATS:
        raise ShellError(".schema takes a table name and --format json or --format workbench, nothing else")
    names = [words[0].strip('"')] if words else session.catalog.tables()
    if shape == "workbench":
        from .model import export_model

        document, notes = export_model(session.db, names, 0, names[0] if words else "schema")
        session.show(json.dumps(document, indent=2, ensure_ascii=False))
        for note in notes:
            session.notice(f"note: {note}")
        return
    descriptions = [session.db.describe(table) for table in names]
    if shape == "json":
        requests = [create_request(d) for d in descriptions]
        session.show(json.dumps(requests[0] if words else requests, indent=2))
    else:
        session.show("\n\n".join(create_statement(d) for d in descriptions) or "(no tables)")


@command(".format", "[FORMAT]", f"show or set the output format ({', '.join(FORMATS)})", aliases=(".mode",),
         argument=FORMATS)
def _format(session, argument: str) -> None:
    _setting(session, "format", argument)


@command(".timer", "[on|off]", "show or set the elapsed time in the status line", argument=("on", "off"))
def _timer(session, argument: str) -> None:
    _setting(session, "timer", argument)


@command(".scan", "[POLICY]", f"show or set what a full Scan does in this session ({', '.join(SCAN_POLICIES)}; "
         "the default: scan = … in the config file, or --scan)", argument=SCAN_POLICIES)
def _scan(session, argument: str) -> None:
    _setting(session, "scan", argument)


@command(".throughput", "[MODE]", "show or set partition throughput: report (warn of what DynamoDB would "
         "throttle), enforce (throttle as DynamoDB does) or off", argument=THROUGHPUT_MODES)
def _throughput(session, argument: str) -> None:
    local_only(session, ".throughput")
    model = session.db.engine.throughput
    if argument:
        if argument not in THROUGHPUT_MODES:
            raise ShellError(f"throughput must be one of {', '.join(THROUGHPUT_MODES)}, not {argument!r}")
        model.mode = argument
    split = "adaptive capacity" if model.adaptive else "classic partitions"
    session.notice(f"throughput: {model.mode} ({split})")


@command(".faults", "[FILE|PRESET|off]", "show realism: the scripted faults and how many each injected, the "
         "lifecycle, consistency and transaction figures; FILE or PRESET (aws) switches it on, off switches it off")
def _faults(session, argument: str) -> None:
    local_only(session, ".faults")
    from partiql.engine.realism import RealismError, realism_from

    engine = session.db.engine
    if argument:
        try:
            engine.realism = realism_from(argument.strip())
        except RealismError as error:
            raise ShellError(str(error)) from None
    realism = engine.realism
    if realism is None:
        session.notice("realism: off (.faults FILE|aws, or --realism FILE|aws, switches it on)")
        return
    last = realism.injected[-1] if realism.injected else None
    session.notice(f"realism from {realism.source} (seed {realism.seed}), {realism.total:,} injected"
                   + (f", the last {last.fault} into {last.operation}" if last else "") + ":")
    for line in realism.describe():
        session.notice(f"  {line}")


@command(".index_timing", "[instant|realistic]", "show or set how vector indexes are created and deleted: ACTIVE at "
         "once (instant) or through DynamoDB's phases on the clock (realistic)", argument=("instant", "realistic"))
def _index_timing(session, argument: str) -> None:
    local_only(session, ".index_timing")
    from partiql.engine.realism import with_index_timing

    engine = session.db.engine
    if argument:
        try:
            engine.realism = with_index_timing(engine.realism, argument.strip())
        except ValueError as error:
            raise ShellError(str(error)) from None
        if argument.strip() == "instant" and engine.realism is not None and engine.realism.lifecycle is not None:
            engine.realism.lifecycle.vectors = None
    lifecycle = getattr(engine.realism, "lifecycle", None)
    realistic = lifecycle is not None and lifecycle.vectors is not None
    session.notice(f"index timing: {'realistic' if realistic else 'instant'}")


@command(".heat", "TABLE [INDEX]", "a table's (or GSI's) partitions over the last seconds: load against their "
         "ceilings, throttles, top keys, advice (a local or served file)", argument="table")
def _heat(session, argument: str) -> None:
    words = argument.replace('"', " ").split()
    if not 1 <= len(words) <= 2:
        raise ShellError(".heat needs a TABLE (and optionally one of its global secondary indexes)")
    if len(words) == 2 and not session.db.remote and words[0] in session.db.table_names() \
            and session.db.engine.table(words[0]).spec.vector(words[1]) is not None:
        seconds = session.db.vector_metrics(words[0], words[1], last=heat.DEFAULT_SECONDS)
        return session.show(heat.render_vector(words[0], words[1], seconds))
    try:  # (a served file's: through partiql serve's extension API)
        found = session.db.metrics(words[0], words[1] if len(words) == 2 else None, last=heat.DEFAULT_SECONDS)
    except ValueError as error:
        raise ShellError(str(error)) from None
    session.show(heat.render(found))


@command(".tail", "TABLE [--from start|now|SEQUENCE]", "the table's stream records, then each change as it "
         "commits, in the output format, until Ctrl-C (a script: what is there)", argument="table")
def _tail(session, argument: str) -> None:
    try:  # (a remote table's: through the DynamoDB Streams API)
        shown = tail.follow(session, argument)
    except tail.TailError as error:
        raise ShellError(str(error)) from None
    session.notice(f"{shown} change{'' if shown == 1 else 's'}")


@command(".limit", "[N|off]", "show or set DynamoDB's Limit for SELECT: one page of at most N items, "
         "then .next", argument=("off",))
def _limit(session, argument: str) -> None:
    if argument:
        session.knobs.limit = knobs.parse_limit(argument)
        session.knobs.pending = None
    limit = session.knobs.limit
    session.notice(f"limit: {'off (every page)' if limit is None else limit}")


@command(".refresh", "", "a read-only snapshot: read the database file again, as it is now")
def _refresh(session, argument: str) -> None:
    import partiql

    db = session.db
    storage = getattr(getattr(db, "engine", None), "storage", None)
    if storage is None or not getattr(storage, "read_only", False) or db.path is None:
        raise ShellError(".refresh reads a snapshot again: this session writes its database (partiql --read-only "
                         "FILE reads one)")
    throughput = db.engine.throughput
    fresh = partiql.connect(db.path, read_only=True, throughput=throughput.mode,
                            adaptive_capacity=throughput.adaptive)
    fresh.scan_policy = db.scan_policy
    db.close()
    session.replace_connection(fresh)
    session.notice(snapshot_notice(db.path))


def snapshot_notice(path: str) -> str:
    """What a read-only session reads: ``a snapshot of FILE as of 10:42:07 (.refresh reads it again)``."""
    import time

    return f"reading a snapshot of {path} as of {time.strftime('%H:%M:%S')}; writes are refused (.refresh reads it again)"


@command(".queue", "[drop N]", "what BEGIN … COMMIT queued; drop N drops one")
def _queue(session, argument: str) -> None:
    blocks.show_queue(session, argument)


@command(".next", "", "read the next page of the last SELECT run with .limit")
def _next(session, argument: str) -> bool:
    return session.next_page()


@command(".consistent", "[on|off]", "show or set ConsistentRead for SELECT (1 RCU per 4 KB instead of 0.5)",
         argument=("on", "off"))
def _consistent(session, argument: str) -> None:
    if argument:
        if argument.lower() not in ("on", "off"):
            raise ShellError(f".consistent takes on or off, not {argument!r}")
        session.knobs.consistent = argument.lower() == "on"
    session.notice(f"consistent: {'on' if session.knobs.consistent else 'off'}")


@command(".param", "[VALUES|clear]", "show, bind (PartiQL values, comma-separated: 'u102', 5) or clear the "
         "values of ?", aliases=("\\bind",))
def _param(session, argument: str) -> None:
    if argument.lower() == "clear":
        session.knobs.params = []
    elif argument:
        session.knobs.params = knobs.parse_params(argument)
    shown = ", ".join(literal(value) for value in session.knobs.params)
    session.notice(f"parameters: {shown or 'none'}")


@command(".read", "FILE", "run the statements and meta-commands in FILE", argument="file")
def _read(session, argument: str) -> bool:
    return session.run_script(read_script(argument), source=argument)


def _redirect(session, argument: str, once: bool) -> None:
    try:
        session.output.redirect(argument or None, once)
    except (OSError, ValueError) as error:
        raise ShellError(f"cannot write {file_problem(argument, error)}") from None


@command(".output", "[FILE]", "send results to FILE (no FILE: back to the terminal)", argument="file")
def _output(session, argument: str) -> None:
    _redirect(session, argument, once=False)


@command(".once", "FILE", "send the next result to FILE", argument="file")
def _once(session, argument: str) -> None:
    if not argument:
        raise ShellError(".once needs a FILE")
    _redirect(session, argument, once=True)


@command(".last", "", "show the last result again, every item")
def _last(session, argument: str) -> None:
    if session.last is None:
        session.notice("no result yet")
    else:
        session.print_run(session.last, limit=0)


@command(".backup", "FILE", "copy the database file, as it is now, to the new FILE (safe while open; a served "
         "file: the server copies it)",
         argument="file")
def _backup(session, argument: str) -> None:
    if not argument:
        raise ShellError(".backup needs a FILE")
    try:  # (a served file's: partiql serve's online backup)
        session.db.backup(argument)
    except (OSError, ValueError) as error:  # StorageError: in memory, FILE exists, no such directory…
        raise ShellError(str(error)) from None
    session.notice(f"backed up to {argument}")


@command(".history", "[N]", f"show the last N statements (default {HISTORY_SHOWN})")
def _history(session, argument: str) -> None:
    count = int(argument) if argument.isascii() and argument.isdigit() else HISTORY_SHOWN
    entries = session.history()
    first = max(0, len(entries) - count)
    session.show("\n".join(f"{n:5}  {entry}" for n, entry in enumerate(entries[first:], first + 1)))


@command(".quit", "", "leave the shell (Ctrl-D too)", aliases=(".exit", "\\q"))
def _quit(session, argument: str) -> None:
    session.done = True


def _register_transfers() -> None:
    """``.import`` and ``.export`` come from ``shell.transfer`` (one registration each)."""
    from . import transfer
    for entry in transfer.META_COMMANDS:
        command(entry.name, entry.usage, entry.summary, argument=entry.argument)(entry.run)


_register_transfers()
command(".search", vector_search.USAGE, vector_search.SUMMARY, argument="table")(vector_search.run)
