"""A connection to a DynamoDB over the wire: real DynamoDB, ``partiql serve``, or any endpoint.

``RemoteConnection`` has the ``Connection`` API. Statements run on the
service (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction with
ReturnConsumedCapacity INDEXES): items, NextToken, errors and capacity are
the service's. Before anything is sent, the local planner lowers the
statement against the remote tables' schemas (``catalog``): EXPLAIN sends
nothing, every result says its access path, and the scan policy refuses a
full Scan before it costs anything (``deny``; ``warn`` runs it with a
warning; the default on a remote endpoint is ``warn``). ``read_only``
refuses every write before it is sent. DDL maps to CreateTable /
UpdateTable / DeleteTable and waits, polling DescribeTable, until the table
and its indexes are ACTIVE (or gone), reporting each state to ``progress``.

boto3 is needed here only (the ``aws`` extra).
"""

from __future__ import annotations

import time
from typing import Sequence

from partiql.engine.errors import DynamoDBError, ResourceNotFoundException, ValidationException

from .. import hints
from ..errors import EndpointUnreachable
from ..arguments import ConnectionBase, _check_scan_policy, _python_params, _sequence, _statement, _text
from ..planner import ExplainTemplate, SelectTemplate, TableTemplate
from ..result import ConsumedCapacity, PlanSummary, Result
from ..statements import StatementRunner, _ignorable, _table_result, guard_scan
from .capacity import consumed_from
from .extension import ExtensionClient, NotPartiqlServe
from .catalog import PlanningEngine, RemoteCatalog
from .values import error_from, error_of, item_from_botocore, refused_at_once, to_botocore, unreachable

WAIT_POLL = 1.0          # seconds between DescribeTable calls while a table changes state
WAIT_LIMIT = 15 * 60.0   # seconds DDL waits at most
READ_ONLY = "this connection is read-only (--read-only): {} was not sent"
READS = ("GetItem", "Query", "Scan")
CHANGES_TABLES = ("CreateTable", "UpdateTable", "DeleteTable")


def boto3_module():
    """boto3, or a clear ImportError naming the extra that installs it."""
    try:
        import boto3  # noqa: PLC0415 - only a remote connection needs it (start-up time)
    except ImportError:
        raise ImportError("connecting to DynamoDB or an endpoint needs boto3: "
                          "pip install 'partiql-ddb[aws]'") from None
    return boto3


class RemoteConnection(ConnectionBase):
    """A DynamoDB endpoint you run PartiQL statements against (see the module's docstring; the scan
    policy, ``pages`` and ``with``: ``ConnectionBase``)."""

    path = None  # no database file
    remote = True
    served_file = None  # the database file, when connected to the partiql serve that holds it

    def __init__(self, *, endpoint_url: str | None = None, region: str | None = None, profile: str | None = None,
                 scan_policy: str = "warn", read_only: bool = False, client=None):
        _check_scan_policy(scan_policy)
        self.endpoint_url = endpoint_url
        self.client = client if client is not None else _client(endpoint_url, region, profile)
        self.region = self.client.meta.region_name
        self._scan_policy = scan_policy
        self.read_only = read_only
        self.catalog = RemoteCatalog(self.describe)
        self.runner = StatementRunner(PlanningEngine(self.catalog), self)
        self.progress = None  # progress(text) while DDL waits (the shell's status line)
        self.extension = ExtensionClient(self)
        self._streams = None
        self.closed = False

    @property
    def where(self) -> str:
        """Where statements go: the endpoint URL, or ``dynamodb <region>``."""
        return self.endpoint_url or f"dynamodb {self.region}"

    # --------------------------------------------------------- statements
    def execute(self, statement: str, parameters: Sequence | None = None, *, limit: int | None = None,
                next_token: str | None = None, consistent_read: bool = False) -> Result:
        """Run one statement on the service (EXPLAIN runs nothing; DDL is the control plane's)."""
        self._check_open()
        text, params = _text(statement), _python_params(parameters)
        # (the planner is local: the hints are a local connection's)
        return hints.advised(self, text, params, lambda: self._execute(text, params, limit, next_token,
                                                                       consistent_read))

    def _execute(self, text: str, params: list, limit, next_token, consistent_read) -> Result:
        template = self.runner.template(text, params, shell=True)
        if isinstance(template, ExplainTemplate):
            return Result(plan=self.runner.explain(template.statement, params, consistent_read),
                          message="EXPLAIN (nothing was sent)")
        if isinstance(template, TableTemplate):
            return self._control(template)
        summary = self.runner.explain(template, params, consistent_read)
        warnings = self._guard(template, summary)
        request = {"Statement": text, "ReturnConsumedCapacity": "INDEXES"}
        if params:
            request["Parameters"] = [to_botocore(value) for value in params]
        if consistent_read:
            request["ConsistentRead"] = True
        if limit is not None:
            request["Limit"] = limit
        if next_token is not None:
            request["NextToken"] = next_token
        response = self.call("execute_statement", summary.table, **request)
        items = [item_from_botocore(item) for item in response.get("Items", [])]
        return Result(items, len(items), next_token=response.get("NextToken"), plan=summary, warnings=warnings,
                      consumed_capacity=ConsumedCapacity(consumed_from(response.get("ConsumedCapacity"),
                                                                       reading=summary.kind in READS)))

    def execute_batch(self, statements) -> list:
        """BatchExecuteStatement: a Result or a DynamoDBError per statement, in order."""
        self._check_open()
        entries = [_statement(s) for s in _sequence(statements)]
        summaries = [self._summary(text, params, options) for text, params, options in entries]
        response = self.call("batch_execute_statement", None, ReturnConsumedCapacity="INDEXES",
                              Statements=[_statement_request(*entry) for entry in entries])
        out = []
        for summary, answer in zip(summaries, response.get("Responses", [])):
            if "Error" in answer:
                error = _batch_error(answer["Error"])
                out.append(error)
                continue
            items = [item_from_botocore(answer["Item"])] if "Item" in answer else []
            out.append(Result(items, len(items), plan=summary))
        _carry_capacity(out, response, reading=any(s is not None and s.kind in READS for s in summaries))
        return out

    def execute_transaction(self, statements, client_request_token: str | None = None) -> list[Result]:
        """ExecuteTransaction: every statement's Result, or TransactionCanceledException."""
        self._check_open()
        entries = [_statement(s) for s in _sequence(statements)]
        summaries = [self._summary(text, params, options) for text, params, options in entries]
        request = {"TransactStatements": [_statement_request(*entry) for entry in entries],
                   "ReturnConsumedCapacity": "INDEXES"}
        if client_request_token is not None:
            request["ClientRequestToken"] = client_request_token
        response = self.call("execute_transaction", None, **request)
        out = []
        for summary, answer in zip(summaries, response.get("Responses") or [{}] * len(summaries)):
            items = [item_from_botocore(answer["Item"])] if "Item" in answer else []
            out.append(Result(items, len(items), plan=summary))
        _carry_capacity(out, response, reading=all(s is not None and s.kind in READS for s in summaries))
        return out

    def explain(self, statement: str, parameters: Sequence | None = None) -> PlanSummary:
        """The DynamoDB calls a statement lowers to, sending nothing."""
        text = _text(statement).strip()
        if not text.upper().startswith("EXPLAIN"):
            text = "EXPLAIN " + text
        params = _python_params(parameters)
        return hints.advised(self, text, params, lambda: self.runner.explain(
            self.runner.template(text, params, shell=True).statement, params), results=False)

    def _summary(self, text: str, params: list, options: dict) -> PlanSummary | None:
        """A batch's or transaction's statement as planned here, after the guard; None when it does not
        plan (the service says why, in its answer)."""
        try:
            template = self.runner.template(text, params)
            summary = self.runner.explain(template, params, options.get("consistent_read", False))
        except DynamoDBError:
            return None
        self._guard(template, summary)
        return summary

    def _guard(self, template, summary: PlanSummary) -> list:
        """Refuse what must not be sent (a write on a read-only connection, a denied full Scan); the
        warnings of what may."""
        if self.read_only and not isinstance(template, SelectTemplate):
            raise ValidationException(READ_ONLY.format(summary.access_path))
        return guard_scan(self.scan_policy, summary)

    # ------------------------------------------------------------ control
    def _control(self, template: TableTemplate) -> Result:
        operation, request = template.operation, template.request
        if self.read_only and operation not in ("DescribeTable", "ListTables"):
            raise ValidationException(READ_ONLY.format(f"{operation} of {request.get('TableName')}"))
        if operation == "ListTables":
            return _table_result(template, {"TableNames": self.table_names()})
        name = request.get("TableName")
        try:
            response = self.control(operation, request)
        except DynamoDBError as error:
            if template.if_exists and _ignorable(operation, error):
                return Result(message=f"{operation}: nothing to do ({error.message})", plan=PlanSummary(operation, name))
            raise
        return _table_result(template, response)

    def control(self, operation: str, request: dict) -> dict:
        """A control-plane operation by DynamoDB's name, with its request; after CreateTable, UpdateTable
        or DeleteTable it waits until the table and its indexes are ACTIVE (or the table is gone)."""
        self._check_open()
        name = request.get("TableName")
        response = self.call(_snake(operation), name, **request)
        if operation in CHANGES_TABLES:
            self.catalog.forget(name)
            self.wait(name, gone=operation == "DeleteTable")
        return response

    def wait(self, name: str, gone: bool = False) -> None:
        """Until table ``name`` and its indexes are ACTIVE (``gone``: until it no longer exists)."""
        deadline = time.monotonic() + WAIT_LIMIT
        while time.monotonic() < deadline:
            try:
                table = self.describe(name)
            except ResourceNotFoundException:
                if gone:
                    return
                raise
            states = [table.get("TableStatus")] + [index.get("IndexStatus") for index in
                                                   table.get("GlobalSecondaryIndexes") or []]
            if not gone and all(state == "ACTIVE" for state in states):
                return
            if self.progress is not None:
                self.progress(f"{name}: {', '.join(s for s in states if s)}")
            time.sleep(WAIT_POLL)
        raise TimeoutError(f"{name} did not become {'deleted' if gone else 'ACTIVE'} within {WAIT_LIMIT:.0f} s")

    # ------------------------------------------------------------- catalog
    def table_names(self) -> list[str]:
        self._check_open()
        names, start = [], {}
        while True:
            page = self.call("list_tables", None, **start)
            names += page.get("TableNames", [])
            if "LastEvaluatedTableName" not in page:
                return names
            start = {"ExclusiveStartTableName": page["LastEvaluatedTableName"]}

    def describe(self, table: str) -> dict:
        """The service's TableDescription."""
        return self.call("describe_table", table, TableName=table)["Table"]

    def attribute_names(self, table: str, sample: int = 200, path: tuple = ()) -> list[str]:
        """The key attributes of the table and its indexes (nothing is read: a sample would cost)."""
        if path:
            return []
        found = self.catalog.get(table)
        if found is None:
            return []
        names = list(found.spec.key.names)
        for index in found.spec.indexes:
            names += [n for n in index.key.names if n not in names]
        return names

    # --------------------------------------------------------- import / export
    def import_items(self, table: str, path, format: str | None = None, *, continue_on_error: bool = False,
                     types: dict | None = None, progress=None, max_wcu: float | None = None):
        """Load items from a file into the remote ``table`` within its capacity (``partiql.remote.transfer``)."""
        from .transfer import import_items
        self._check_open()
        if self.read_only:
            raise ValidationException(READ_ONLY.format(f"an import into {table}"))
        return import_items(self, table, path, format, continue_on_error=continue_on_error, types=types,
                            progress=progress, max_wcu=max_wcu)

    def export_items(self, table: str, path, format: str | None = None, *, progress=None,
                     max_rcu: float | None = None, segments: int | None = None):
        """Write every item of the remote ``table`` to a file (parallel Scan segments, ``max_rcu`` paced)."""
        from .transfer import SEGMENTS, export_items
        self._check_open()
        return export_items(self, table, path, format, progress=progress, max_rcu=max_rcu,
                            segments=segments or SEGMENTS)

    # ------------------------------------------- partiql serve's extension API
    def layout(self, table: str) -> dict:
        """``{"partitions", "key_spread", "advice"}`` of ``table`` from ``partiql serve`` (its
        extension API); empty elsewhere: how items spread takes a Scan, which a remote table charges for."""
        self._check_open()
        try:
            return self.extension.layout(table)
        except NotPartiqlServe:
            return {"partitions": [], "key_spread": {}, "advice": []}

    def key_spread(self, table: str) -> dict:
        """How ``table``'s items spread over partition-key values (``partiql serve`` only, else nothing)."""
        return self.layout(table)["key_spread"]

    def design_advice(self, table: str) -> list[str]:
        """Advice on ``table``'s design (``partiql serve`` only, else nothing)."""
        return self.layout(table)["advice"]

    def metrics(self, table: str, index: str | None = None, last: int = 60):
        """The throughput metrics ``partiql serve`` keeps of ``table`` or its GSI ``index`` (see
        ``Connection.metrics``); ValueError from any other DynamoDB, which keeps none."""
        self._check_open()
        try:
            return self.extension.metrics(table, index, last)
        except NotPartiqlServe:
            raise NotPartiqlServe(f"{self.where} keeps no partition metrics: they are partiql-ddb's (a local "
                                  "database, or one partiql serve serves)") from None

    def backup(self, dest) -> None:
        """``partiql serve``'s online backup of the file it serves, to the new file ``dest`` (made absolute
        here: the server's working directory is not ours); ValueError from any other DynamoDB."""
        import os
        self._check_open()
        try:
            self.extension.backup(os.path.abspath(os.fspath(dest)))
        except NotPartiqlServe:
            raise NotPartiqlServe(f"{self.where} has no database file to copy (DynamoDB's own backups: "
                                  "CreateBackup)") from None

    def changes(self, table: str, start: str = "TRIM_HORIZON", wait: float | None = None):
        """The table's changes through the DynamoDB Streams API (see ``partiql.remote.changes``)."""
        from .changes import RemoteChanges
        self._check_open()
        return RemoteChanges(self, table, start, wait)

    def streams_client(self):
        """A DynamoDB Streams client for the same endpoint, region and credentials."""
        if self._streams is None:
            credentials = self.client._get_credentials()  # noqa: SLF001 - (the client's own, see extension.py)
            keys = {} if credentials is None else {
                "aws_access_key_id": credentials.access_key, "aws_secret_access_key": credentials.secret_key,
                "aws_session_token": credentials.token}
            self._streams = refused_at_once(boto3_module().client(
                "dynamodbstreams", endpoint_url=self.endpoint_url, region_name=self.region, **keys), self.endpoint_url)
        return self._streams

    # ------------------------------------------------------------------ life
    def close(self) -> None:
        self.closed = True
        self.extension.close()
        for client in (self.client, self._streams):
            close = getattr(client, "close", None)
            if close is not None:
                close()

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError(f"the connection to {self.where} is closed")

    # ------------------------------------------------------------- calls
    def call(self, method: str, table: str | None, *, via=None, **request) -> dict:
        """One call to the service (``via`` another client of it: Streams); its error as DynamoDB's
        exception (the table's schema is read again after an error that may mean it changed)."""
        from botocore.exceptions import ClientError, ConnectionError as Unreached, HTTPClientError
        try:
            return getattr(via or self.client, method)(**request)
        except ClientError as error:
            converted = error_from(error)
            if table is not None and converted.code in ("ResourceNotFoundException", "ValidationException"):
                self.catalog.forget(table)
            raise converted from None
        except (Unreached, HTTPClientError) as error:  # (the network: one clear line, never a traceback)
            raise EndpointUnreachable(unreachable(self.where, self.endpoint_url, error)) from None


def _client(endpoint_url, region, profile):
    boto3 = boto3_module()
    from botocore.config import Config
    session = boto3.Session(profile_name=profile, region_name=region)
    if session.region_name is None:
        if endpoint_url is None:
            raise ValueError("no AWS region: give --region (region= in the library), or set AWS_REGION or a "
                             "profile's region")
        session = boto3.Session(profile_name=profile, region_name="us-east-1")  # a local endpoint takes any
    options = {}
    if endpoint_url is not None and session.get_credentials() is None:
        # why: a local endpoint (partiql serve, DynamoDB Local, moto) takes any credentials
        options = {"aws_access_key_id": "partiql", "aws_secret_access_key": "partiql"}
    return refused_at_once(session.client("dynamodb", endpoint_url=endpoint_url, config=Config(
        retries={"mode": "standard", "max_attempts": 5}, connect_timeout=10), **options), endpoint_url)


def _snake(operation: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in operation).lstrip("_")


def _statement_request(text: str, params: list, options: dict) -> dict:
    out = {"Statement": text}
    if params:
        out["Parameters"] = [to_botocore(value) for value in params]
    if options.get("consistent_read"):
        out["ConsistentRead"] = True
    if options.get("return_old"):
        out["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
    return out


def _carry_capacity(results: list, response: dict, reading: bool) -> None:
    """The service reports a batch's or a transaction's capacity per table, not per statement: the
    first Result carries it."""
    first = next((r for r in results if isinstance(r, Result)), None)
    if first is not None and response.get("ConsumedCapacity"):
        first.consumed_capacity = ConsumedCapacity(consumed_from(response["ConsumedCapacity"], reading))


def _batch_error(body: dict) -> DynamoDBError:
    item = body.get("Item")
    error = error_of(body.get("Code", "InternalServerError"), body.get("Message", ""),
                     None if item is None else item_from_botocore(item))
    error.table_name = None
    return error
