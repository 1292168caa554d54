"""The library: ``connect()``, ``Connection`` and how statements run.

A ``Connection`` owns an engine, caches parsed and planned statements by
text (and catalog version), and runs statements with DynamoDB's
ExecuteStatement, BatchExecuteStatement and ExecuteTransaction semantics.
Parameters are Python values (str, int/Decimal, bytes, bool, None, list,
dict, set); results carry Python values too.
"""

from __future__ import annotations

import os
from typing import Sequence

from partiql.engine import Engine
from partiql.engine.clock import resolve_clock
from partiql.engine.throughput import check_switches
from partiql.engine.limits import Limits
from partiql.engine.storage import DatabaseLocked, open_storage

from . import hints
from .arguments import (ConnectionBase, _check_scan_policy, _positions, _python_params, _sequence, _statement,
                        _text)
from .result import PlanSummary, Result
from .statements import StatementRunner


MEMORY = ":memory:"


def connect(path: str | os.PathLike | None = None, *, durability: str = "normal",
            limits: Limits | None = None, throughput: str = "report", adaptive_capacity: bool = True,
            clock=None, scan_policy: str | None = None, read_only: bool = False, endpoint_url: str | None = None,
            region: str | None = None, profile: str | None = None, realism=None, index_timing: str = "instant"):
    """Open a database: in memory (``path`` None, or ``":memory:"`` as SQLite spells it) or a
    durable single file.

    ``connect("app.db")`` opens ``app.db``, creating it if needed, with its
    tables, indexes, items and settings; every write, batch and transaction
    reaches the file atomically before the call returns, and reads run from
    memory. One connection owns a file at a time: opening it again (here or
    in another process) raises ``DatabaseLocked`` naming the holder's pid —
    unless the holder serves it (``partiql serve FILE``): then the connection
    goes through that server (a ``RemoteConnection``; boto3 needed).
    A file that is not a database, is damaged, or was written by a newer
    version raises ``StorageError`` and is left untouched; an older format
    is migrated. ``durability="full"`` also survives power cuts (an fsync per
    write); the default survives the process being killed at any point.
    Close the connection (or use it in a ``with`` block) to release the file.
    ``read_only=True`` opens a snapshot of what the file holds now, even while
    another process has it open (no lock is taken; every write raises
    ``StorageError`` saying how to share the file: ``partiql serve``).

    Partition throughput (spec throughput.md §1): ``throughput="report"``
    (default) serves what DynamoDB would throttle and warns of it
    (``Result.warnings``); ``"enforce"`` raises DynamoDB's throttles;
    ``"off"`` counts nothing. ``adaptive_capacity=False`` models the classic
    even split of a table's throughput over its partitions. ``clock`` (a
    zero-argument callable returning seconds, e.g. ``VirtualClock``) is the
    time throughput, TTL and streams run on.

    ``realism`` switches production behaviours on (off by default): a preset name, a TOML file or a dict
    (``partiql.engine.realism``: scripted faults, each logged as injected, on a seeded generator).
    ``index_timing="realistic"`` walks vector indexes through DynamoDB's phases on the clock (allocation,
    backfill, the search lag, DELETING: vector-search.md §3); "instant" (the default) makes them ACTIVE at once.

    ``scan_policy`` is what a full Scan does on this connection (see
    ``Connection.scan_policy``; default "allow"); it belongs to the connection,
    not to the file.

    ``connect(endpoint_url="http://localhost:8000")`` or ``connect(region="eu-west-1")``
    (real DynamoDB, with the usual AWS credential chain; ``profile`` picks a
    profile) returns a ``partiql.remote.RemoteConnection`` with the same API:
    statements run on the service, EXPLAIN and the scan policy (default "warn"
    there) are decided before anything is sent, ``read_only`` refuses writes
    before they are sent. It needs boto3 (``pip install 'partiql-ddb[aws]'``).
    """
    if isinstance(path, str) and path == MEMORY:  # (not a file named so: SQLite's word, as users write it)
        path = None
    if endpoint_url is not None or region is not None or profile is not None:
        if path is not None:
            raise ValueError("connect() takes a database file or an endpoint (endpoint_url, region, profile), "
                             "not both")
        from .remote import RemoteConnection
        return RemoteConnection(endpoint_url=endpoint_url, region=region, profile=profile,
                                scan_policy=scan_policy or "warn", read_only=read_only)
    scan_policy = scan_policy or "allow"
    check_switches(throughput, adaptive_capacity)  # before a file is opened
    _check_scan_policy(scan_policy)
    if realism is not None or index_timing != "instant":  # (off: the realism package, and tomllib with it,
        from .engine.realism import realism_from, with_index_timing  # stays unloaded: start-up time)

        # (before a file is opened: a mistake there opens nothing)
        realism = with_index_timing(None if realism is None else realism_from(realism), index_timing)
    resolve_clock(clock)
    if read_only and path is None:
        raise ValueError("read_only takes a database file: an in-memory database is always writable")
    try:
        storage = None if path is None else open_storage(os.fspath(path), durability=durability,
                                                         read_only=read_only)
    except DatabaseLocked as error:
        if error.url is None:
            raise
        return _through_server(error, os.fspath(path), scan_policy, read_only)
    try:
        engine = Engine(limits, storage=storage, clock=clock, throughput=throughput,
                        adaptive_capacity=adaptive_capacity)
        engine.realism = realism
        return Connection(engine, scan_policy)
    except BaseException:
        if storage is not None:
            storage.close()
        raise


def _through_server(locked: DatabaseLocked, path: str, scan_policy: str, read_only: bool):
    """A connection to the server that holds (and serves) the file; ``locked`` when boto3 is missing."""
    from .remote import RemoteConnection
    try:
        connection = RemoteConnection(endpoint_url=locked.url, scan_policy=scan_policy, read_only=read_only)
    except ImportError as missing:
        raise DatabaseLocked(f"{locked} It is served at {locked.url}; {missing}", locked.holder,
                             locked.url) from None
    connection.served_file = path
    return connection


class Connection(ConnectionBase):
    """A database you run PartiQL statements against (the scan policy, ``pages`` and ``with``: see
    ``ConnectionBase``; default scan policy "allow")."""

    remote = False  # (partiql.remote.RemoteConnection: True)

    def __init__(self, engine: Engine, scan_policy: str = "allow"):
        self.engine = engine
        self._scan_policy = scan_policy
        self.runner = StatementRunner(engine, self)
        self.closed = False

    @property
    def path(self) -> str | None:
        """The database file, or None for an in-memory database."""
        return self.engine.storage.path

    # --------------------------------------------------------- statements
    def execute(self, statement: str, parameters: Sequence | None = None, *, limit: int | None = None,
                next_token: str | None = None, consistent_read: bool = False) -> Result:
        """Run one statement (PartiQL, DDL, SHOW TABLES, DESCRIBE or EXPLAIN)."""
        self._check_open()
        params = _python_params(parameters)
        text = _text(statement)
        return hints.advised(self, text, params, lambda: self.runner.execute(
            text, params, limit=limit, next_token=next_token, consistent=consistent_read, shell=True))

    def execute_batch(self, statements) -> list:
        """BatchExecuteStatement: a Result or a DynamoDBError per statement, in order.

        Each element is a statement, a ``(statement, parameters)`` pair or a
        ``(statement, parameters, options)`` triple whose options may set
        ``consistent_read`` and ``return_old`` (ReturnValuesOnConditionCheckFailure
        ALL_OLD, inert in batches as in DynamoDB).
        """
        self._check_open()
        entries = [_statement(s) for s in _sequence(statements)]
        return self.runner.batch([(text, params) for text, params, _ in entries],
                                 return_old=_positions(entries, "return_old"),
                                 consistent=_positions(entries, "consistent_read"))

    def execute_transaction(self, statements, client_request_token: str | None = None) -> list[Result]:
        """ExecuteTransaction: every statement's Result, or TransactionCanceledException.

        Elements as for ``execute_batch``; the ``return_old`` option puts the
        current item into that statement's cancellation reason.
        """
        self._check_open()
        entries = [_statement(s) for s in _sequence(statements)]
        return self.runner.transaction([(text, params) for text, params, _ in entries], client_request_token,
                                       _positions(entries, "return_old"))

    def explain(self, statement: str, parameters: Sequence | None = None) -> PlanSummary:
        """The DynamoDB calls a statement lowers to, without running it."""
        text = _text(statement).strip()
        if not text.upper().startswith("EXPLAIN"):
            text = "EXPLAIN " + text
        params = _python_params(parameters)
        return hints.advised(self, text, params, lambda: self.runner.execute(text, params, shell=True).plan,
                             results=False)

    # ------------------------------------------------------------- catalog
    def control(self, operation: str, request: dict) -> dict:
        """A control-plane operation (CreateTable, UpdateTable, DescribeTimeToLive, …) by DynamoDB's name,
        with its request; DynamoDB's response."""
        from partiql.engine.requests import OPERATIONS
        self._check_open()
        return OPERATIONS.call(self.engine, operation, request)

    def table_names(self) -> list[str]:
        return self.engine.table_names()

    def describe(self, table: str) -> dict:
        """DynamoDB's TableDescription, with the table's partitions."""
        return self.engine.describe_table(TableName=table)["Table"]

    def key_spread(self, table: str) -> dict:
        """How ``table``'s items spread over partition-key values, for the table (key None) and each
        index: ``{name: (values, items, largest value, its items)}`` (a scan of every index)."""
        with self.engine.lock:
            found = self.engine.table(table)
            return {None: found.key_spread(), **{index.name: found.key_spread(index)
                                                 for index in found.spec.indexes}}

    def design_advice(self, table: str) -> list[str]:
        """Advice on ``table``'s design from a sample of its items: key attributes of concatenated values a
        multi-attribute GSI would replace (``composite_keys``)."""
        from .composite_keys import concatenated_keys
        with self.engine.lock:
            return [found.advice() for found in concatenated_keys(self.engine.table(table))]

    def layout(self, table: str) -> dict:
        """What ``.describe`` shows beyond DynamoDB's description: ``{"partitions": describe's
        Partitions, "key_spread": key_spread(table), "advice": design_advice(table)}``."""
        return {"partitions": self.describe(table).get("Partitions", []), "key_spread": self.key_spread(table),
                "advice": self.design_advice(table)}

    def metrics(self, table: str, index: str | None = None, last: int = 60):
        """The last ``last`` seconds (1-3,600) of ``table``'s or its GSI ``index``'s partitions: consumed
        units, throttles by reason, top keys (``engine.throughput.report.Metrics``; what ``.heat`` draws).
        ValueError for an index the table does not have."""
        self._check_open()
        return self.engine.throughput.metrics(table, index, last=last)

    def search(self, table: str, index: str, vector=None, *, like=None, top: int = 10, where: dict | None = None,
               project: list | None = None) -> tuple:
        """SearchVectors on ``table``'s vector index ``index`` (vector-search.md §5): the ``top`` items nearest
        ``vector`` (numbers), or the vector of the item whose key is ``like``; ``where`` the SearchSchema values
        they must have, ``project`` the attributes returned. ``(results, bytes examined)``: each result its
        item's attributes and ``"score"``, closest first (``partiql.vector_search``)."""
        from .vector_search import search, search_request

        self._check_open()
        return search(self.engine, search_request(self.engine, table, index, vector, like=like, top=top,
                                                  where=where, project=project))

    def vector_metrics(self, table: str, index: str, last: int = 60) -> list:
        """The last ``last`` seconds of ``table``'s vector index ``index``: ``[second, VectorSearchRequestBytes,
        VectorWriteRequestBytes]`` each (vector-search.md §6.5). ValueError for an index the table does not have."""
        self._check_open()
        with self.engine.lock:
            return self.engine.table(table).vectors.metrics(index, last)

    def attribute_names(self, table: str, sample: int = 200, path: tuple = ()) -> list[str]:
        """Key attributes first, then attribute names seen in a sample of items; with ``path``
        (``("Ship",)``), the keys of the maps found there instead."""
        with self.engine.lock:
            found = self.engine.table(table)
            names = [] if path else list(found.spec.key.names)
            if not path:
                for index in found.spec.indexes:
                    names += [n for n in index.key.names if n not in names]
            for count, record in enumerate(found.store.scan(None)):
                if count >= sample:
                    break
                value = record.item
                for step in path:
                    value = value.get(step) if isinstance(value, dict) else None
                if isinstance(value, dict):
                    names += [n for n in value if n not in names]
        return names

    # -------------------------------------------------------------- streams
    def changes(self, table: str, start: str = "TRIM_HORIZON", wait: float | None = None):
        """The table's changes as its stream records them (see ``partiql.changes``): iterate, or
        ``poll()``; ``start`` "TRIM_HORIZON", "LATEST" or a sequence number; ``wait`` seconds for a
        next record (None: until ``close()``)."""
        from .changes import Changes
        self._check_open()
        return Changes(self.engine, table, start, wait)

    # --------------------------------------------------------- import / export
    def import_items(self, table: str, path, format: str | None = None, *, continue_on_error: bool = False,
                     types: dict | None = None, progress=None):
        """Load items from a file into ``table``; see ``partiql.transfer.import_items``."""
        from . import transfer  # why: csv/gzip are imported only when a transfer runs
        self._check_open()
        return transfer.import_items(self.engine, table, path, format, continue_on_error=continue_on_error,
                                     types=types, progress=progress)

    def export_items(self, table: str, path, format: str | None = None, *, progress=None):
        """Write every item of ``table`` to a file; see ``partiql.transfer.export_items``."""
        from . import transfer
        self._check_open()
        return transfer.export_items(self.engine, table, path, format, progress=progress)

    def backup(self, dest) -> None:
        """Copy the database file, as it is now, to the new file ``dest`` (SQLite's online backup:
        consistent, and including what is still in the write-ahead log). StorageError for an
        in-memory database or an existing ``dest``."""
        self._check_open()
        self.engine.storage.backup(dest)

    # ------------------------------------------------------------------ life
    def close(self) -> None:
        """Release the database: a file is flushed and unlocked; later statements raise."""
        self.closed = True
        self.engine.storage.close()

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError(f"the database {self.path or '(in memory)'} is closed")
