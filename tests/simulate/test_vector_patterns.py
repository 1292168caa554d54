"""SearchVectors patterns (issue 36): a workload searches a vector index; the report counts the bytes each
search examined, as the spec's search meter has it (vector-search.md §6.4 rule 3, model), checked here against
the seed items themselves."""

from __future__ import annotations

import pytest

from partiql.simulate import WorkloadError, parse, report, simulate
from partiql.simulate.wording import cost_lines

DOCS = """duration = 3
tables = ['''CREATE TABLE Docs PRIMARY KEY (id STRING HASH) BILLING MODE ON DEMAND
             VECTOR INDEX (ByText ON embedding DIMENSIONS 8 COSINE {schema} PROJECTING KEYS ONLY)''']

[[data]]
table = "Docs"
count = {count}
item = {{ id = {{ sequence = "doc#{{}}" }}, lang = {{ uniform = ["en", "fr"] }}, embedding = {{ vector = 8 }} }}

[[pattern]]
name = "similar"
operation = "SearchVectors"
request = {{ TableName = "Docs", IndexName = "ByText", SearchVector = "?", TopK = 5 {condition} }}
params = [{{ vector = 8 }}{more}]
rate = 20
"""


def _run(count: int, hashed: bool = False):
    text = DOCS.format(count=count, schema="HASH lang STRING" if hashed else "",
                       condition=', SearchConditionExpression = "lang = :l", ExpressionAttributeValues = '
                                 '{ ":l" = "?" }' if hashed else "",
                       more=', { constant = "en" }' if hashed else "")
    outcome = simulate(parse(text))
    return outcome, report(outcome)["patterns"][0]


def _entry(n: int) -> int:
    """An entry's bytes: the key, and the vector as its name and 4 bytes a dimension (KEYS_ONLY)."""
    return len("id") + len(f"doc#{n}") + len("embedding") + 4 * 8


@pytest.mark.parametrize("count", [10, 400])
def test_each_search_examines_every_entry(count):
    outcome, pattern = _run(count)
    assert pattern["served"] == pattern["requested"] == 60 and pattern["failed"] == 0
    per_search = max(1024, sum(_entry(n) for n in range(count)))
    assert pattern["vector_search_bytes"] == per_search * 60


def test_a_hash_value_confines_what_a_search_examines():
    outcome, pattern = _run(400, hashed=True)
    table = outcome.db.engine.table("Docs")
    english = [n for n in range(400)
               if table.get(f"doc#{n}").item["lang"] == "en"]
    held_lang = len("lang") + len("en")  # (KEYS_ONLY holds the SearchSchema attributes too: §5.4 rule 9)
    assert pattern["vector_search_bytes"] == max(1024, sum(_entry(n) + held_lang for n in english)) * 60


def test_a_pattern_naming_no_vector_index_stops_the_run():
    text = DOCS.format(count=1, schema="", condition="", more="").replace('IndexName = "ByText"',
                                                                           'IndexName = "ByTxt"')
    with pytest.raises(WorkloadError, match="Docs has no index ByTxt .did you mean ByText.."):
        simulate(parse(text))


def test_the_month_prices_what_the_searches_examined():
    """vector-search.md §6.5: $0.002 a GB searched, $0.52 a GB written, $0.25 a GB-month stored (us-east-1),
    added to every mode's month."""
    from partiql.simulate.prices import GB

    outcome, _ = _run(400)
    found = report(outcome)
    (row,) = found["cost"]["vectors"]["indexes"]
    k = found["cost"]["repeat"]
    searched = found["patterns"][0]["vector_search_bytes"]
    assert row["gb"]["search"] == pytest.approx(searched * k / GB, rel=1e-5)
    assert row["dollars"]["search"] == round(searched * k / GB * 0.002, 2) and row["gb"]["write"] == 0
    stored = outcome.db.engine.table("Docs").vectors.index("ByText").bytes
    assert row["gb"]["storage"] == pytest.approx(stored / GB, abs=1e-6)
    assert found["cost"]["vectors"]["total"] == row["total"] > 0
    assert f"vector indexes ${row['total']:,.2f}" in "\n".join(cost_lines(found))
