"""Contributor Insights' operations over the wire (issue #15 point 3), driven with boto3."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

import partiql

from .conftest import HASH_RANGE

KEYS = {"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "g", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                    "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        "BillingMode": "PAY_PER_REQUEST"}


@pytest.fixture(scope="module")
def tables(client):
    client.create_table(TableName="Insight", **KEYS)
    client.create_table(TableName="Ranged", **HASH_RANGE)
    return client


def test_enable_describe_disable(tables):
    client = tables
    assert client.describe_contributor_insights(TableName="Insight")["ContributorInsightsStatus"] == "DISABLED"
    answer = client.update_contributor_insights(TableName="Insight", ContributorInsightsAction="ENABLE")
    assert (answer["ContributorInsightsStatus"], answer["ContributorInsightsMode"]) == \
        ("ENABLING", "ACCESSED_AND_THROTTLED_KEYS")
    described = client.describe_contributor_insights(TableName="Insight")
    assert described["ContributorInsightsStatus"] == "ENABLED"
    assert [rule.rsplit("-", 1)[0] for rule in described["ContributorInsightsRuleList"]] == [
        "DynamoDBContributorInsights-PKC-Insight", "DynamoDBContributorInsights-PKT-Insight"]
    assert described["LastUpdateDateTime"].year >= 2024  # a timestamp, as botocore parses it
    client.update_contributor_insights(TableName="Insight", ContributorInsightsAction="DISABLE")
    assert client.describe_contributor_insights(TableName="Insight")["ContributorInsightsStatus"] == "DISABLED"


def test_an_index_and_a_sort_key_and_throttled_keys_only(tables):
    client = tables
    client.update_contributor_insights(TableName="Insight", IndexName="ByG", ContributorInsightsAction="ENABLE",
                                       ContributorInsightsMode="THROTTLED_KEYS")
    rules = client.describe_contributor_insights(TableName="Insight", IndexName="ByG")["ContributorInsightsRuleList"]
    assert [rule.rsplit("-", 1)[0] for rule in rules] == ["DynamoDBContributorInsights-PKT-Insight-ByG"]
    client.update_contributor_insights(TableName="Ranged", ContributorInsightsAction="ENABLE")
    rules = client.describe_contributor_insights(TableName="Ranged")["ContributorInsightsRuleList"]
    assert [rule.split("-")[1] for rule in rules] == ["PKC", "PKT", "SKC", "SKT"]
    listed = client.list_contributor_insights()["ContributorInsightsSummaries"]
    assert {(s["TableName"], s.get("IndexName"), s["ContributorInsightsMode"]) for s in listed} >= {
        ("Insight", "ByG", "THROTTLED_KEYS"), ("Ranged", None, "ACCESSED_AND_THROTTLED_KEYS")}
    first = client.list_contributor_insights(MaxResults=1)
    assert len(first["ContributorInsightsSummaries"]) == 1
    rest = client.list_contributor_insights(MaxResults=100, NextToken=first["NextToken"])
    assert first["ContributorInsightsSummaries"] + rest["ContributorInsightsSummaries"] == listed
    assert client.list_contributor_insights(TableName="Ranged")["ContributorInsightsSummaries"] == [
        {"TableName": "Ranged", "ContributorInsightsStatus": "ENABLED",
         "ContributorInsightsMode": "ACCESSED_AND_THROTTLED_KEYS"}]


@pytest.mark.parametrize("call, code, message", [
    (lambda c: c.describe_contributor_insights(TableName="Nope"), "ResourceNotFoundException",
     "Requested resource not found: Table: Nope not found"),
    (lambda c: c.update_contributor_insights(TableName="Insight", IndexName="NoIndex",
                                             ContributorInsightsAction="ENABLE"),
     "ResourceNotFoundException", "Requested resource not found: Index: NoIndex not found"),
    (lambda c: c.update_contributor_insights(TableName="Insight", ContributorInsightsAction="DISABLE",
                                             ContributorInsightsMode="THROTTLED_KEYS"),
     "ValidationException", "One or more parameter values were invalid: ContributorInsightsMode can only be set "
                            "when enabling"),
    (lambda c: c.list_contributor_insights(NextToken="zz"), "ValidationException", "Invalid NextToken"),
])
def test_errors(tables, call, code, message):
    with pytest.raises(ClientError) as caught:
        call(tables)
    assert (caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]) == (code, message)


def test_a_bad_action_is_an_envelope_violation():
    client = partiql.client(partiql.connect())
    with pytest.raises(client.exceptions.ClientError) as caught:
        client.update_contributor_insights(TableName="Insight", ContributorInsightsAction="ON")
    assert caught.value.response["Error"]["Message"] == (
        "1 validation error detected: Value 'ON' at 'contributorInsightsAction' failed to satisfy constraint: "
        "Member must satisfy enum value set: [ENABLE, DISABLE]")


def test_the_settings_are_stored_in_the_database_file(tmp_path):
    path = tmp_path / "insights.db"
    with partiql.connect(path) as db:
        client = partiql.client(db)
        client.create_table(TableName="Insight", **KEYS)
        client.update_contributor_insights(TableName="Insight", ContributorInsightsAction="ENABLE",
                                           ContributorInsightsMode="THROTTLED_KEYS")
    with partiql.connect(path) as db:
        described = partiql.client(db).describe_contributor_insights(TableName="Insight")
    assert (described["ContributorInsightsStatus"], described["ContributorInsightsMode"]) == \
        ("ENABLED", "THROTTLED_KEYS")
