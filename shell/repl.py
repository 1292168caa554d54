"""The interactive shell: a prompt_toolkit prompt around ``Session.run_script``.

Small functions over the ``Session``: ``key_bindings`` (Enter runs a
complete statement or a meta-command, otherwise starts a new line),
``build_prompt`` (highlighting, completion, history with Ctrl-R and
suggestions, emacs or vi keys, ``$EDITOR``), ``run_input`` (one accepted
buffer: every statement in it, in order) and ``run`` (the loop: Ctrl-C
clears the line, Ctrl-D leaves).
"""

from __future__ import annotations

from urllib.parse import urlparse

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.enums import DEFAULT_BUFFER, EditingMode
from prompt_toolkit.filters import emacs_mode, has_focus, vi_navigation_mode
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.styles import Style

import partiql
from partiql.splitter import is_complete, open_quote

from . import config
from .completer import ShellCompleter
from .execution import Cancelled
from .lexer import PartiQLLexer, style_rules


CONTINUATION = "    ...> "


def continuation_for(before: str) -> str:
    """The prompt of a line that follows ``before``: psql's ``'>`` inside an open string (``">`` in a
    quoted name, ``*>`` in a comment), so an unclosed quote is seen before it swallows the ``;``."""
    inside = open_quote(before)
    mark = {"'": "'", '"': '"', "/*": "*"}.get(inside, "")
    return f"...{mark}> ".rjust(len(CONTINUATION))


def continuation(width: int, line_number: int, wrap_count: int) -> str:
    """prompt_toolkit's continuation callback: the text above line ``line_number`` decides."""
    lines = get_app().current_buffer.document.text.split("\n")
    return continuation_for("\n".join(lines[:line_number]) + "\n")


def banner(database: str | None) -> str:
    """What the shell says when it starts."""
    where = database or "an in-memory database (nothing is saved when you quit)"
    return (f"partiql-ddb {partiql.__version__} on {where}\n"
            "End statements with ';'. .help lists the commands; Ctrl-D quits.")


def key_bindings() -> KeyBindings:
    """Enter takes a selected completion, runs a complete buffer, or starts a new line;
    Ctrl-X Ctrl-E (vi: v) opens the buffer in $EDITOR."""
    bindings = KeyBindings()

    @bindings.add("enter", filter=has_focus(DEFAULT_BUFFER))  # not while Ctrl-R searches
    def _enter(event):
        buffer = event.current_buffer
        state = buffer.complete_state
        if state and state.current_completion:
            buffer.apply_completion(state.current_completion)
        elif not buffer.text.strip() or is_complete(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    @bindings.add("c-x", "c-e", filter=emacs_mode)
    @bindings.add("v", filter=vi_navigation_mode)
    def _edit(event):
        event.current_buffer.open_in_editor()  # edit only: Enter decides whether it runs

    return bindings


def _history():
    """The history file under the XDG config directory (in memory if it cannot be created)."""
    path = config.history_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(path))


def prompt_message(db, block=None):
    """``partiql> `` on a local database; on an endpoint, where statements go, in the remote colour
    (``partiql 127.0.0.1:8000> ``, ``partiql dynamodb eu-west-1> ``); ``partiql*> `` while a BEGIN …
    COMMIT block is open (its statements are queued, not run)."""
    mark = "*" if block is not None else ""
    if not db.remote:
        return f"partiql{mark}> "
    where = urlparse(db.where).netloc or db.where
    return [("class:remote", f"partiql {where}"), ("", f"{mark}> ")]


def build_prompt(session, input=None, output=None) -> PromptSession:
    """The prompt_toolkit session for ``session``'s settings (``input``/``output`` for tests)."""
    settings = session.settings
    rules = {**style_rules(settings.colors), "remote": settings.colors.get("remote", "")}
    return PromptSession(
        message=lambda: prompt_message(session.db, session.block), multiline=True, prompt_continuation=continuation,
        lexer=PygmentsLexer(PartiQLLexer), style=Style.from_dict(rules),
        completer=ShellCompleter(session.catalog), complete_while_typing=True,
        auto_suggest=AutoSuggestFromHistory(), history=_history(), key_bindings=key_bindings(),
        editing_mode=EditingMode.VI if settings.key_bindings == "vi" else EditingMode.EMACS,
        tempfile_suffix=".sql", include_default_pygments_style=False,
        input=input, output=output)


def _confirm(prompt: PromptSession):
    """A yes/no question asked on the prompt's own input and output."""
    def ask(question: str) -> bool:
        answer = PromptSession(input=prompt.input, output=prompt.output).prompt(f"{question} [y/N] ")
        return answer.strip().lower() in ("y", "yes")
    return ask


def run_input(session, text: str) -> None:
    """Run an accepted buffer: every statement and meta-command in it, in order."""
    try:
        session.run_script(text)
    except Cancelled:
        pass  # the status line already said what the cancelled statement read
    except KeyboardInterrupt:
        session.notice("interrupted", "warning")


def run(session, database: str | None = None, *, input=None, output=None) -> int:
    """The read-run-print loop; returns the exit status (0)."""
    prompt = build_prompt(session, input, output)
    session.history = lambda: list(prompt.history.get_strings())
    session.confirm = _confirm(prompt)
    session.notice(banner(database))
    while not session.done:
        try:
            text = prompt.prompt()
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        run_input(session, text)
    session.output.close()
    return 0
