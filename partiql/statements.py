"""ExecuteStatement, BatchExecuteStatement and ExecuteTransaction semantics (spec §2).

``StatementRunner`` parses (cached by text), plans (cached by text and
catalog version), then runs a statement, a batch or a transaction with
DynamoDB's rules and messages. The library (``Connection``) and the
boto3-shaped client both run statements through it.
"""

from __future__ import annotations

from collections import OrderedDict

from partiql.engine.engine import WriteAction
from partiql.engine.errors import (CancellationReason, DynamoDBError, ResourceNotFoundException,
                                   TransactionCanceledException, ValidationException, reason_code)
from partiql.engine.requests import OPERATIONS
from partiql.engine.requests.payload import check_batch_statement, check_transaction

from . import api_only, ast, ast_walk
from .api_only import RefusedSelect
from . import plan as p
from .errors import ScanRefused
from .executor import Executor, shaper
from .index_coverage import empty_index_warnings
from .parser import parse, parse_dml
from .point_reads import point_read
from .planner import (NO_KEY, ExistsTemplate, ExplainTemplate, InsertTemplate, SelectTemplate, TableTemplate,
                      WriteTemplate, plan)
from .result import ConsumedCapacity, PlanSummary, Result

PLAN_CACHE_SIZE = 1024
MAX_STATEMENT_LENGTH = 8192
MAX_BATCH = 25
MAX_TRANSACTION = 100
PARAMETER_MISMATCH = "Number of parameters in request and statement don't match."
BATCH_SELECT = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
TRANSACTION_SELECT = "Select statements within ExecuteTransaction must specify the primary key in the where clause."
KEY_MISMATCH = "The provided key element does not match the schema"
SAME_ITEM_IN_BATCH = "Provided list of item keys contains duplicates"
SAME_ITEM_IN_TRANSACTION = "Transaction request cannot include multiple operations on one item"
MISSING_TABLE = ""  # no table has an empty name: the engine reports ResourceNotFound for it
SCAN_DENIED = ("Full table scans are refused by this connection's scan policy (deny): {}. Pin the "
               "partition key with an equality in WHERE, or set scan_policy to 'warn' or 'allow'")


def _check_payload(check, member: str, statements) -> None:
    """A request limit on the statements as the client sends them (spec §7): ExecuteTransaction's
    4 MB (as TransactWriteItems'), BatchExecuteStatement's 16 MB."""
    check({member: [{"Statement": text, "Parameters": params} for text, params in statements]})


def _check_length(member: str, value, maximum: int) -> None:
    """DynamoDB's member-length constraint (1..maximum), with its message (a string value is quoted)."""
    if value and len(value) <= maximum:
        return
    bound = f"less than or equal to {maximum}" if value else "greater than or equal to 1"
    # INF: AWS renders a list member's value too; we leave lists' values out.
    shown = f" '{value}'" if isinstance(value, str) else ""
    raise ValidationException(f"1 validation error detected: Value{shown} at '{member}' failed to "
                              f"satisfy constraint: Member must have length {bound}")


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
        return self._cached(text, params, shell)[0]

    def _cached(self, text: str, params, shell: bool) -> tuple:
        """(the cached template, its point read or None: ``point_reads``), the parameter count checked."""
        _check_length("statement", text, MAX_STATEMENT_LENGTH)
        key = (text, shell, self.engine.version)
        found = self._plans.get(key)
        if found is None:
            stmt = parse(text) if shell else parse_dml(text)
            count = len(ast_walk.parameters(stmt))
            if count > len(params):  # why: before planning, as DynamoDB reports it first
                raise ValidationException(PARAMETER_MISMATCH)
            with self.engine.lock:  # why: the catalog must not change under the planner; the cache is shared
                template = plan(stmt, self.engine.tables)
                point = point_read(template) if type(template) is SelectTemplate else None
                found = self._plans[key] = (template, count, point)
                if len(self._plans) > PLAN_CACHE_SIZE:
                    self._plans.popitem(last=False)
        if found[1] > len(params):
            raise ValidationException(PARAMETER_MISMATCH)
        return found[0], found[2]

    # ----------------------------------------------------------- statements
    def execute(self, text: str, params, *, limit=None, next_token=None, consistent=False,
                shell=False, return_old=False) -> Result:
        """ExecuteStatement (``shell`` also admits DDL, SHOW, DESCRIBE and EXPLAIN)."""
        if limit is not None and limit < 1:
            raise ValidationException(f"1 validation error detected: Value '{limit}' at 'limit' failed to "
                                      "satisfy constraint: Member must have value greater than or equal to 1")
        template, point = self._cached(text, params, shell)
        if point is not None and next_token is None and self.engine.realism is None:
            with self.engine.throughput.collecting() as throttles:  # (the point lane: issue 34)
                result = point.run(self.engine, params, consistent)
            result.warnings.extend(throttles)
            return result
        if self.engine.realism is not None and type(template) in _ITEM_STATEMENTS:  # (DDL asks as its operation)
            self.engine.realism.statement(self.engine, "ExecuteStatement", template.table,
                                          getattr(template, "index_name", None), isinstance(template, SelectTemplate))
        run = _RUNNERS[type(template)]
        with self.engine.throughput.collecting() as throttles:  # report mode's warnings (throughput.md §1)
            result = run(self, text, template, params, limit=limit, next_token=next_token,
                         consistent=consistent, return_old=return_old)
        result.warnings.extend(throttles)
        return result

    def _select(self, text, template, params, *, limit, next_token, consistent, return_old) -> Result:
        policy = getattr(self.connection, "scan_policy", "allow")
        warnings = []
        if policy != "allow":
            ops, scan = self.executor.select_ops(template, params, consistent)
            warnings = guard_scan(policy, self.executor.summary(template, ops, scan))
        result = self.executor.select(text, template, params, limit=limit, next_token=next_token,
                                      consistent=consistent)
        result.warnings.extend(warnings)
        realism = self.engine.realism
        if realism is not None and realism.consistency is not None and template.projection is None:
            result.items, swapped = realism.statement_items(self.engine, template.table, template.index_name,
                                                            result.items, consistent)
            if swapped:
                result.warnings.append(f"realism: {swapped} of these items served stale (as they were before a write "
                                       "of the last moments: an eventually consistent read; ConsistentRead sees it)")
        return result

    def _write(self, text, template, params, *, limit, next_token, consistent, return_old) -> Result:
        if next_token is not None:
            raise ValidationException("NextToken does not match request")
        return self.executor.write(template, params, return_old)

    def _exists(self, text, template, params, **_) -> Result:
        raise ValidationException("EXISTS can only be used in ExecuteTransaction write requests.")

    def _ask_realism(self, operation: str, templates: list) -> None:
        """A batch or transaction of statements before it runs, to the engine's realism (issue 33), as a request on
        its first planned statement's table."""
        if self.engine.realism is not None:
            self.engine.realism.statement(self.engine, operation, next(
                (getattr(t, "table", None) for t in templates if not isinstance(t, DynamoDBError)), None))

    def _table(self, text, template: TableTemplate, params, **_) -> Result:
        try:
            response = OPERATIONS.call(self.engine, template.operation, template.request)
        except DynamoDBError as error:
            if template.if_exists and _ignorable(template.operation, error):
                return Result(message=f"{template.operation}: nothing to do ({error.message})",
                              plan=PlanSummary(template.operation, template.request.get("TableName")))
            raise
        result = _table_result(template, response)
        for update in template.request.get("GlobalSecondaryIndexUpdates", ()):
            if "Create" in update:
                result.warnings += empty_index_warnings(self.engine, template.request["TableName"],
                                                        update["Create"]["IndexName"])
        return result

    def _explain(self, text, template: ExplainTemplate, params, **options) -> Result:
        summary = self.explain(template.statement, params, options.get("consistent", False))
        return Result(plan=summary, message="EXPLAIN (nothing was executed)")

    def explain(self, template, params, consistent: bool = False) -> PlanSummary:
        """The plan summary of a template, running nothing (with what realism may do to it, when on)."""
        summary = self._summary(template, params, consistent)
        if self.engine.realism is not None and summary.table is not None:
            summary.realism = tuple(self.engine.realism.explain(summary.kind, summary.table, summary.index,
                                                                consistent))
        return summary

    def _summary(self, template, params, consistent: bool) -> PlanSummary:
        if isinstance(template, SelectTemplate):
            ops, scan = self.executor.select_ops(template, params, consistent)
            return self.executor.summary(template, ops, scan)
        if isinstance(template, RefusedSelect):
            return api_only.explain(template, params)
        if isinstance(template, TableTemplate):
            return PlanSummary(template.operation, template.request.get("TableName"),
                               ops=(p.TableOperation(template.operation, template.request),))
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
        _check_length("statements", statements, MAX_BATCH)
        _check_payload(check_batch_statement, "Statements", statements)
        planned = [self._batch_plan(text, params) for text, params in statements]
        self._ask_realism("BatchExecuteStatement", planned)
        kinds = {_kind(entry) for entry in planned if not isinstance(entry, DynamoDBError)}
        if len(kinds) > 1:
            raise ValidationException("Read and write requests together in the same batch is not supported.")
        self._check_distinct(planned, [params for _, params in statements], SAME_ITEM_IN_BATCH)
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

    def _check_distinct(self, planned, all_params, message: str) -> None:
        """A batch or transaction names each item once (statements that cannot run are skipped)."""
        seen = set()
        for entry, params in zip(planned, all_params):
            if isinstance(entry, DynamoDBError):
                continue
            try:
                key = self._item_key(entry, params)
            except DynamoDBError:
                continue
            if key in seen:
                raise ValidationException(message)
            seen.add(key)

    def _item_key(self, template, params) -> tuple:
        """(table, hash, range or None) of the one item a batch statement touches."""
        if isinstance(template, SelectTemplate):
            return (template.table, *_point_key(template, self.executor.select_ops(template, params, False)[0][0]))
        action = self._action(template, params)
        if action.kind != "Put":
            return (template.table, *action.key)
        return (template.table, *(action.item.get(n) for n in (template.key.hash_name, template.key.range_name)))

    def _batch_run(self, text, template, params, consistent: bool = False):
        with self.engine.throughput.collecting() as throttles:
            try:
                if isinstance(template, SelectTemplate):
                    result = self.executor.select(text, template, params, consistent=consistent)
                else:
                    result = self.executor.write(template, params)
            except DynamoDBError as error:
                error.table_name = template.table if error.code != "ValidationException" else None
                return error
        result.warnings.extend(throttles)
        return result

    # ---------------------------------------------------------- transactions
    def transaction(self, statements, token=None, return_old=()) -> list[Result]:
        """ExecuteTransaction: all reads or all writes, atomically."""
        _check_length("transactStatements", statements, MAX_TRANSACTION)
        _check_payload(check_transaction, "TransactStatements", statements)
        templates = [self._transaction_plan(i, text, params) for i, (text, params) in enumerate(statements)]
        self._ask_realism("ExecuteTransaction", templates)
        reads = [isinstance(parse_dml(text), ast.Select) for text, _ in statements]
        if any(reads) and not all(reads):
            raise ValidationException(
                "ExecuteTransaction API does not support both read and write operations in the same request.")
        with self.engine.throughput.collecting() as throttles:  # report mode: on the first result
            if all(reads):
                missing = next((t for t in templates if isinstance(t, DynamoDBError)), None)
                if missing is not None:
                    raise missing
                results = self._transaction_reads(templates, [p for _, p in statements])
            else:
                results = self._transaction_writes(statements, templates, token, return_old)
        if results:
            results[0].warnings.extend(throttles)
        return results

    def _transaction_plan(self, position: int, text: str, params):
        try:
            template = self.template(text, params)
        except ResourceNotFoundException as error:
            return error  # becomes a cancellation reason
        except ValidationException as error:
            if error.message == NO_KEY:
                return ValidationException(KEY_MISMATCH)  # a cancellation reason
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
        for position, (template, params) in enumerate(zip(templates, all_params)):
            try:
                read = self.executor.select_ops(template, params, True)[0][0]
            except ValidationException as error:  # INF: reported like the planning refusals
                raise _in_transaction(position, error) from None
            reads.append((template.table, _point_key(template, read)))
        records, consumed = self.engine.transact_get(reads)
        results = []
        for template, record, units in zip(templates, records, consumed):
            found = [] if record is None else [shaper(template.projection)(record)]
            results.append(Result(found, len(found), 1, None, ConsumedCapacity.of([units]),
                                  PlanSummary("GetItem", template.table)))
        return results

    def _transaction_writes(self, statements, templates, token, return_old) -> list[Result]:
        self._check_distinct(templates, [params for _, params in statements], SAME_ITEM_IN_TRANSACTION)
        actions, errors = [], []
        for i, ((_, params), template) in enumerate(zip(statements, templates)):
            action, error = self._transaction_action(template, params, i in return_old)
            actions.append(action)
            errors.append(error)
        invalid = next(((i, error) for i, error in enumerate(errors) if error is not None), None)
        if invalid is not None:
            # Like the engine: only the first invalid statement is reported, the others read None.
            raise _cancelled(len(actions), *invalid)
        consumed = self.engine.transact_write(actions, token, _fingerprint(statements))
        return [Result(consumed_capacity=ConsumedCapacity.of([units]),
                       plan=PlanSummary(action.kind + ("Item" if action.kind != "ConditionCheck" else ""),
                                        action.table))
                for action, units in zip(actions, consumed)]

    def _transaction_action(self, template, params, return_old: bool) -> tuple:
        """(write action, None) for a statement of a write transaction, or (None, its ValidationException)."""
        if isinstance(template, ResourceNotFoundException):  # the engine reports it with the others' reasons
            return WriteAction("ConditionCheck", MISSING_TABLE, key=(None, None)), None
        if isinstance(template, ValidationException):
            return None, template
        try:
            return self._action(template, params, return_old), None
        except ValidationException as error:
            return None, error


def _cancelled(count: int, position: int, error: ValidationException) -> TransactionCanceledException:
    reasons = [CancellationReason() for _ in range(count)]
    reasons[position] = CancellationReason(reason_code(error), _transaction_message(error))
    return TransactionCanceledException(reasons)


def _transaction_message(error: ValidationException) -> str:
    # Inside a transaction a key of the wrong type reads as a schema mismatch (FL order 26).
    if error.message.startswith(("Key attribute's data type should match", "Key value must be of type")):
        return KEY_MISMATCH
    return error.message


def _fingerprint(statements) -> tuple:
    from partiql.engine.wire_values import to_wire
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
    # INF: a repeated key equality (`pk = 'a' AND pk = ?`) is more than the key, as a filter would be.
    if branch.residual or branch.loose_sort or len(branch.hash_operands) != 1:
        return False
    return key.range_name is None or (branch.sort is not None and branch.sort[0] == "=")


def _point_key(template: SelectTemplate, read) -> tuple:
    """(hash, range or None) of a point read's GetItem."""
    key = template.table_key
    return read.key[key.hash_name], read.key.get(key.range_name)


def guard_scan(policy: str, summary: PlanSummary) -> list:
    """A connection's scan policy on a planned read: ScanRefused for a full Scan under "deny", the
    warning of one under "warn", nothing otherwise (a local and a remote connection alike)."""
    if not summary.full_table_scan or policy == "allow":
        return []
    if policy == "deny":
        raise ScanRefused(SCAN_DENIED.format(summary.access_path), summary.access_path)
    return [f"{summary.access_path}: this statement reads the whole {'index' if summary.index else 'table'} "
            "(a full Scan)"]


def _ignorable(operation: str, error: DynamoDBError) -> bool:
    return ((operation == "CreateTable" and error.code == "ResourceInUseException")
            or (operation == "DeleteTable" and error.code == "ResourceNotFoundException"))


def _table_result(template: TableTemplate, response: dict) -> Result:
    name = template.request.get("TableName")
    summary = PlanSummary(template.operation, name, ops=(p.TableOperation(template.operation, template.request),))
    if template.operation == "ListTables":
        items = [{"TableName": table} for table in response.get("TableNames", [])]
        return Result(items, len(items), plan=summary)
    if template.operation == "DescribeTable":
        return Result([response["Table"]], 1, plan=summary)
    messages = {"CreateTable": f"Table {name} created", "DeleteTable": f"Table {name} dropped",
                "UpdateTable": f"Table {name} altered"}
    return Result(plan=summary, message=messages.get(template.operation, template.operation))


# the statements ExecuteStatement runs on items (DDL, SHOW and DESCRIBE are the shell's; EXPLAIN runs nothing)
_ITEM_STATEMENTS = frozenset({SelectTemplate, InsertTemplate, WriteTemplate, ExistsTemplate})
_RUNNERS = {SelectTemplate: StatementRunner._select, InsertTemplate: StatementRunner._write,
            WriteTemplate: StatementRunner._write, ExistsTemplate: StatementRunner._exists,
            TableTemplate: StatementRunner._table, ExplainTemplate: StatementRunner._explain}
