"""partiql.engine: a faithful local DynamoDB.

``Engine`` holds tables; every DynamoDB operation is a method named in
snake_case (``put_item``, ``query``, ``transact_write_items``…) taking
DynamoDB's request members as keyword arguments with Python values::

    db = Engine()
    db.create_table(TableName="T", KeySchema=[...], AttributeDefinitions=[...],
                    BillingMode="PAY_PER_REQUEST")
    db.put_item(TableName="T", Item={"pk": "a", "n": 5})
    db.get_item(TableName="T", Key={"pk": "a"})["Item"]   # {'pk': 'a', 'n': Decimal('5')}

Numbers come back as ``Decimal``; ints are accepted, floats refused.
``Engine.call(operation, request)`` takes a request whose values are
already engine values (the boto3-shaped client and wire server use it).
"""

from __future__ import annotations

import logging
import re

from .engine import Engine
from .errors import *  # noqa: F401,F403 - DynamoDB's exceptions are part of the API
from .requests import OPERATIONS
from .requests.convert import convert
from .types import from_python


# why: a library logs to no one unless its user says so (throughput warnings reach
# Result.warnings, the shell's status line, and the server's log on its own terms).
logging.getLogger("partiql").addHandler(logging.NullHandler())


def _snake(operation: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", operation).lower()


def _python_method(operation: str):
    handler = OPERATIONS[operation]

    def method(self, **request):
        if self.realism is None:  # (issue 33: off, one attribute test; on, OPERATIONS.call asks it)
            return handler(self, convert(request, from_python))
        return OPERATIONS.call(self, operation, convert(request, from_python))

    method.__name__ = _snake(operation)
    method.__qualname__ = f"Engine.{method.__name__}"
    method.__doc__ = f"DynamoDB's {operation}: request members as keyword arguments, Python values."
    return method


def _call(self, operation: str, request: dict) -> dict:
    """Run ``operation`` on a request whose attribute values are engine values."""
    return OPERATIONS.call(self, operation, request)


for _operation in OPERATIONS:
    setattr(Engine, _snake(_operation), _python_method(_operation))
Engine.call = _call

__all__ = ["Engine", "OPERATIONS"]
