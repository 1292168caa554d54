"""Nothing acknowledged is ever lost: SIGKILL a writer at random points, reopen, compare.

Each round starts ``kill_writer.py`` on the same database file and kills it
with SIGKILL after a random delay (a few rounds while it is still opening
the file). The file must then pass SQLite's integrity check and open, and
its content must equal exactly the acknowledged operations, plus or minus
the single operation that was in flight, applied whole or not at all: a
transaction or batch is never half there, an acknowledged write never
missing, a deleted item never back, and every index holds exactly the
items that belong in it. Main has a stream: replaying its records from the
start must give Main's items exactly (no acknowledged change's record lost,
none invented), in increasing sequence numbers. The next round continues on
the same file.

``PARTIQL_KILL_ROUNDS`` sets the number of rounds (default 25).
"""

from __future__ import annotations

import importlib.util
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from partiql.engine import Engine
from partiql.engine.storage.sqlite import SqliteStorage

WRITER = Path(__file__).with_name("kill_writer.py")
ROUNDS = int(os.environ.get("PARTIQL_KILL_ROUNDS", "25"))
SEED = int(os.environ.get("PARTIQL_KILL_SEED", "20240605"))

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")


# ------------------------------------------------------------------ the model

def apply(state: dict, operation: list) -> None:
    """What an acknowledged operation did to ``state`` ({table: {(pk, sk): v}}, plus "@gsi")."""
    kind, args = operation[0], operation[1:]
    if kind in ("put", "upd"):
        table, pk, sk, v = args
        state[table][(pk, int(sk))] = int(v)
    elif kind == "del":
        table, pk, sk = args
        state[table].pop((pk, int(sk)), None)
    elif kind == "txn":
        pk, count = args[0], int(args[1])
        state["Main"].update({(pk, sk): sk for sk in range(count)})
        state["Side"][(pk, 0)] = count
    elif kind in ("batch", "import"):
        pk, count = args[0], int(args[1])
        state["Main"].update({(pk, sk): sk for sk in range(count)})
    elif kind == "create":
        state[args[0]] = {}
    elif kind == "drop":
        del state[args[0]]
        state["@gsi"].pop(args[0], None)
    elif kind == "gsi":
        state["@gsi"][args[0]] = args[1]
    else:
        raise AssertionError(f"unknown operation {operation}")


def copy(state: dict) -> dict:
    return {name: dict(content) for name, content in state.items()}


def observe(engine: Engine) -> dict:
    """The state as the reopened database has it, checking each index against its table."""
    state = {"@gsi": {}}
    for name, table in engine.tables.items():
        items = [record.item for record in table.store.scan(None)]
        assert table.item_count == len(items)
        state[name] = {(item["pk"], int(item["sk"])): int(item["v"]) for item in items}
        for index in table.spec.gsis:
            attribute = index.key.hash_name
            assert table.index_stats(index)[0] == sum(attribute in item for item in items), index.name
            if name != "Main":
                state["@gsi"][name] = index.name
    assert replay(engine, "Main") == state["Main"], "Main's stream does not replay to Main's items"
    return state


def replay(engine: Engine, name: str) -> dict:
    """Main's items as its stream's records, replayed from the first, say they are."""
    state, last = {}, 0
    for record in engine.streams.records(engine.tables[name].stream, 0):
        sequence = int(record["dynamodb"]["SequenceNumber"])
        assert sequence > last
        last = sequence
        key = (record["dynamodb"]["Keys"]["pk"], int(record["dynamodb"]["Keys"]["sk"]))
        if record["eventName"] == "REMOVE":
            del state[key]
        else:
            state[key] = int(record["dynamodb"]["NewImage"]["v"])
    return state


# ----------------------------------------------------------------- one round

class Round:
    """One writer process, its output read as it comes (so it never blocks on a full pipe)."""

    def __init__(self, path: Path, number: int):
        self.process = subprocess.Popen([sys.executable, str(WRITER), str(path), str(SEED + number),
                                         str(number)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: list = []
        self.ready = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            if not raw.endswith(b"\n"):
                break  # killed in the middle of a line
            line = raw.decode().strip()
            self.lines.append(line)
            if line == "ready":
                self.ready.set()

    def kill_after(self, rng: random.Random) -> None:
        if rng.random() < 0.15:  # sometimes while it is still opening the database
            time.sleep(rng.uniform(0.0, 0.4))
        else:
            assert self.ready.wait(30), self.process.stderr.read().decode()
            time.sleep(rng.uniform(0.0, 0.4))
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.reader.join(10)
        errors = self.process.stderr.read().decode()
        assert "Traceback" not in errors, errors

    def operations(self) -> tuple[list, list | None]:
        """(acknowledged operations, the one in flight or None)."""
        done, pending = [], None
        for line in self.lines:
            if line.startswith("B "):
                pending = line.split()[1:]
            elif line == "A":
                done.append(pending)
                pending = None
        return done, pending


def integrity(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        db.close()


# ------------------------------------------------------------------ the test

def _writer_setup():
    """The writer's own table set-up (the writer is a script, not an importable module)."""
    spec = importlib.util.spec_from_file_location("kill_writer", WRITER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.setup


def test_acknowledged_writes_survive_sigkill(tmp_path):
    setup = _writer_setup()
    path = tmp_path / "killed.db"
    engine = Engine(storage=SqliteStorage(path))
    setup(engine)
    model = observe(engine)
    engine.storage.close()
    rng = random.Random(SEED)
    acknowledged = in_flight_applied = 0
    for number in range(ROUNDS):
        writer = Round(path, number)
        writer.kill_after(rng)
        done, pending = writer.operations()
        for operation in done:
            apply(model, operation)
        acknowledged += len(done)
        assert integrity(path) == "ok", f"round {number}: integrity check failed"
        engine = Engine(storage=SqliteStorage(path))
        try:
            actual = observe(engine)
        finally:
            engine.storage.close()
        after = None
        if pending is not None:
            after = copy(model)
            apply(after, pending)
        if actual != model:
            assert actual == after, f"round {number}: the file holds neither the acknowledged state " \
                                    f"nor it plus the operation in flight ({pending})"
            in_flight_applied += 1
        model = actual
    print(f"\n{ROUNDS} kill points passed; {acknowledged} acknowledged operations checked; "
          f"in-flight operation found applied in {in_flight_applied} rounds")
