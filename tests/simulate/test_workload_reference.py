"""examples/WORKLOADS.md, the workload file reference (issue 38 point 3): every ```toml block of it runs as it
stands, and every generator and rate the code knows is shown in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from partiql.simulate import compare, parse, simulate
from partiql.simulate.runner import FAILED, SERVED
from partiql.simulate.generators import KINDS
from partiql.simulate.workload import TOP_LEVEL

PAGE = Path(__file__).parents[2] / "examples" / "WORKLOADS.md"
BLOCKS = re.findall(r"```toml\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_every_example_of_the_reference_runs(number):
    workload = parse(BLOCKS[number], f"WORKLOADS.md example {number + 1}")
    outcomes = compare(workload, workload.designs) if workload.designs else [simulate(workload)]
    for outcome in outcomes:
        assert not outcome.interrupted
        realism = outcome.db.engine.realism  # (what realism injects fails as it says: nothing else may)
        injected = set(realism.kinds) if realism is not None else set()
        for pattern in outcome.patterns:
            assert pattern.total(SERVED) > 0, (number, pattern.name)
            assert set(pattern.errors) <= injected, (number, pattern.name, pattern.errors)


def test_the_reference_shows_every_generator_rate_and_setting():
    text = PAGE.read_text(encoding="utf-8")
    assert all(f"{kind} =" in text for kind in KINDS if kind != "constant") and "{ constant =" in text
    assert all(word in text for word in ("ramp =", "spike =", "every =", "for ="))
    assert all(f"`{key}`" in text or f"`[[{key}]]`" in text or f"`[{key}]`" in text for key in TOP_LEVEL)
