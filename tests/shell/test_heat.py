""".heat TABLE [INDEX]: the partitions against time, top keys and advice (issue #15 point 3)."""

from __future__ import annotations

from ..throughput.test_metrics import hot  # noqa: F401 - the fixture: Votes with a throttled hot key


def test_heat_draws_the_partitions_top_keys_and_advice(hot, make_session):
    session, streams = make_session(hot)
    assert session.run_script(".heat Votes")
    text = streams.out.getvalue()
    assert text.startswith("Votes: 1 partition, the last 40 s")
    # 29 quiet seconds, 5 at 30 % of the ceiling, 5 throttled, and the second now opening
    items = hot.engine.table("Votes").item_count
    assert text.splitlines()[2] == f"    1  0%-100%      {items:>9,}  |" + " " * 29 + "▃" * 5 + "!" * 5 + " |"
    assert "top keys by throttle events: 'CandidateA'" in text
    assert "advice: key 'CandidateA' asks about" in text
    assert session.run_script(".heat") is False
    assert session.run_script(".heat Votes NoSuchIndex") is False
    assert "Votes has no global secondary index 'NoSuchIndex'" in streams.err.getvalue()
