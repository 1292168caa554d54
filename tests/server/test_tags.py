"""TagResource / UntagResource / ListTagsOfResource (item-api §5.17), DescribeLimits, DescribeContinuousBackups."""

from __future__ import annotations

import pytest

from partiql.engine import Engine
from partiql.engine.errors import DynamoDBError

ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/Tab"
TAG = [{"Key": "k", "Value": "v"}]


@pytest.fixture
def engine():
    engine = Engine()
    engine.create_table(TableName="Tab", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        BillingMode="PAY_PER_REQUEST")
    return engine


def test_tags_are_set_replaced_and_removed(engine):
    assert engine.list_tags_of_resource(ResourceArn=ARN) == {"Tags": []}
    assert engine.tag_resource(ResourceArn=ARN, Tags=[{"Key": "a", "Value": "1"}, {"Key": "b", "Value": "2"}]) is None
    engine.tag_resource(ResourceArn=ARN, Tags=[{"Key": "a", "Value": "3"}])
    assert engine.list_tags_of_resource(ResourceArn=ARN)["Tags"] == [{"Key": "a", "Value": "3"}, {"Key": "b", "Value": "2"}]
    assert engine.untag_resource(ResourceArn=ARN, TagKeys=["a", "missing"]) is None
    assert engine.list_tags_of_resource(ResourceArn=ARN)["Tags"] == [{"Key": "b", "Value": "2"}]


def test_fifty_tags_and_no_more(engine):
    engine.tag_resource(ResourceArn=ARN, Tags=[{"Key": f"k{i}", "Value": ""} for i in range(50)])
    engine.tag_resource(ResourceArn=ARN, Tags=[{"Key": "k0", "Value": "replaced"}])  # a replacement adds none
    with pytest.raises(DynamoDBError) as error:
        engine.tag_resource(ResourceArn=ARN, Tags=[{"Key": "one-more", "Value": ""}])
    assert (error.value.code, error.value.message) == (
        "ValidationException", "One or more parameter values were invalid: The number of tags on a resource "
                               "cannot exceed 50")
    assert len(engine.list_tags_of_resource(ResourceArn=ARN)["Tags"]) == 50


@pytest.mark.parametrize("operation, request_, code, message", [
    ("TagResource", {"Tags": TAG}, "ValidationException", "Invalid TableArn"),
    ("TagResource", {"ResourceArn": ARN}, "ValidationException",
     "1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must not be null"),
    ("TagResource", {"ResourceArn": ARN, "Tags": []}, "ValidationException",
     "Atleast one Tag needs to be provided as Input."),
    ("UntagResource", {"ResourceArn": ARN, "TagKeys": []}, "ValidationException",
     "Atleast one Tag Key needs to be provided as Input."),
    ("TagResource", {"ResourceArn": ARN, "Tags": [{"Key": "k" * 129, "Value": "v"}]}, "ValidationException",
     f"1 validation error detected: Value '{'k' * 129}' at 'tags.1.member.key' failed to satisfy constraint: "
     "Member must have length less than or equal to 128"),
    ("TagResource", {"ResourceArn": ARN, "Tags": [{"Key": "k", "Value": "v" * 257}]}, "ValidationException",
     f"1 validation error detected: Value '{'v' * 257}' at 'tags.1.member.value' failed to satisfy constraint: "
     "Member must have length less than or equal to 256"),
    ("TagResource", {"ResourceArn": ARN, "Tags": [{"Key": "aws:x", "Value": "v"}]}, "ValidationException",
     "One or more parameter values were invalid: Tag keys starting with the prefix 'aws:' are reserved for "
     "system use"),
    ("TagResource", {"ResourceArn": "not-an-arn", "Tags": TAG}, "ValidationException",
     "Invalid TableArn: Invalid ResourceArn provided as input not-an-arn"),
    ("ListTagsOfResource", {"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:stream/Tab"},
     "ValidationException", "Invalid TableArn: Invalid ResourceArn provided as input "
                            "arn:aws:dynamodb:us-east-1:123456789012:stream/Tab"),
    ("TagResource", {"ResourceArn": "arn:aws:dynamodb:us-east-1:999999999999:table/Tab", "Tags": TAG},
     "AccessDeniedException", "User: arn:aws:iam::123456789012:root is not authorized to perform: "
                              "dynamodb:TagResource on resource: arn:aws:dynamodb:us-east-1:999999999999:table/Tab"),
    ("UntagResource", {"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Nope", "TagKeys": ["k"]},
     "ResourceNotFoundException",
     "Requested resource not found: ResourcArn: arn:aws:dynamodb:us-east-1:123456789012:table/Nope not found"),
], ids=["no-arn", "no-tags", "empty-tags", "empty-keys", "long-key", "long-value", "aws-prefix", "malformed-arn",
        "not-a-table", "other-account", "missing-table"])
def test_tag_errors(engine, operation, request_, code, message):
    with pytest.raises(DynamoDBError) as error:
        engine.call(operation, request_)
    assert (error.value.code, error.value.message) == (code, message)
    assert engine.list_tags_of_resource(ResourceArn=ARN) == {"Tags": []}  # nothing half-applied


def test_delete_table_drops_its_tags(engine):
    engine.tag_resource(ResourceArn=ARN, Tags=TAG)
    engine.delete_table(TableName="Tab")
    engine.create_table(TableName="Tab", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                        BillingMode="PAY_PER_REQUEST")
    assert engine.list_tags_of_resource(ResourceArn=ARN) == {"Tags": []}


def test_describe_limits(engine):
    assert engine.describe_limits() == {"AccountMaxReadCapacityUnits": 80000, "AccountMaxWriteCapacityUnits": 80000,
                                        "TableMaxReadCapacityUnits": 40000, "TableMaxWriteCapacityUnits": 40000}


def test_describe_continuous_backups(engine):
    assert engine.describe_continuous_backups(TableName="Tab") == {"ContinuousBackupsDescription": {
        "ContinuousBackupsStatus": "ENABLED",
        "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}}
    with pytest.raises(DynamoDBError) as error:
        engine.describe_continuous_backups(TableName="Nope")
    assert (error.value.code, error.value.message) == ("TableNotFoundException", "Table not found: Nope")


@pytest.mark.parametrize("update", [
    {"DeletionProtectionEnabled": True},
    {"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}},
    {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}},
])
def test_update_table_keeps_tags_and_time_to_live(engine, update):
    engine.tag_resource(ResourceArn=ARN, Tags=TAG)
    engine.update_time_to_live(TableName="Tab", TimeToLiveSpecification={"Enabled": True, "AttributeName": "exp"})
    engine.update_table(TableName="Tab", **update)
    assert engine.list_tags_of_resource(ResourceArn=ARN)["Tags"] == TAG
    assert engine.describe_time_to_live(TableName="Tab")["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}
