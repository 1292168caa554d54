"""Scripts: ``-e`` statements, ``-f`` files and stdin, run in order without prompt_toolkit.

Nothing here (or anything it imports) may import prompt_toolkit or pygments:
they cost ~200 ms, and a script needs neither. Results go to stdout, status
lines and errors to stderr; the exit status is 0 when every statement
succeeded and 1 otherwise (130 when Ctrl-C stopped the run).
"""

from __future__ import annotations

from .commands import read_script
from .diagnostics import ShellError
from .execution import Cancelled

INTERRUPTED = 130


def gather(requested: list, stdin) -> list:
    """``(name, kind, value)`` for each ``-e`` (value: the text) and ``-f`` (value: the path)
    in command-line order, or stdin's text when there are none. ``name`` is how errors
    call the script: the path, ``<stdin>``, ``-e``, or ``-e #2`` when there are several."""
    if not requested:
        return [("<stdin>", "-e", stdin.read())]
    several = sum(kind == "-e" for kind, _ in requested) > 1
    out, number = [], 0
    for kind, value in requested:
        number += kind == "-e"
        name = value if kind == "-f" else f"-e #{number}" if several else "-e"
        out.append((name, kind, value))
    return out


def _run_one(session, name: str, kind: str, value: str) -> bool:
    try:
        script = value if kind == "-e" else read_script(value)
    except ShellError as error:
        session.error(error)
        return False
    return session.run_script(script, source=name)


def run(session, scripts: list) -> int:
    """Run each script in order; stop early on ``.quit`` or, with ``--bail``, at the first error."""
    ok = True
    try:
        for name, kind, value in scripts:
            ok = _run_one(session, name, kind, value) and ok
            if session.done or not ok and session.bail:
                break
    except (Cancelled, KeyboardInterrupt):
        return INTERRUPTED
    finally:
        session.output.close()
    return 0 if ok else 1
