"""Which API answers an ``X-Amz-Target`` prefix: a registry, one entry per API version.

An entry's ``call(handler, operation, request)`` takes the decoded JSON
request and returns the response dict (None: an empty body, as TagResource
answers); ``handler.connection`` is the served database. ``operations`` is every operation name the API knows; any other
name is an UnknownOperationException. DynamoDB Streams (item-api §7.2) is
its own API version, answered from the engine's streams; partiql-ddb's own
operations (``partiql.extension``) are one more, never mixed into DynamoDB's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from partiql.engine.requests import OPERATIONS as ENGINE_OPERATIONS
from partiql.engine.requests.wire import wire_call
from partiql.engine.streams.api import OPERATIONS as STREAMS_OPERATIONS, streams_call
from partiql import extension
from partiql.wire import OPERATIONS as STATEMENT_OPERATIONS, statement_call


@dataclass(frozen=True)
class Target:
    """One API version: its operation names and the call that runs them."""

    operations: Collection[str]
    call: Callable


def on_engine(operations: Collection[str], call: Callable) -> Target:
    """A Target whose ``call(engine, operation, request)`` needs only the engine."""
    return Target(frozenset(operations),
                  lambda handler, operation, request: call(handler.connection.engine, operation, request))


def _dynamodb(handler, operation: str, request):
    if operation in STATEMENT_OPERATIONS:
        return statement_call(handler.connection, operation, request)
    return wire_call(handler.connection.engine, operation, request)


def _extension(handler, operation: str, request):
    return extension.OPERATIONS[operation](handler, request)


# DescribeEndpoints names the server's own address, so the handler answers it.
DESCRIBE_ENDPOINTS = "DescribeEndpoints"

TARGETS: dict[str, Target] = {
    "DynamoDB_20120810": Target(frozenset((*ENGINE_OPERATIONS, *STATEMENT_OPERATIONS)), _dynamodb),
    "DynamoDBStreams_20120810": on_engine(STREAMS_OPERATIONS, streams_call),
    extension.PREFIX: Target(frozenset(extension.OPERATIONS), _extension),
}
