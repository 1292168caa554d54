"""A boto3-shaped DynamoDB client over a partiql-ddb database.

``partiql.client(db)`` returns a ``Client`` whose methods take and return
exactly the dicts DynamoDB's JSON API uses (``{"S": "x"}`` attribute
values), so code written against ``boto3.client("dynamodb")`` runs
unchanged::

    ddb = partiql.client()
    ddb.create_table(TableName="Music", ...)
    ddb.execute_statement(Statement="SELECT * FROM Music WHERE Artist = ?",
                          Parameters=[{"S": "Acme"}], ReturnConsumedCapacity="TOTAL")

Errors are raised as ``ClientError`` with botocore's shape
(``err.response["Error"]["Code"]``, ``["Message"]``) and as the modeled
classes under ``client.exceptions`` (``ddb.exceptions.ConditionalCheckFailedException``).
When botocore is already imported, ``ClientError`` subclasses botocore's own,
so ``except botocore.exceptions.ClientError`` catches it; this module never
imports botocore itself.
"""

from __future__ import annotations

import re
import sys
import types as _pytypes

from partiql.engine.errors import DynamoDBError, error_class
from partiql.engine.requests import OPERATIONS
from partiql.engine.requests.convert import convert
from partiql.engine.requests.wire import carries_values
from partiql.engine.wire_values import from_wire, to_wire

from . import boto_idioms
from .wire import OPERATIONS as STATEMENT_OPERATIONS, statement_call


_botocore = sys.modules.get("botocore.exceptions")
_BASE = _botocore.ClientError if _botocore is not None else Exception


class ClientError(_BASE):
    """botocore's ClientError shape: ``response`` and ``operation_name``."""

    def __init__(self, error_response: dict, operation_name: str):
        self.response = error_response
        self.operation_name = operation_name
        error = error_response.get("Error", {})
        Exception.__init__(self, f"An error occurred ({error.get('Code')}) when calling the "
                                 f"{operation_name} operation: {error.get('Message')}")

    def __reduce__(self):
        return type(self), (self.response, self.operation_name)


def _modeled_exceptions() -> _pytypes.SimpleNamespace:
    names = [cls.__name__ for cls in _all_errors()]
    return _pytypes.SimpleNamespace(ClientError=ClientError,
                                    **{name: type(name, (ClientError,), {}) for name in names})


def _all_errors():
    todo, seen = [DynamoDBError], []
    while todo:
        cls = todo.pop()
        seen.append(cls)
        todo.extend(cls.__subclasses__())
    return seen[1:]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Client:
    """DynamoDB's low-level client API, in process."""

    def __init__(self, db):
        self.db = db
        self.engine = db.engine
        self.exceptions = _modeled_exceptions()
        for operation in OPERATIONS:
            setattr(self, _snake(operation), self._operation(operation))
        for operation in STATEMENT_OPERATIONS:
            setattr(self, _snake(operation), self._statement_operation(operation))

    # ----------------------------------------------------------------- errors
    def _raise(self, error: DynamoDBError, operation: str):
        body = {"Code": error.code, "Message": error.message}
        response = {"Error": body, "ResponseMetadata": {"HTTPStatusCode": error.http_status},
                    **convert(error.members(), _to_boto)}
        cls = getattr(self.exceptions, error.code, ClientError)
        raise cls(response, operation) from error

    def _operation(self, operation: str):
        values = carries_values(operation)

        def call(**request):
            try:
                response = OPERATIONS.call(self.engine, operation, convert(request, _from_boto) if values else request)
            except DynamoDBError as error:
                self._raise(error, operation)
            return convert(response, _to_boto) if values else response

        call.__name__ = _snake(operation)
        call.__doc__ = f"DynamoDB's {operation}, with wire-format requests and responses."
        return call

    # ------------------------------------------------------------------ PartiQL
    def _statement_operation(self, operation: str):
        def call(**request):
            try:
                response = statement_call(self.db, operation, convert(request, boto_idioms.blobs_as_text))
            except DynamoDBError as error:
                self._raise(error, operation)
            return convert(response, boto_idioms.blobs_as_bytes)

        call.__name__ = _snake(operation)
        call.__doc__ = f"DynamoDB's {operation}, with wire-format requests and responses."
        return call


    # ------------------------------------------------------- boto3's idioms
    def can_paginate(self, operation_name: str) -> bool:
        """Whether ``get_paginator(operation_name)`` has a paginator (as boto3's)."""
        return operation_name in boto_idioms.paginator_names(self)

    def get_paginator(self, operation_name: str):
        """boto3's paginator for ``query``, ``scan``, ``list_tables``, ``list_tags_of_resource``."""
        return boto_idioms.get_paginator(self, operation_name)

    @property
    def waiter_names(self) -> list[str]:
        """The waiters ``get_waiter`` knows (as boto3's ``client.waiter_names``)."""
        return boto_idioms.waiter_names(self)

    def get_waiter(self, waiter_name: str):
        """boto3's waiter: ``table_exists``, ``table_not_exists``, ``contributor_insights_enabled``."""
        return boto_idioms.get_waiter(self, waiter_name)


def _from_boto(value):
    """boto3's attribute value (raw bytes for binaries) → engine value."""
    return from_wire(boto_idioms.blobs_as_text(value))


def _to_boto(value):
    """Engine value → boto3's attribute value (raw bytes for binaries)."""
    return boto_idioms.blobs_as_bytes(to_wire(value))


__all__ = ["Client", "ClientError", "error_class"]
