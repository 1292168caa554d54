"""A remote table's changes through the DynamoDB Streams API: ``RemoteConnection.changes(table, ...)``.

The same reader as a local ``partiql.changes.Changes`` (``poll``,
``wait_for``, iteration, ``close``, ``with``), over ListStreams' cousins on
the wire: DescribeStream finds the shards (paged), GetShardIterator opens
each, GetRecords reads them, and a shard that closes (a partition split) is
followed into its children, read from their start. Records come back as
Python values, in sequence order across shards, with
``ApproximateCreationDateTime`` in epoch seconds, as the local reader gives
them. GetRecords is asked at most every ``INTERVAL`` seconds (DynamoDB allows
five calls a second per shard). This works against ``partiql serve``,
DynamoDB Local and real DynamoDB alike.
"""

from __future__ import annotations

import time

from partiql.changes import STARTS, Feed, sequence_number
from partiql.engine.errors import ValidationException

from .values import item_from_botocore

INTERVAL = 0.25  # seconds between GetRecords rounds


class RemoteChanges(Feed):
    """The records of one remote table's stream from a position on (see the module's docstring)."""

    def __init__(self, connection, table: str, start: str = "TRIM_HORIZON", wait: float | None = None):
        description = connection.describe(table)
        arn = description.get("LatestStreamArn") if description.get("StreamSpecification") else None
        if arn is None:
            raise ValidationException(f"Table {table} has no stream enabled: CREATE or ALTER it with a "
                                      "StreamSpecification first")
        self.client = connection.streams_client()
        self.call = connection.call
        self.arn = arn
        self.wait = wait
        self.closed = False
        self.first, self.minimum = _start(start)
        self.iterators: dict = {}   # shard id -> its next iterator
        self.known: set = set()     # every shard id seen
        self.last: dict = {}        # shard id -> the last sequence number read from it
        self.buffer: list = []
        self.fetched = 0.0
        self._discover(self.first)

    # ------------------------------------------------------------- reading
    def poll(self, limit: int | None = None) -> list:
        """The records committed since the last one returned (at most ``limit``), without waiting."""
        if not self.buffer and time.monotonic() - self.fetched >= INTERVAL:
            self._fetch()
        found, self.buffer = (self.buffer, []) if limit is None else (self.buffer[:limit], self.buffer[limit:])
        return found

    def wait_for(self, timeout: float | None) -> bool:
        """Wait until a record is there to ``poll`` (True), ``timeout`` seconds pass or the feed is
        closed (False)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.closed and not self.buffer:
            pause = max(0.0, self.fetched + INTERVAL - time.monotonic())
            if deadline is not None and time.monotonic() + pause > deadline:
                time.sleep(max(0.0, deadline - time.monotonic()))
                return False
            time.sleep(pause)
            self._fetch()
        return bool(self.buffer) and not self.closed

    def close(self) -> None:
        self.closed = True

    # ------------------------------------------------------------- shards
    def _fetch(self) -> None:
        self.fetched = time.monotonic()
        found, closed = [], False
        for shard, iterator in list(self.iterators.items()):
            answer = self.call("get_records", None, ShardIterator=iterator, Limit=1000, via=self.client)
            records = [_record(r) for r in answer.get("Records", [])]
            if records:
                self.last[shard] = records[-1]["dynamodb"]["SequenceNumber"]
            found += records
            following = answer.get("NextShardIterator")
            if following is None:  # (closed by a split: its children are read from their start)
                del self.iterators[shard]
                closed = True
            else:
                self.iterators[shard] = following
        if closed:
            self._discover("TRIM_HORIZON")
        if self.minimum is not None:
            found = [r for r in found if int(r["dynamodb"]["SequenceNumber"]) >= self.minimum]
        self.buffer += sorted(found, key=lambda r: int(r["dynamodb"]["SequenceNumber"]))

    def _discover(self, kind: str) -> None:
        """Open an iterator on every shard not seen yet (DescribeStream, paged)."""
        start: dict = {}
        while True:
            answer = self.call("describe_stream", None, StreamArn=self.arn, via=self.client, **start)
            description = answer["StreamDescription"]
            for shard in description.get("Shards", []):
                name = shard["ShardId"]
                if name not in self.known:
                    self.known.add(name)
                    self.iterators[name] = self.call("get_shard_iterator", None, StreamArn=self.arn, ShardId=name,
                                                     ShardIteratorType=kind, via=self.client)["ShardIterator"]
            if "LastEvaluatedShardId" not in description:
                return
            start = {"ExclusiveStartShardId": description["LastEvaluatedShardId"]}


def _start(start) -> tuple:
    """(the iterator type of the shards there now, the least sequence number to return or None)."""
    if start in STARTS:
        return start, None
    # why: a sequence number belongs to one shard; every shard is read from its start and what comes
    # before the number is left out (sequence numbers grow with time across a stream's shards)
    return "TRIM_HORIZON", sequence_number(start)


def _record(record: dict) -> dict:
    """A botocore stream record as the local reader gives it: Python values, epoch seconds."""
    body = dict(record["dynamodb"])
    for member in ("Keys", "NewImage", "OldImage"):
        if member in body:
            body[member] = item_from_botocore(body[member])
    when = body.get("ApproximateCreationDateTime")
    if hasattr(when, "timestamp"):
        body["ApproximateCreationDateTime"] = when.timestamp()
    return dict(record, dynamodb=body)
