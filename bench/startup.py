"""Shell start-up benchmark: the medians of several runs.

    python bench/startup.py [--runs 7]

- ``partiql --version``: a cold process until the version is printed, beside
  a bare ``python -c pass`` (target ≤ 60 ms, issue 19);
- ``partiql -e "SELECT …"``: a cold process creating a table, inserting an
  item and selecting it, until the result is printed (target ≤ 250 ms, issue 19);
- the interactive prompt: a cold process on a pseudo-terminal until the
  ``partiql>`` prompt is drawn (target ≤ 600 ms);
- completion on a catalog of 500 tables, through the prompt_toolkit
  completer: the first Tab (which reads the catalog) and the ones after
  (target ≤ 50 ms).

The processes run with compiled bytecode, as an installed program does (pip
compiles what it installs): in a private cache (``PYTHONPYCACHEPREFIX``),
written by a first run that is not counted, whatever
``PYTHONDONTWRITEBYTECODE`` says (a machine that sets it would otherwise
compile every module at every start: ~80 ms more here).
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from _support import reference_speed  # (must precede the partiql import)

STATEMENTS = ["CREATE TABLE Music (Artist S, SongTitle S) PRIMARY KEY (Artist HASH, SongTitle RANGE);",
              "INSERT INTO Music VALUE {'Artist': 'Acme', 'SongTitle': 'Hi'};",
              "SELECT * FROM Music WHERE Artist = 'Acme';"]
PROMPT = b"partiql>"
COMPLETIONS = ["SELECT * FROM t1", "SELECT * FROM t123 WHERE ", "SELECT * FROM t123 WHERE s", ".describe t4"]


def command() -> list:
    """The console script when installed, else ``python -m partiql.shell``."""
    script = shutil.which("partiql")
    return [script] if script else [sys.executable, "-m", "partiql.shell"]


BYTECODE = tempfile.mkdtemp(prefix="partiql-bench-bytecode-")


def environment() -> dict:
    """A private config directory, so no user config or history is read; the private bytecode cache."""
    variables = {**os.environ, "XDG_CONFIG_HOME": tempfile.mkdtemp(prefix="partiql-bench-"), "NO_COLOR": "1",
                 "PYTHONPYCACHEPREFIX": BYTECODE}
    variables.pop("PYTHONDONTWRITEBYTECODE", None)
    return variables


def execute_once() -> float:
    arguments = [a for statement in STATEMENTS for a in ("-e", statement)]
    started = time.perf_counter()
    done = subprocess.run(command() + arguments, capture_output=True, text=True, env=environment())
    elapsed = time.perf_counter() - started
    assert done.returncode == 0 and "Acme" in done.stdout, done.stderr
    return elapsed


def version_once(interpreter_only: bool = False) -> float:
    arguments = [sys.executable, "-c", "pass"] if interpreter_only else command() + ["--version"]
    started = time.perf_counter()
    done = subprocess.run(arguments, capture_output=True, text=True, env=environment())
    elapsed = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    return elapsed


def prompt_once() -> float:
    main, child = pty.openpty()
    started = time.perf_counter()
    process = subprocess.Popen(command(), stdin=child, stdout=child, stderr=child, env=environment(),
                               close_fds=True)
    os.close(child)
    seen = b""
    try:
        while PROMPT not in seen:
            ready, _, _ = select.select([main], [], [], 10)
            if not ready:
                raise TimeoutError(f"no prompt after 10 s: {seen!r}")
            seen += os.read(main, 65536)
        elapsed = time.perf_counter() - started
        os.write(main, b"\x04")
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    return elapsed


def completion_times(runs: int) -> tuple:
    """(first completion, median of the later ones), in seconds, on 500 tables."""
    import partiql
    from prompt_toolkit.document import Document

    from partiql.shell.catalog import Catalog
    from partiql.shell.completer import ShellCompleter

    db = partiql.connect()
    for number in range(500):
        db.execute(f"CREATE TABLE t{number:03} (pk S, sk N) PRIMARY KEY (pk HASH, sk RANGE)")
    db.execute("INSERT INTO t123 VALUE {'pk': 'a', 'sk': 1, 'status': 'new', 'size_kb': 3}")
    completer = ShellCompleter(Catalog(db))

    def complete(text: str) -> float:
        started = time.perf_counter()
        found = list(completer.get_completions(Document(text), None))
        assert found, text
        return time.perf_counter() - started

    first = complete(COMPLETIONS[0])
    later = [complete(text) for _ in range(runs) for text in COMPLETIONS]
    return first, statistics.median(later), max(later)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    print(reference_speed())
    execute_once(), prompt_once()  # (compiles the bytecode the runs use)
    version = statistics.median(version_once() for _ in range(runs))
    bare = statistics.median(version_once(interpreter_only=True) for _ in range(runs))
    execute = statistics.median(execute_once() for _ in range(runs))
    prompt = statistics.median(prompt_once() for _ in range(runs))
    first, later, worst = completion_times(runs)
    print(f"partiql --version (bare python -c pass: {bare * 1000:.0f} ms):      {version * 1000:6.0f} ms  (target ≤ 60)")
    print(f"partiql -e (create, insert, select) to printed result: {execute * 1000:6.0f} ms  (target ≤ 250)")
    print(f"interactive prompt ready:                              {prompt * 1000:6.0f} ms  (target ≤ 600)")
    print(f"completion on 500 tables, first Tab:                   {first * 1000:6.1f} ms  (target ≤ 50)")
    print(f"completion on 500 tables, later (median / worst):      {later * 1000:6.1f} / {worst * 1000:.1f} ms")
    print(f"(medians of {runs} runs; command: {' '.join(command())})")
    print(reference_speed())


if __name__ == "__main__":
    main()
