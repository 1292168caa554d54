"""A tool call reaches an endpoint only when the person starting ``partiql mcp`` named one: no tool takes an
endpoint, a region or a profile, and with ``--endpoint-url`` the tools work on that DynamoDB (here a
``partiql serve``), said to the agent as an open world."""

from __future__ import annotations

import os

import pytest

import partiql
from partiql.agent.desk import TOOLS
from partiql.server import Server

from .conftest import Agent

REACHING = {"endpoint", "endpoint_url", "url", "region", "profile", "host", "port"}


def _names(schema: dict):
    for name, member in schema.get("properties", {}).items():
        yield name
        yield from _names(member)
    if isinstance(schema.get("items"), dict):
        yield from _names(schema["items"])


@pytest.mark.parametrize("name", list(TOOLS))
def test_no_tool_takes_anything_that_names_a_place_to_connect_to(name):
    assert not set(_names(TOOLS[name].schema)) & REACHING


def test_with_an_endpoint_given_the_tools_work_there():
    served = partiql.connect()
    served.execute("CREATE TABLE Remote PRIMARY KEY (pk STRING HASH)")
    served.execute("INSERT INTO Remote VALUE {'pk': 'there'}")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", ""), "AWS_ACCESS_KEY_ID": "local",
           "AWS_SECRET_ACCESS_KEY": "local", "AWS_DEFAULT_REGION": "us-east-1"}
    with Server(served, port=0) as running:
        agent = Agent("--endpoint-url", running.url, env=env)
        try:
            assert [t["name"] for t in agent.ok("list_tables", {})[1]["tables"]] == ["Remote"]
            _, data = agent.ok("execute", {"statement": "SELECT * FROM Remote WHERE pk = 'there'"})
            assert data["items"] == [{"pk": {"S": "there"}}]
            assert "full table Scan refused" in agent.error("execute", {"statement": "SELECT * FROM Remote"})
            assert all(tool.annotations.open_world_hint for tool in agent.tools().values())
        finally:
            agent.close()
    served.close()
