"""The AWS CLI against a running server: create-table, put-item, query, execute-statement, and a failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("aws") is None, reason="the AWS CLI (awscli, test extra) is not installed")

ENV = {**os.environ, "AWS_ACCESS_KEY_ID": "any", "AWS_SECRET_ACCESS_KEY": "any", "AWS_DEFAULT_REGION": "us-east-1",
       "AWS_MAX_ATTEMPTS": "1", "AWS_PAGER": ""}


def aws(server, *args) -> subprocess.CompletedProcess:
    return subprocess.run(["aws", "dynamodb", *args, "--endpoint-url", server.url, "--output", "json"],
                          capture_output=True, text=True, env=ENV, timeout=120)


def test_the_aws_cli_round_trip(server):
    created = aws(server, "create-table", "--table-name", "Cli",
                  "--attribute-definitions", "AttributeName=pk,AttributeType=S",
                  "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST")
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["TableDescription"]["TableName"] == "Cli"
    put = aws(server, "put-item", "--table-name", "Cli", "--item", '{"pk": {"S": "a"}, "n": {"N": "7"}}')
    assert put.returncode == 0, put.stderr
    queried = aws(server, "query", "--table-name", "Cli", "--key-condition-expression", "pk = :p",
                  "--expression-attribute-values", '{":p": {"S": "a"}}')
    assert json.loads(queried.stdout)["Items"] == [{"pk": {"S": "a"}, "n": {"N": "7"}}]
    selected = aws(server, "execute-statement", "--statement", "SELECT n FROM Cli WHERE pk = 'a'")
    assert json.loads(selected.stdout)["Items"] == [{"n": {"N": "7"}}]


def test_the_aws_cli_reports_errors(server):
    failed = aws(server, "describe-table", "--table-name", "NoSuchTable")
    assert failed.returncode in (254, 255)  # AWS CLI v2 and v1 exit codes of a service error
    assert ("An error occurred (ResourceNotFoundException) when calling the DescribeTable operation: "
            "Requested resource not found: Table: NoSuchTable not found") in failed.stderr


def test_the_aws_cli_creates_and_queries_a_multi_attribute_index(server):
    """A GSI keyed on two HASH and two RANGE attributes (multi-attribute-keys.md), created and queried by the CLI."""
    created = aws(server, "create-table", "--table-name", "CliMulti", "--billing-mode", "PAY_PER_REQUEST",
                  "--attribute-definitions", *[f"AttributeName={n},AttributeType=S" for n in ("id", "t", "r", "s")],
                  "AttributeName=at,AttributeType=N", "--key-schema", "AttributeName=id,KeyType=HASH",
                  "--global-secondary-indexes", json.dumps([{
                      "IndexName": "ByTenantRegion", "Projection": {"ProjectionType": "ALL"},
                      "KeySchema": [{"AttributeName": "t", "KeyType": "HASH"}, {"AttributeName": "r", "KeyType": "HASH"},
                                    {"AttributeName": "s", "KeyType": "RANGE"},
                                    {"AttributeName": "at", "KeyType": "RANGE"}]}]))
    assert created.returncode == 0, created.stderr
    keys = json.loads(created.stdout)["TableDescription"]["GlobalSecondaryIndexes"][0]["KeySchema"]
    assert [(k["AttributeName"], k["KeyType"]) for k in keys] == [("t", "HASH"), ("r", "HASH"), ("s", "RANGE"),
                                                                  ("at", "RANGE")]
    for n, status in enumerate(["open", "open", "done"]):
        item = {"id": {"S": f"o{n}"}, "t": {"S": "acme"}, "r": {"S": "eu"}, "s": {"S": status}, "at": {"N": str(9 - n)}}
        assert aws(server, "put-item", "--table-name", "CliMulti", "--item", json.dumps(item)).returncode == 0
    queried = aws(server, "query", "--table-name", "CliMulti", "--index-name", "ByTenantRegion",
                  "--key-condition-expression", "t = :t AND r = :r AND s = :s",
                  "--expression-attribute-values", '{":t": {"S": "acme"}, ":r": {"S": "eu"}, ":s": {"S": "open"}}')
    assert queried.returncode == 0, queried.stderr
    assert [item["id"]["S"] for item in json.loads(queried.stdout)["Items"]] == ["o1", "o0"]  # (at 8, then 9)
