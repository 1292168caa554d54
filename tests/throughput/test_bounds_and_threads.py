"""The model under threads started together, and its memory bounds (spec throughput.md §6)."""

from __future__ import annotations

import threading

import pytest

from partiql.engine.errors import THROTTLES
from partiql.engine.throughput.figures import (METRICS_SECONDS, SAMPLE_ABOVE, TOP_KEYS_KEPT, TOP_KEYS_LIMIT,
                                               TOP_KEYS_MINUTES)
from partiql.engine.throughput.metrics import KeyCounts

from .workload import create, drive, engine_on, put


def test_threads_writing_one_key_at_once_are_served_exactly_the_partition_ceiling():
    engine, clock = engine_on()
    create(engine, "Votes")
    threads, served, refused = 8, [], []
    start = threading.Barrier(threads)

    def writer(number: int):
        start.wait()
        for i in range(250):  # 2,000 writes in one instant of the clock
            try:
                engine.write(put("Votes", "CandidateA", n=f"{number}-{i}"))
                served.append(1)
            except THROTTLES:
                refused.append(1)

    workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert (len(served), len(refused)) == (1000, 1000)
    metrics = engine.throughput.metrics("Votes", last=1)
    assert metrics.consumed == [(0.0, 1000.0)] and metrics.throttled == [(0, 1000)]


def test_key_counts_stay_bounded_whatever_the_number_of_keys():
    counts = KeyCounts()
    for minute in range(TOP_KEYS_MINUTES + 5):
        counts.roll(minute)
        for i in range(TOP_KEYS_LIMIT * 3):
            for by in (0, 1):
                counts.add(by, (i, f"k{minute}-{i}", (f"s{i}",)), 1.0 + (i % 7))
    # per kind (consumed, throttled): the open list and its spilled partition keys, and the kept best of
    # each closed minute's two lists (partition keys, items)
    assert counts.size() <= 4 * TOP_KEYS_LIMIT + TOP_KEYS_MINUTES * 4 * TOP_KEYS_KEPT
    assert len(counts.closed) == TOP_KEYS_MINUTES


def test_a_partition_key_read_through_many_light_items_keeps_its_total():
    counts = KeyCounts()
    counts.roll(0)
    for i in range(TOP_KEYS_LIMIT * 3):  # far more items than an open list holds
        counts.add(0, (7, "hot", (i,)), 1.0)
        counts.add(0, (i + 100, f"cold{i}", None), 0.5)
    counts.add(0, (9, "warm", (1,)), 50.0)
    top = counts.top(0, False, 0, 3)
    # past SAMPLE_ABOVE keys light new keys are sampled: "hot" is estimated, "warm" (one 50-unit request) exact
    assert top[0][0] == "hot" and abs(top[0][1] - TOP_KEYS_LIMIT * 3) <= 0.05 * TOP_KEYS_LIMIT * 3
    assert top[1] == ("warm", 50.0)
    assert counts.top(0, True, 0, 1) == [(("warm", 1), 50.0)]  # items: (partition key, sort key)
    assert abs(counts.total(0, 0) - (TOP_KEYS_LIMIT * 3 * 1.5 + 50)) <= 0.05 * TOP_KEYS_LIMIT * 3 * 1.5
    counts.roll(1)  # a closed minute keeps both lists
    assert counts.top(0, False, 0, 1) == [top[0]]
    assert counts.top(0, True, 0, 1) == [(("warm", 1), 50.0)]


def test_below_the_sampling_threshold_every_key_is_counted_exactly():
    counts = KeyCounts()
    counts.roll(0)
    for i in range(SAMPLE_ABOVE):
        counts.add(0, (i, f"k{i}", None), 1.0)
        counts.add(0, (i, f"k{i}", None), 0.5)
    assert counts.total(0, 0) == SAMPLE_ABOVE * 1.5
    assert all(value == 1.5 for _, value in counts.top(0, False, 0, SAMPLE_ABOVE))


def test_sampling_is_deterministic():
    def run():
        counts = KeyCounts()
        counts.roll(0)
        for i in range(TOP_KEYS_LIMIT * 2):
            counts.add(0, (i, f"k{i}", None), 1.0)
        return counts.top(0, False, 0, 50), counts.total(0, 0)
    assert run() == run()


def test_the_history_keeps_the_last_hour():
    engine, clock = engine_on()
    create(engine, "Votes", 5000, 5000)
    drive(engine, clock, 1, METRICS_SECONDS + 100, lambda n: put("Votes", f"k{n}"))
    resource = engine.throughput.state(engine.table("Votes")).table_resource
    assert len(resource.history) == METRICS_SECONDS
    assert resource.history[0].second > resource.history[-1].second - METRICS_SECONDS


def _sampling_after(seconds: list[int], gap: float = 0.0) -> bool:
    """Drive one second per entry (that many 1 WCU writes, on 50 keys), wait ``gap`` more seconds,
    write once more: whether the table's key counts then sample."""
    engine, clock = engine_on()
    create(engine, "Votes", 10_000, 10_000)
    clock.set(10_020.0)  # the start of a minute
    for per_second in seconds:
        drive(engine, clock, per_second, 1, lambda n: put("Votes", f"k{n % 50}"))
    clock.advance(gap)
    engine.write(put("Votes", "k0"))
    return engine.throughput.state(engine.table("Votes")).table_resource.keys.sampling


SAMPLING_CASES = [  # (seconds' writes, gap, sampling after): figures.SAMPLE_ABOVE_UNITS is 1,000 units
    ([1_001], 0.0, True),          # a busy second, the next follows it
    ([1_000], 0.0, False),         # at the threshold: counted exactly
    ([200, 1_500, 200], 0.0, True),  # sticky for the rest of the minute
    ([1_500], 2.0, False),         # a busy second, then a gap: the next request is not busy traffic
]


@pytest.mark.parametrize("seconds, gap, sampling", SAMPLING_CASES)
def test_a_busy_second_turns_the_minutes_key_counts_to_sampling(seconds, gap, sampling):
    assert _sampling_after(seconds, gap) is sampling


def test_a_new_minute_counts_exactly_again_after_a_quiet_second():
    engine, clock = engine_on()
    create(engine, "Votes", 10_000, 10_000)
    clock.set(10_020.0 + 57)
    drive(engine, clock, 1_500, 1, lambda n: put("Votes", f"k{n % 50}"))  # second 57: busy
    drive(engine, clock, 10, 1, lambda n: put("Votes", "quiet"))            # 58: sampled, quiet
    drive(engine, clock, 10, 1, lambda n: put("Votes", "quiet"))            # 59
    engine.write(put("Votes", "next"))                                      # a new minute
    keys = engine.throughput.state(engine.table("Votes")).table_resource.keys
    assert keys.sampling is False
    assert keys.counts[0] == {next(iter(keys.counts[0])): 1.0}
