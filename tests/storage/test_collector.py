"""A bulk load pauses the cyclic collector and hands what it made to the oldest generation
(engine/storage/base.py ``collector_paused``), leaving the collector as it found it."""

from __future__ import annotations

import gc

import pytest

from partiql.engine.storage import collector_paused


class Made:
    """A container the collector tracks, as a loaded record is."""


def _generation(obj) -> int | None:
    return next((n for n in range(3) if any(o is obj for o in gc.get_objects(generation=n))), None)


@pytest.fixture
def collector():
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    (gc.enable if was_enabled else gc.disable)()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_load_pauses_the_collector_and_restores_it(collector, enabled):
    (gc.enable if enabled else gc.disable)()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled() is enabled


def test_what_a_load_made_goes_to_the_oldest_generation(collector):
    with collector_paused():
        made = Made()
        assert _generation(made) == 0
    assert _generation(made) == 2 and gc.get_freeze_count() == 0


def test_a_load_thaws_nothing_the_process_froze(collector):
    frozen = Made()
    gc.freeze()
    count = gc.get_freeze_count()
    with collector_paused():
        made = Made()
    assert gc.get_freeze_count() == count and _generation(frozen) is None  # (still frozen)
    assert _generation(made) == 0  # (left to the collector's own course)


def test_a_load_that_fails_still_restores_the_collector(collector):
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("bad row")
    assert gc.isenabled() and gc.get_freeze_count() == 0
