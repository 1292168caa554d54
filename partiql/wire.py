"""ExecuteStatement, BatchExecuteStatement and ExecuteTransaction over wire JSON (spec §2.1).

``statement_call(connection, operation, request)`` is the PartiQL twin of
``engine.requests.wire.wire_call``: it checks the request's JSON types
(SerializationException) and constraint envelope (``1 validation error
detected: …``) against the operation's shape, converts the parameters from
wire JSON, runs the statements and returns the response in wire JSON. The
boto3-shaped client and the wire server both call it, so a missing
``Statement`` or a ``Limit`` given as text is DynamoDB's error everywhere.
"""

from __future__ import annotations

from partiql.engine.engine import per_table
from partiql.engine.envelope import (ATTRIBUTE_VALUE, RETURN_CONSUMED_CAPACITY,
                                     RETURN_VALUES_ON_CONDITION_CHECK_FAILURE, boolean, check_request,
                                     integer, list_of, string, structure)
from partiql.engine.errors import DynamoDBError, ValidationException, reason_code
from partiql.engine.limits import TRANSACT_MAX_ITEMS
from partiql.engine.wire_values import from_wire, item_to_wire, wire_nesting_problem

from .executor import PARAMETER_TOO_DEEP
from .statements import MAX_BATCH, MAX_STATEMENT_LENGTH

_STATEMENT = string(required=True, min_len=1, max_len=MAX_STATEMENT_LENGTH)
_PARAMETERS = list_of(ATTRIBUTE_VALUE, min_len=1)
_CAPACITY = string(enum=RETURN_CONSUMED_CAPACITY)
_ON_FAILURE = string(enum=RETURN_VALUES_ON_CONDITION_CHECK_FAILURE)

# Members in the service model's order (it orders a multi-error envelope).
SHAPES = {
    "ExecuteStatement": structure({
        "Statement": _STATEMENT, "Parameters": _PARAMETERS, "ConsistentRead": boolean(),
        "NextToken": string(min_len=1, max_len=32768), "ReturnConsumedCapacity": _CAPACITY,
        "Limit": integer(min=1), "ReturnValuesOnConditionCheckFailure": _ON_FAILURE,
    }, name="ExecuteStatementInput"),
    "BatchExecuteStatement": structure({
        "Statements": list_of(structure({
            "Statement": _STATEMENT, "Parameters": _PARAMETERS, "ConsistentRead": boolean(),
            "ReturnValuesOnConditionCheckFailure": _ON_FAILURE,
        }, name="BatchStatementRequest"), required=True, min_len=1, max_len=MAX_BATCH),
        "ReturnConsumedCapacity": _CAPACITY,
    }, name="BatchExecuteStatementInput"),
    "ExecuteTransaction": structure({
        "TransactStatements": list_of(structure({
            "Statement": _STATEMENT, "Parameters": _PARAMETERS, "ReturnValuesOnConditionCheckFailure": _ON_FAILURE,
        }, name="ParameterizedStatement"), required=True, min_len=1, max_len=TRANSACT_MAX_ITEMS),
        "ClientRequestToken": string(min_len=1, max_len=36), "ReturnConsumedCapacity": _CAPACITY,
    }, name="ExecuteTransactionInput"),
}


def statement_call(connection, operation: str, request) -> dict:
    """Run one of the three PartiQL operations on a wire-JSON request; the wire-JSON response."""
    checked = check_request(request, SHAPES[operation])
    return _RUNNERS[operation](connection.runner, checked)


def _params(parameters) -> list:
    """The parameters as engine values, checked in document order, each one's depth before its values
    (recorded-2026-11 B7: ``[deep(40), {"N": "abc"}]`` is the nesting error)."""
    if parameters is None:
        return []
    values = []
    for value in parameters:
        if wire_nesting_problem(value):
            raise ValidationException(PARAMETER_TOO_DEEP)
        values.append(from_wire(value))
    return values


def _capacity(checked: dict) -> str:
    return checked.get("ReturnConsumedCapacity", "NONE")


def execute_statement(runner, checked: dict) -> dict:
    result = runner.execute(checked["Statement"], _params(checked.get("Parameters")),
                            limit=checked.get("Limit"), next_token=checked.get("NextToken"),
                            consistent=checked.get("ConsistentRead", False),
                            return_old=checked.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD")
    response = {"Items": [item_to_wire(item) for item in result.items]}
    if result.next_token is not None:
        response["NextToken"] = result.next_token
    capacity = result.consumed_capacity.to_api(_capacity(checked))
    if capacity is not None:
        response["ConsumedCapacity"] = capacity
    return response


def batch_execute_statement(runner, checked: dict) -> dict:
    entries = checked["Statements"]
    converted = [_batch_params(entry) for entry in entries]
    # why: a parameter that cannot be converted fails its statement alone, a 200 with that statement's
    # ValidationError (recorded-2026-11 A6); the others run as a batch of their own
    kept = [i for i, params in enumerate(converted) if not isinstance(params, DynamoDBError)]
    statements = [(entries[i]["Statement"], converted[i]) for i in kept]
    consistent = {n for n, i in enumerate(kept) if entries[i].get("ConsistentRead")}
    # ReturnValuesOnConditionCheckFailure is inert in batches (spec §2.10).
    ran = iter(runner.batch(statements, consistent=consistent) if statements else ())
    results = [params if isinstance(params, DynamoDBError) else next(ran) for params in converted]
    consumed = [units for result in results if not isinstance(result, DynamoDBError)
                for units in result.consumed_capacity.tables]
    # A failed write adds its units to its table's total, in no arm, and only
    # when a statement on that table succeeded (spec §6.5, DX M1/M4/R3/U2).
    succeeded = {units.table_name for units in consumed}
    consumed += [result.consumed.as_unattributed() for result in results
                 if isinstance(result, DynamoDBError) and result.consumed is not None
                 and result.consumed.table_name in succeeded]
    response = {"Responses": [_batch_response(result) for result in results]}
    mode = _capacity(checked)
    if mode in ("TOTAL", "INDEXES") and consumed:
        response["ConsumedCapacity"] = [units.to_api(mode) for units in per_table(consumed)]
    return response


def _batch_params(entry: dict):
    """A batch statement's parameters as engine values, or the ValidationException converting them raised."""
    try:
        return _params(entry.get("Parameters"))
    except ValidationException as error:
        return error


def execute_transaction(runner, checked: dict) -> dict:
    entries = checked["TransactStatements"]
    statements = [(entry["Statement"], _params(entry.get("Parameters"))) for entry in entries]
    return_old = {i for i, entry in enumerate(entries)
                  if entry.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD"}
    results = runner.transaction(statements, checked.get("ClientRequestToken"), return_old)
    # A write transaction answers an empty Responses list (spec §2.1).
    reads = all(r.plan is not None and r.plan.kind == "GetItem" for r in results)
    responses = [({"Item": item_to_wire(r.items[0])} if r.items else {}) for r in results] if reads else []
    response = {"Responses": responses}
    mode = _capacity(checked)
    if mode in ("TOTAL", "INDEXES"):
        tables = per_table([units for r in results for units in r.consumed_capacity.tables])
        response["ConsumedCapacity"] = [units.to_api(mode) for units in tables]
    return response


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


_RUNNERS = {"ExecuteStatement": execute_statement, "BatchExecuteStatement": batch_execute_statement,
            "ExecuteTransaction": execute_transaction}
OPERATIONS = tuple(SHAPES)

__all__ = ["OPERATIONS", "SHAPES", "statement_call"]
