"""ExecuteStatement, BatchExecuteStatement and ExecuteTransaction semantics (spec §2).

``StatementRunner`` parses (cached by text), plans (cached by text and
catalog version), then runs a statement, a batch or a transaction with
DynamoDB's rules and messages. The library (``Connection``) and the
boto3-shaped client both run statements through it.
"""

from __future__ import annotations

from collections import OrderedDict

from partiql.engine.engine import WriteAction, per_table
from partiql.engine.errors import (CancellationReason, DynamoDBError, ResourceNotFoundException,
                                   TransactionCanceledException, ValidationException)
from partiql.engine.expressions import model as m
from partiql.engine.requests import OPERATIONS

from . import ast
from .executor import Executor, project
from .parser import parse, parse_dml
from .planner import (ExistsTemplate, ExplainTemplate, InsertTemplate, SelectTemplate, TableTemplate,
                      WriteTemplate, plan)
from .result import ConsumedCapacity, PlanSummary, Result

PLAN_CACHE_SIZE = 1024
MAX_STATEMENT_LENGTH = 8192
PARAMETER_MISMATCH = "Number of parameters in request and statement don't match."
BATCH_SELECT = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
TRANSACTION_SELECT = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
KEY_MISMATCH = "The provided key element does not match the schema"
SCAN_DENIED = ("Full table scans are refused by this connection's scan policy (deny): {}. Pin the "
               "partition key with an equality in WHERE, or set scan_policy to 'warn' or 'allow'")

# How a DynamoDB exception is named in batch responses and cancellation reasons.
ERROR_CODES = {"ValidationException": "ValidationError", "ResourceNotFoundException": "ResourceNotFound",
               "ConditionalCheckFailedException": "ConditionalCheckFailed",
               "DuplicateItemException": "DuplicateItem",
               "ProvisionedThroughputExceededException": "ProvisionedThroughputExceeded",
               "TransactionConflictException": "TransactionConflict",
               "ItemCollectionSizeLimitExceededException": "ItemCollectionSizeLimitExceeded",
               "RequestLimitExceeded": "RequestLimitExceeded", "ThrottlingException": "ThrottlingError",
               "InternalServerError": "InternalServerError"}


def error_code(error: DynamoDBError) -> str:
    return ERROR_CODES.get(error.code, error.code)


def _length_error(member: str, value, limit: int, longer: bool = True) -> ValidationException:
    """DynamoDB's member-length constraint message (a string value is quoted in it)."""
    bound = "less than or equal to" if longer else "greater than or equal to"
    # INF: AWS renders a list member's value too; we leave lists' values out.
    shown = f" '{value}'" if isinstance(value, str) else ""
    return ValidationException(f"1 validation error detected: Value{shown} at '{member}' failed to "
                               f"satisfy constraint: Member must have length {bound} {limit}")


class StatementRunner:
    """Parses, plans and runs statements for one connection."""

    def __init__(self, engine, connection=None):
        self.engine = engine
        self.connection = connection
        self.executor = Executor(engine)
        self._plans: OrderedDict = OrderedDict()

    # ------------------------------------------------------------ planning
    def template(self, text: str, params, shell: bool = False):
        """The cached plan template of a statement, checking the parameter count."""
        if not text or len(text) > MAX_STATEMENT_LENGTH:
            raise _length_error("statement", text, MAX_STATEMENT_LENGTH, longer=bool(text))
        stmt = parse(text) if shell else parse_dml(text)
        if len(ast.parameters(stmt)) > len(params):
            raise ValidationException(PARAMETER_MISMATCH)
        key = (text, shell, self.engine.version)
        found = self._plans.get(key)
        if found is None:
            with self.engine.lock:
                found = plan(stmt, self.engine.tables)
            self._plans[key] = found
            if len(self._plans) > PLAN_CACHE_SIZE:
                self._plans.popitem(last=False)
        return found

    # ----------------------------------------------------------- statements
    def execute(self, text: str, params, *, limit=None, next_token=None, consistent=False,
                shell=False, return_old=False) -> Result:
        """ExecuteStatement (``shell`` also admits DDL, SHOW, DESCRIBE and EXPLAIN)."""
        if limit is not None and limit < 1:
            raise ValidationException(f"1 validation error detected: Value '{limit}' at 'limit' failed to "
                                      "satisfy constraint: Member must have value greater than or equal to 1")
        template = self.template(text, params, shell)
        run = _RUNNERS[type(template)]
        return run(self, text, template, params, limit=limit, next_token=next_token,
                   consistent=consistent, return_old=return_old)

    def _select(self, text, template, params, *, limit, next_token, consistent, return_old) -> Result:
        policy = getattr(self.connection, "scan_policy", "allow")
        if policy != "allow":
            ops, scan = self.executor.select_ops(template, params, consistent)
            if scan and policy == "deny":
                raise ValidationException(SCAN_DENIED.format(self.executor.summary(template, ops, scan).access_path))
        result = self.executor.select(text, template, params, limit=limit, next_token=next_token,
                                      consistent=consistent)
        if result.plan.full_table_scan and policy == "warn":
            result.warnings.append(f"{result.plan.access_path}: this statement reads the whole "
                                   f"{'index' if template.index else 'table'} (a full Scan)")
        return result

    def _write(self, text, template, params, *, limit, next_token, consistent, return_old) -> Result:
        if next_token is not None:
            raise ValidationException("NextToken does not match request")
        return self.executor.write(template, params, return_old)

    def _exists(self, text, template, params, **_) -> Result:
        raise ValidationException("EXISTS can only be used in ExecuteTransaction write requests.")

    def _table(self, text, template: TableTemplate, params, **_) -> Result:
        try:
            response = OPERATIONS[template.operation](self.engine, template.request)
        except DynamoDBError as error:
            if template.if_exists and _ignorable(template.operation, error):
                return Result(message=f"{template.operation}: nothing to do ({error.message})",
                              plan=PlanSummary(template.operation, template.request.get("TableName")))
            raise
        return _table_result(template, response)

    def _explain(self, text, template: ExplainTemplate, params, **options) -> Result:
        summary = self.explain(template.statement, params, options.get("consistent", False))
        return Result(plan=summary, message="EXPLAIN (nothing was executed)")

    def explain(self, template, params, consistent: bool = False) -> PlanSummary:
        """The plan summary of a template, running nothing."""
        params = list(params) + [f"?{i + 1}" for i in range(len(params), 200)]
        if isinstance(template, SelectTemplate):
            ops, scan = self.executor.select_ops(template, params, consistent)
            return self.executor.summary(template, ops, scan)
        if isinstance(template, TableTemplate):
            return PlanSummary(template.operation, template.request.get("TableName"),
                               requests=[dict(template.request)])
        action = self._action(template, params)
        return self.executor.write_summary(template, action)

    def _action(self, template, params, return_old: bool = False) -> WriteAction:
        if isinstance(template, InsertTemplate):
            return self.executor.insert_action(template, params)
        if isinstance(template, ExistsTemplate):
            return self.executor.exists_action(template, params)
        return self.executor.write_action(template, params, return_old)

    # --------------------------------------------------------------- batches
    def batch(self, statements, return_old=(), consistent=()) -> list:
        """BatchExecuteStatement: one Result or DynamoDBError per statement.

        ``consistent`` holds the positions of statements read with
        ConsistentRead; ``return_old`` (ReturnValuesOnConditionCheckFailure)
        is accepted and inert, as in DynamoDB. An error carries
        ``table_name`` when it arose after the table was resolved.
        """
        if not statements or len(statements) > 25:
            raise _length_error("statements", statements, 25, longer=bool(statements))
        planned = [self._batch_plan(text, params) for text, params in statements]
        kinds = {_kind(entry) for entry in planned if not isinstance(entry, DynamoDBError)}
        if len(kinds) > 1:
            raise ValidationException("Read and write requests together in the same batch is not supported.")
        self._check_batch_duplicates(planned, [params for _, params in statements])
        results = []
        for position, ((text, params), entry) in enumerate(zip(statements, planned)):
            results.append(entry if isinstance(entry, DynamoDBError)
                           else self._batch_run(text, entry, params, position in consistent))
        return results

    def _batch_plan(self, text, params):
        try:
            template = self.template(text, params)
        except DynamoDBError as error:
            error.table_name = None
            return error
        if isinstance(template, ExistsTemplate):
            return _tagged(ValidationException("EXISTS can only be used in ExecuteTransaction write requests."))
        if isinstance(template, SelectTemplate) and not _is_point_read(template, params):
            return _tagged(ValidationException(BATCH_SELECT))
        return template

    def _check_batch_duplicates(self, planned, all_params) -> None:
        seen = set()
        for entry, params in zip(planned, all_params):
            if isinstance(entry, DynamoDBError):
                continue
            try:
                key = self._item_key(entry, params)
            except DynamoDBError:
                continue
            if key in seen:
                raise ValidationException("Provided list of item keys contains duplicates")
            seen.add(key)

    def _item_key(self, template, params) -> tuple:
        """(table, hash, range or None) of the one item a batch statement touches."""
        if isinstance(template, SelectTemplate):
            values = self.executor.select_ops(template, params, False)[0][0].key
        else:
            action = self._action(template, params)
            if action.kind != "Put":
                return (template.table, *action.key)
            values = action.item
        return (template.table, *(values.get(n) for n in (template.key.hash_name, template.key.range_name)))

    def _batch_run(self, text, template, params, consistent: bool = False):
        try:
            if isinstance(template, SelectTemplate):
                return self.executor.select(text, template, params, consistent=consistent)
            return self.executor.write(template, params)
        except DynamoDBError as error:
            error.table_name = template.table if error.code != "ValidationException" else None
            return error

    # ---------------------------------------------------------- transactions
    def transaction(self, statements, token=None, return_old=()) -> list[Result]:
        """ExecuteTransaction: all reads or all writes, atomically."""
        if not statements or len(statements) > 100:
            raise _length_error("transactStatements", statements, 100, longer=bool(statements))
        templates = [self._transaction_plan(i, text, params) for i, (text, params) in enumerate(statements)]
        reads = [isinstance(parse_dml(text), ast.Select) for text, _ in statements]
        if any(reads) and not all(reads):
            raise ValidationException(
                "ExecuteTransaction API does not support both read and write operations in the same request.")
        if all(reads):
            missing = next((t for t in templates if isinstance(t, DynamoDBError)), None)
            if missing is not None:
                raise missing
            return self._transaction_reads(templates, [p for _, p in statements])
        return self._transaction_writes(statements, templates, token, return_old)

    def _transaction_plan(self, position: int, text: str, params):
        try:
            template = self.template(text, params)
        except ResourceNotFoundException as error:
            return error  # becomes a cancellation reason
        except ValidationException as error:
            if error.message == "Where clause does not contain a mandatory equality on all key attributes":
                return ValidationException(KEY_MISMATCH)
            raise _in_transaction(position, error) from None
        if isinstance(template, SelectTemplate):
            if template.index is not None:
                raise _in_transaction(position, ValidationException(
                    "Reads on indices are not supported within transactions."))
            if not _is_point_read(template, params):
                raise _in_transaction(position, ValidationException(TRANSACTION_SELECT))
        if getattr(template, "returning", None) is not None:
            raise _in_transaction(position, ValidationException(
                "RETURNING clause is not supported in ExecuteTransaction."))
        return template

    def _transaction_reads(self, templates, all_params) -> list[Result]:
        reads = []
        for template, params in zip(templates, all_params):
            read = self.executor.select_ops(template, params, True)[0][0]
            reads.append((template.table, tuple(read.key[n] for n in template.table_key.names)))
        items, consumed = self.engine.transact_get(reads)
        results = []
        for template, item, units in zip(templates, items, consumed):
            found = [] if item is None else [project(item, template.projection)]
            results.append(Result(found, len(found), 1, None, ConsumedCapacity.of([units]),
                                  PlanSummary("GetItem", template.table)))
        return results

    def _transaction_writes(self, statements, templates, token, return_old) -> list[Result]:
        actions, failures = [], {}
        for i, ((_, params), template) in enumerate(zip(statements, templates)):
            if isinstance(template, DynamoDBError):
                failures[i] = template
                actions.append(WriteAction("ConditionCheck", "", key=(None, None)))
                continue
            try:
                actions.append(self._action(template, params, i in return_old))
            except ValidationException as error:
                failures[i] = ValidationException(_transaction_message(error))
                actions.append(WriteAction("ConditionCheck", "", key=(None, None)))
        if failures:
            raise _cancelled(len(actions), failures)
        consumed = self.engine.transact_write(actions, token, _fingerprint(statements))
        return [Result(consumed_capacity=ConsumedCapacity.of([units]),
                       plan=PlanSummary(action.kind + ("Item" if action.kind != "ConditionCheck" else ""),
                                        action.table))
                for action, units in zip(actions, consumed)]


def _cancelled(count: int, failures: dict) -> TransactionCanceledException:
    first_validation = min((i for i, e in failures.items() if e.code == "ValidationException"), default=None)
    reasons = []
    for i in range(count):
        error = failures.get(i)
        if error is None or (first_validation is not None and error.code == "ValidationException"
                             and i != first_validation):
            reasons.append(CancellationReason())
        else:
            reasons.append(CancellationReason(error_code(error), error.message))
    return TransactionCanceledException(reasons)


def _transaction_message(error: ValidationException) -> str:
    # Inside a transaction a key of the wrong type reads as a schema mismatch (FL order 26).
    if error.message.startswith("Key attribute's data type should match"):
        return KEY_MISMATCH
    return error.message


def _fingerprint(statements) -> tuple:
    from partiql.engine.types import to_wire
    return tuple((text, repr([to_wire(v) for v in params])) for text, params in statements)


def _in_transaction(position: int, error: ValidationException) -> ValidationException:
    return ValidationException(f"Validation failed in TransactStatements[{position}]: {error.message}")


def _tagged(error: DynamoDBError) -> DynamoDBError:
    error.table_name = None
    return error


def _kind(template) -> str:
    return "read" if isinstance(template, SelectTemplate) else "write"


def _is_point_read(template: SelectTemplate, params) -> bool:
    """Exactly the full table key with equalities and nothing else (spec §3.2 row 19)."""
    if template.index is not None or template.analysis.scan or len(template.analysis.branches) != 1:
        return False
    branch = template.analysis.branches[0]
    key = template.key
    if branch.residual or branch.loose_sort:
        return False
    return key.range_name is None or (branch.sort is not None and branch.sort[0] == "=")


def _ignorable(operation: str, error: DynamoDBError) -> bool:
    return ((operation == "CreateTable" and error.code == "ResourceInUseException")
            or (operation == "DeleteTable" and error.code == "ResourceNotFoundException"))


def _table_result(template: TableTemplate, response: dict) -> Result:
    name = template.request.get("TableName")
    summary = PlanSummary(template.operation, name, requests=[dict(template.request)])
    if template.operation == "ListTables":
        items = [{"TableName": table} for table in response.get("TableNames", [])]
        return Result(items, len(items), plan=summary)
    if template.operation == "DescribeTable":
        return Result([response["Table"]], 1, plan=summary)
    messages = {"CreateTable": f"Table {name} created", "DeleteTable": f"Table {name} dropped",
                "UpdateTable": f"Table {name} altered"}
    return Result(plan=summary, message=messages.get(template.operation, template.operation))


_RUNNERS = {SelectTemplate: StatementRunner._select, InsertTemplate: StatementRunner._write,
            WriteTemplate: StatementRunner._write, ExistsTemplate: StatementRunner._exists,
            TableTemplate: StatementRunner._table, ExplainTemplate: StatementRunner._explain}
