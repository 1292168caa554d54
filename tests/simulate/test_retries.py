"""Issue 33 point 6: a pattern's client retries (``retries``) — what the SDKs retry by default (throttles, server
errors), conflicts when asked, full-jitter back-off on the virtual clock, the same parameters again — and the
report counts the retries, who gave up and who was still waiting at the end, with advice."""

from __future__ import annotations

from pathlib import Path

import pytest

from partiql.simulate import WorkloadError, parse, report, simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FAULTY = """duration = 10
seed = 3
tables = ["CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)"]
[realism]
seed = 9
[[realism.fault]]
operation = "ExecuteStatement"
error = "InternalServerError"
share = 0.2
[[pattern]]
name = "put"
statement = "UPDATE Tab SET n = 1 WHERE pk = ?"
params = [{{ uniform = 50, prefix = "k" }}]
rate = 100
{retries}
[[data]]
table = "Tab"
count = 50
item = {{ pk = {{ sequence = "k{{}}", start = 0 }} }}
"""


def _pattern(text: str) -> dict:
    return report(simulate(parse(text)))["patterns"][0]


def test_injected_faults_are_counted_and_the_advice_says_retry():
    found = report(simulate(parse(FAULTY.format(retries=""))))
    put = found["patterns"][0]
    assert put["errors"] == {"InternalServerError": put["failed"]} and 140 <= put["failed"] <= 260
    assert found["realism"]["injected_by_kind"] == {"InternalServerError": put["failed"]}
    assert any(line.startswith("put: InternalServerError × ") and "the SDKs retry these" in line
               for line in found["advice"])


def _whole(pattern: dict) -> None:
    """Every request has one outcome: served, throttled, failed, or still retrying when the run ended."""
    assert pattern["requested"] == (pattern["served"] + pattern["throttled"] + pattern["failed"]
                                    + pattern["unfinished"])


@pytest.mark.parametrize("retries, most_failed", [
    ("", 260),                       # (a 0.2 share of 1,000 requests fails: about 200)
    ("retries = 1", 60),             # (0.2² of them fail twice: about 40)
    ("retries = 3", 8),              # (0.2⁴: about 2)
    ('retries = { attempts = 3, on = ["conflict"] }', 260),  # (server errors are not retried when not named)
])
def test_retries_ride_out_injected_server_errors_as_the_chances_say(retries, most_failed):
    pattern = _pattern(FAULTY.format(retries=retries))
    _whole(pattern)
    assert pattern["failed"] == pattern["errors"].get("InternalServerError", 0) <= most_failed
    assert pattern["gave_up"] == (pattern["failed"] if retries.startswith("retries = ") and "conflict" not in retries
                                  else 0)
    if "attempts" not in retries and retries:
        assert pattern["retried"] >= 150  # (each of the ~200 first failures retried, some twice)
    again = _pattern(FAULTY.format(retries=retries))
    assert (again["failed"], again["retried"]) == (pattern["failed"], pattern["retried"])  # (the same seed)


def test_retries_turn_a_short_spike_s_throttles_into_served_requests():
    spike = """duration = 6
tables = ["CREATE TABLE Tab PRIMARY KEY (pk STRING HASH) BILLING MODE PROVISIONED (5 RCU, 100 WCU)"]
[[pattern]]
name = "write"
statement = "INSERT INTO Tab VALUE {{'pk': ?}}"
params = [{{ sequence = "k{{}}" }}]
rate = {{ base = 20, spike = 2000, every = 60, for = 1, at = 1 }}
{retries}
"""
    plain = _pattern(spike.format(retries=""))
    patient = _pattern(spike.format(retries="retries = { attempts = 8, base = 0.1 }"))
    for pattern in (plain, patient):
        _whole(pattern)
    assert plain["throttled"] > 0 and plain["retried"] == 0
    assert patient["served"] > plain["served"] and patient["throttled"] < plain["throttled"]
    assert patient["retried"] > 0 and patient["gave_up"] == patient["throttled"]


def test_a_hot_transaction_s_retries_add_load_and_the_report_says_so():
    text = (EXAMPLES / "hot-transaction.toml").read_text() + 'retries = { attempts = 5, base = 0.02, on = ["conflict"] }\n'
    found = report(simulate(parse(text)))
    sale = found["patterns"][0]
    _whole(sale)
    assert sale["served"] > 600 - 50 and sale["retried"] > sale["requested"]  # (the item serves ~33 a second)
    assert sale["gave_up"] == sale["failed"] > 0
    assert f"Clients sent {sale['retried']:,} retries." in found["verdict"]
    assert any("retries add load, not capacity" in line for line in found["advice"])


@pytest.mark.parametrize("retries, words", [
    ("retries = -1", "retries takes a whole number of retries from 0 to 10, not -1"),
    ("retries = 11", "retries takes a whole number of retries from 0 to 10, not 11"),
    ('retries = { attempts = 2, on = ["timeout"] }', "retries.on takes a list of throttle, server, conflict"),
    ("retries = { attempts = 2, base = 0 }", "retries.base takes seconds above 0, at most 60, not 0"),
    ("retries = { tries = 2 }", "retries: unknown tries (it takes attempts, base, cap and on)"),
])
def test_a_retries_setting_that_cannot_be_is_named_with_its_place(retries, words):
    with pytest.raises(WorkloadError) as refused:
        parse(FAULTY.format(retries=retries), "w.toml")
    assert "w.toml: pattern[0]." in str(refused.value) and words in str(refused.value)
