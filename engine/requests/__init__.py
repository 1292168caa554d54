"""DynamoDB's operations as request dict → response dict, over engine values.

``OPERATIONS`` is the one registry of operation names; the Python API of
``Engine``, the boto3-shaped client and a wire server all dispatch through it.
It imports an operation's module on first use, so that importing the engine
(or ``partiql``) does not load the whole request layer: start-up matters to
the shell's ``-e``.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

# operation name -> module of this package that implements it (in its OPERATIONS).
ROUTES = {
    "CreateTable": "tables", "DescribeTable": "tables", "ListTables": "tables", "DeleteTable": "tables",
    "UpdateTable": "tables",
    "PutItem": "items", "GetItem": "items", "UpdateItem": "items", "DeleteItem": "items",
    "Query": "reads", "Scan": "reads",
    "BatchGetItem": "batches", "BatchWriteItem": "batches", "TransactGetItems": "batches",
    "TransactWriteItems": "batches",
    "UpdateTimeToLive": "ttl", "DescribeTimeToLive": "ttl",
    "TagResource": "tags", "UntagResource": "tags", "ListTagsOfResource": "tags",
    "DescribeLimits": "account", "DescribeContinuousBackups": "account",
    "UpdateContributorInsights": "insights", "DescribeContributorInsights": "insights",
    "ListContributorInsights": "insights",
    "SearchVectors": "vector_search",
}


class _Operations(Mapping):
    """Operation name → handler(engine, request) -> response, loaded lazily."""

    def __init__(self, routes: dict):
        self._routes = routes
        self._loaded: dict = {}

    def __getitem__(self, operation: str):
        handler = self._loaded.get(operation)
        if handler is None:
            module = import_module(f".{self._routes[operation]}", __name__)
            handler = self._loaded[operation] = module.OPERATIONS[operation]
        return handler

    def __iter__(self):
        return iter(self._routes)

    def __len__(self) -> int:
        return len(self._routes)

    def call(self, engine, operation: str, request: dict) -> dict:
        """Run ``operation`` on ``engine``: the one way a request reaches its handler, asking the engine's
        realism first (issue 33; off, it costs this one attribute test)."""
        handler = self._loaded.get(operation) or self[operation]
        if engine.realism is None:
            return handler(engine, request)
        return engine.realism.call(engine, operation, request, handler)


OPERATIONS = _Operations(ROUTES)
