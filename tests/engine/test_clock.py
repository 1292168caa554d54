"""The engine's clock: a VirtualClock moves only when told, and epoch time follows it."""

from __future__ import annotations

import math

import pytest

from partiql.engine import Engine
from partiql.engine.clock import Epoch, VirtualClock, resolve_clock


def test_virtual_clock_moves_only_when_told():
    clock = VirtualClock(10)
    assert clock() == clock.now() == 10.0
    assert clock.advance(0.5) == 10.5
    clock.set(12)
    assert clock() == 12.0


@pytest.mark.parametrize("call, message", [
    (lambda c: c.advance(-1), "cannot go back"),
    (lambda c: c.set(0), "cannot go back"),
    (lambda c: c.advance("1"), "seconds as a number"),
    (lambda c: c.advance(True), "seconds as a number"),
    (lambda c: c.advance(math.nan), "finite"),
    (lambda c: c.set(math.inf), "finite"),
])
def test_virtual_clock_refuses(call, message):
    clock = VirtualClock(5)
    with pytest.raises(ValueError, match=message):
        call(clock)
    assert clock() == 5.0


def test_resolve_clock():
    clock = VirtualClock()
    assert resolve_clock(clock) is clock
    assert callable(resolve_clock(None))
    with pytest.raises(ValueError, match="callable"):
        resolve_clock(3)


def test_epoch_follows_the_clock_from_its_anchor():
    clock = VirtualClock(100)
    epoch = Epoch(clock, wall=1_700_000_000)
    assert epoch() == 1_700_000_000
    clock.advance(86_400)
    assert epoch() == 1_700_086_400


def test_engine_runs_on_the_clock_it_was_given():
    clock = VirtualClock()
    engine = Engine(clock=clock)
    start = engine.epoch()
    clock.advance(3600)
    assert engine.clock is clock
    assert engine.epoch() - start == 3600
