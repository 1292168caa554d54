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

from partiql.engine.errors import DynamoDBError, error_class, reason_code
from partiql.engine.requests import OPERATIONS
from partiql.engine.requests.convert import convert
from partiql.engine.types import from_wire, item_to_wire, to_wire


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

    # ----------------------------------------------------------------- errors
    def _raise(self, error: DynamoDBError, operation: str):
        body = {"Code": error.code, "Message": error.message}
        response = {"Error": body, "ResponseMetadata": {"HTTPStatusCode": error.http_status},
                    **convert(error.members(), to_wire)}
        cls = getattr(self.exceptions, error.code, ClientError)
        raise cls(response, operation) from error

    def _operation(self, operation: str):
        handler = OPERATIONS[operation]

        def call(**request):
            try:
                response = handler(self.engine, convert(request, from_wire))
            except DynamoDBError as error:
                self._raise(error, operation)
            return convert(response, to_wire)

        call.__name__ = _snake(operation)
        call.__doc__ = f"DynamoDB's {operation}, with wire-format requests and responses."
        return call

    # ------------------------------------------------------------------ PartiQL
    def execute_statement(self, Statement: str, Parameters=None, ConsistentRead: bool = False,
                          NextToken: str | None = None, ReturnConsumedCapacity: str = "NONE",
                          Limit: int | None = None, ReturnValuesOnConditionCheckFailure: str = "NONE") -> dict:
        try:
            params = _params(Parameters)
            result = self.db.runner.execute(Statement, params, limit=Limit, next_token=NextToken,
                                            consistent=ConsistentRead,
                                            return_old=ReturnValuesOnConditionCheckFailure == "ALL_OLD")
        except DynamoDBError as error:
            self._raise(error, "ExecuteStatement")
        response = {"Items": [item_to_wire(item) for item in result.items]}
        if result.next_token is not None:
            response["NextToken"] = result.next_token
        capacity = result.consumed_capacity.to_api(ReturnConsumedCapacity)
        if capacity is not None:
            response["ConsumedCapacity"] = capacity
        return response

    def batch_execute_statement(self, Statements, ReturnConsumedCapacity: str = "NONE") -> dict:
        try:
            statements = [(s["Statement"], _params(s.get("Parameters"))) for s in Statements]
            consistent = {i for i, s in enumerate(Statements) if s.get("ConsistentRead")}
            # ReturnValuesOnConditionCheckFailure is inert in batches (spec §2.10).
            results = self.db.runner.batch(statements, consistent=consistent)
        except DynamoDBError as error:
            self._raise(error, "BatchExecuteStatement")
        responses = [_batch_response(result) for result in results]
        consumed = [units for result in results if not isinstance(result, DynamoDBError)
                    for units in result.consumed_capacity.tables]
        # A failed write adds its units to its table's total, in no arm, and only
        # when a statement on that table succeeded (spec §6.5, DX M1/M4/R3/U2).
        succeeded = {units.table_name for units in consumed}
        consumed += [result.consumed.as_unattributed() for result in results
                     if isinstance(result, DynamoDBError) and result.consumed is not None
                     and result.consumed.table_name in succeeded]
        response = {"Responses": responses}
        from partiql.engine.engine import per_table
        if ReturnConsumedCapacity in ("TOTAL", "INDEXES") and consumed:
            response["ConsumedCapacity"] = [c.to_api(ReturnConsumedCapacity) for c in per_table(consumed)]
        return response

    def execute_transaction(self, TransactStatements, ClientRequestToken: str | None = None,
                            ReturnConsumedCapacity: str = "NONE") -> dict:
        try:
            statements = [(s["Statement"], _params(s.get("Parameters"))) for s in TransactStatements]
            return_old = {i for i, s in enumerate(TransactStatements)
                          if s.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD"}
            results = self.db.runner.transaction(statements, ClientRequestToken, return_old)
        except DynamoDBError as error:
            self._raise(error, "ExecuteTransaction")
        reads = all(r.plan is not None and r.plan.kind == "GetItem" for r in results)
        responses = [({"Item": item_to_wire(r.items[0])} if r.items else {}) for r in results] if reads else []
        response = {"Responses": responses}
        if ReturnConsumedCapacity in ("TOTAL", "INDEXES"):
            from partiql.engine.engine import per_table
            tables = per_table([units for r in results for units in r.consumed_capacity.tables])
            response["ConsumedCapacity"] = [c.to_api(ReturnConsumedCapacity) for c in tables]
        return response


def _params(parameters) -> list:
    if parameters is None:
        return []
    return [from_wire(value) for value in parameters]


def _batch_response(result) -> dict:
    if isinstance(result, DynamoDBError):
        out = {}
        if getattr(result, "table_name", None):
            out["TableName"] = result.table_name
        out["Error"] = {"Code": reason_code(result), "Message": result.message}
        return out
    out = {"TableName": result.plan.table}
    if result.items:
        out["Item"] = item_to_wire(result.items[0])
    return out


__all__ = ["Client", "ClientError", "error_class"]
