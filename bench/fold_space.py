"""The disk space reopening a file takes when a crash left its write log unfolded (issue 38 point 4).

    python bench/fold_space.py [--items 200000] [--updates 14000]

Two logs, each left by a process killed after its writes: ``new`` (15,000 new
items appended to an empty table) and ``scattered`` (``--updates`` updates
of random items of a ``--items``-item table). For each, the log is folded in
at open twice, on copies: in one transaction (what an open did before) and in
steps (``engine/storage/folding.py``), and the report gives the free space
each needed at its peak: the largest write-ahead log (WAL) plus the file's
growth so far, measured after every transaction (the log itself is on the
disk already). Steps are as large as the disk allows: on a full disk they
are halved, down to 16 rows, so the least free space the stepped fold opens
with is smaller still (2026-11-27, tmpfs bisection by hand: 117 KB for the
scattered log, against 31 MB in one transaction; the new rows' 3.2 MB).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap

MAKE = textwrap.dedent("""
    import json, os, random, sys
    import partiql
    path, kind, items, updates = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    db = partiql.connect(path, throughput="off")
    db.engine.create_table(TableName="Big", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                           AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                           BillingMode="PAY_PER_REQUEST")
    if kind == "scattered":
        with open(path + ".jsonl", "w") as out:
            for i in range(items):
                out.write(json.dumps({"pk": f"key-{i:08d}", "v": "x" * 100}) + "\\n")
        db.import_items("Big", path + ".jsonl")
    db.close()
    db = partiql.connect(path, throughput="off")
    rng = random.Random(1)
    for n in range(updates if kind == "scattered" else 15000):
        key = rng.randrange(items) if kind == "scattered" else n
        db.engine.put_item(TableName="Big", Item={"pk": f"key-{key:08d}", "v": "y" * 100})
    os._exit(0)  # (a crash: the write log stays unfolded)
""")

MEASURE = textwrap.dedent("""
    import json, os, sys
    import partiql
    from partiql.engine.storage import file_format, folding, rows, write_log
    path, how = sys.argv[1], sys.argv[2]
    start, peak = os.path.getsize(path), [0]

    def note():
        wal = os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0
        peak[0] = max(peak[0], wal + os.path.getsize(path) - start)

    if how == "one":  # (the fold as an open made it before: one transaction)
        def whole(db, path_, pending):
            with file_format.transaction(db):
                write_log.fold(db, pending)
            note()
        folding.fold_in_steps = whole
    else:
        written = folding.Seen.step_written
        folding.Seen.step_written = lambda self, step: (written(self, step), note())
    partiql.connect(path).close()
    print(json.dumps({"peak": peak[0], "growth": os.path.getsize(path) - start}))
""")


def _run(code: str, *args) -> str:
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], check=True, capture_output=True,
                          text=True).stdout


def measure(folder: str, kind: str, items: int, updates: int) -> dict:
    base = os.path.join(folder, f"{kind}.db")
    _run(MAKE, base, kind, items, updates)
    out = {"log": os.path.getsize(base + "-writes")}
    for how in ("one", "steps"):
        copy = os.path.join(folder, f"{kind}-{how}.db")
        for suffix in ("", "-writes"):
            shutil.copy(base + suffix, copy + suffix)
        out[how] = json.loads(_run(MEASURE, copy, how))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--updates", type=int, default=14_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("new", "scattered"):
            found = measure(folder, kind, args.items, args.updates)
            mb = lambda n: f"{n / (1 << 20):6.2f} MB"  # noqa: E731
            print(f"{kind:>9}: log {mb(found['log'])}; peak free space needed: one transaction "
                  f"{mb(found['one']['peak'])} ({found['one']['peak'] / found['log']:.2f}x the log), in steps "
                  f"{mb(found['steps']['peak'])} ({found['steps']['peak'] / found['log']:.2f}x); the file grew "
                  f"{mb(found['steps']['growth'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
