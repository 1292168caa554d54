"""Long fuzz runs outside CI: generated and mutated statements, library and wire requests, 0 internal errors expected.

    python bench/fuzz.py [--statements 100000] [--library 40000] [--wire 40000] [--model 0] [--seed 1]

Uses the generators of ``tests/fuzzing.py`` (the property tests run the same
ones with small example counts). Statements run through the library alone
and, one in ten, as a batch or a transaction; library requests through the
``Engine`` methods with Python values (and Python-only junk: names that are
not str, sets, objects…); wire requests through the HTTP handler. Prints
the outcomes by kind, then every distinct internal error with one
reproducer; the exit status is 1 if there was any. ``--model N`` also runs
the reference-model tests (``tests/engine/test_read_model.py``,
``test_query_model.py``, ``test_multi_attribute_model.py``) with N examples each, on hypothesis seed ``--seed``:
a model mismatch fails them, and the exit status.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import sys
import time
import traceback

import _support  # noqa: F401 - keeps bench/ off sys.path (must precede the partiql import)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the tests package

import partiql  # noqa: E402
from partiql.engine import OPERATIONS  # noqa: E402
from partiql.engine.requests.wire import wire_call  # noqa: E402
from partiql.server.handler import Handler  # noqa: E402
from tests import fuzzing  # noqa: E402

HEADERS = {"content-type": "application/x-amz-json-1.0"}


def fresh_database():
    db = partiql.connect()
    wire_call(db.engine, "CreateTable", json.loads(json.dumps(fuzzing.CREATE_TABLE)))
    return db


def _statement_case(n: int, rng: random.Random, db):
    """(kind, case, run) for the n-th case: nine in ten a statement alone, the rest a batch or a transaction."""
    if n % 20 == 10:
        cases = fuzzing.transaction(rng)
        return "transaction", cases, lambda: db.execute_transaction(cases)
    if n % 20 == 0:
        cases = fuzzing.transaction(rng)
        return "batch", cases, lambda: db.execute_batch(cases)
    text, params = fuzzing.statement(rng)
    return "statement", (text, params), lambda: db.execute(text, params)


def run_statements(count: int, rng: random.Random, outcomes, internal) -> None:
    db = fresh_database()
    for n in range(count):
        if n % 20_000 == 0 and n:
            db.close()
            db = fresh_database()  # why: keep the table small, so every statement stays cheap
        kind, case, run = _statement_case(n, rng, db)
        try:
            outcomes[f"{kind} {fuzzing.outcome(run)}"] += 1
        except Exception as error:  # noqa: BLE001 - the point: every other exception is a finding
            outcomes[f"{kind} INTERNAL"] += 1
            internal.setdefault(f"{type(error).__name__}: {str(error)[:80]}",
                                (repr(case)[:400], traceback.format_exc(limit=-4)))
    db.close()


def run_library(count: int, rng: random.Random, outcomes, internal) -> None:
    db = fresh_database()
    for _ in range(count):
        operation, request = fuzzing.python_request(rng, OPERATIONS)
        method = getattr(db.engine, re.sub(r"(?<!^)(?=[A-Z])", "_", operation).lower())
        try:
            outcomes[f"library {fuzzing.outcome(lambda: method(**request))}"] += 1
        except Exception as error:  # noqa: BLE001 - the point: every other exception is a finding
            outcomes["library INTERNAL"] += 1
            internal.setdefault(f"{type(error).__name__}: {str(error)[:80]}",
                                (f"{operation} {request!r}"[:400], traceback.format_exc(limit=-4)))
    db.close()


def wire_outcome(status: int, out: bytes) -> str | None:
    """'200', '400 <error type>', or None when the answer is one DynamoDB never gives."""
    try:
        answer = json.loads(out)
    except ValueError:
        return None
    if status == 200 and isinstance(answer, dict):
        return "200"
    if status == 400 and isinstance(answer, dict) and "__type" in answer:
        return "400 " + answer["__type"].rpartition("#")[2]
    return None


def run_wire(count: int, rng: random.Random, outcomes, internal) -> None:
    db = fresh_database()
    handler = Handler(db, address="localhost:1")
    for _ in range(count):
        operation, body = fuzzing.wire_request(rng)
        status, _, out = handler.handle("DynamoDB_20120810." + operation, HEADERS, body)
        kind = wire_outcome(status, out)
        outcomes[f"wire {kind or 'INTERNAL'}"] += 1
        if kind is None:
            internal.setdefault(f"HTTP {status} for {operation}", (body[:400], out[:300]))
    db.close()


MODEL_TESTS = ("test_read_model.py", "test_query_model.py", "test_multi_attribute_model.py")


def run_model(examples: int, seed: int) -> int:
    """The reference-model tests with ``examples`` examples each; the number that failed."""
    import pytest
    os.environ["PARTIQL_MODEL_EXAMPLES"] = str(examples)
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "engine")
    started = time.perf_counter()
    code = pytest.main(["-q", "-p", "no:cacheprovider", f"--hypothesis-seed={seed}",
                        *(os.path.join(tests, name) for name in MODEL_TESTS)])
    print(f"model: {examples:,} examples a test, seed {seed}, in {time.perf_counter() - started:.1f} s: "
          f"{'no mismatch' if code == 0 else 'MISMATCHES (above)'}")
    return 0 if code == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=100_000)
    parser.add_argument("--library", type=int, default=40_000)
    parser.add_argument("--wire", type=int, default=40_000)
    parser.add_argument("--model", type=int, default=0, help="examples per reference-model test (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    mismatches = run_model(args.model, args.seed) if args.model else 0
    rng = random.Random(args.seed)
    outcomes, internal = collections.Counter(), {}
    started = time.perf_counter()
    run_statements(args.statements, rng, outcomes, internal)
    middle = time.perf_counter()
    run_library(args.library, rng, outcomes, internal)
    library = time.perf_counter()
    run_wire(args.wire, rng, outcomes, internal)
    ended = time.perf_counter()
    print(f"seed {args.seed}: {args.statements:,} statements in {middle - started:.1f} s, "
          f"{args.library:,} library requests in {library - middle:.1f} s, "
          f"{args.wire:,} wire requests in {ended - library:.1f} s")
    for kind, number in sorted(outcomes.items()):
        print(f"  {kind:<45} {number:>9,}")
    print(f"internal errors: {sum(v for k, v in outcomes.items() if 'INTERNAL' in k)}, {len(internal)} distinct")
    for kind, (case, detail) in internal.items():
        print(f"\n{kind}\n  case: {case}\n  {detail}")
    return 1 if internal or mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
