"""The partiql-ddb extension API: what ``partiql serve`` answers beyond DynamoDB, for a second shell.

DynamoDB has no partitions you can see, no throughput metrics per partition
and no database file, so none of this is mixed into DynamoDB's own
operations or members: it is an API version of its own, the ``X-Amz-Target``
prefix ``PartiQLDDB_20261127``, JSON 1.0 over the same socket, signed as
DynamoDB's requests are (service ``dynamodb``). Any other DynamoDB answers it
``UnknownOperationException``, which is how a client tells ``partiql serve``
from the rest. Its operations:

- ``DescribeTableLayout`` ``{TableName}`` → ``{Partitions, KeySpread, Advice}``:
  the table's partitions (hash ranges as decimal text: they reach 2^64, more
  than a JSON number holds exactly), how its items and each index's spread
  over partition-key values, and the design advice of a sample of items
  (what ``.describe`` shows of a local file).
- ``DescribeThroughputMetrics`` ``{TableName, IndexName?, Seconds?}`` →
  ``{Metrics}``: the last ``Seconds`` (1-3,600, default 60) of the table's or
  GSI's partitions, throttles and top keys (what ``.heat`` draws).
- ``CreateBackupFile`` ``{Path}`` → ``{Path, SizeBytes}``: an online backup of
  the served file to the new file ``Path`` on the server's machine (absolute;
  refused where it exists, and by a server that listens beyond loopback
  without ``--credentials``: anyone could write files there).

Key values travel as DynamoDB's attribute values; a multi-attribute key's
values as a list. ``OPERATIONS`` is the server's side (each takes the
server's ``Handler``: its ``connection``, and ``file_writes``); the
``*_from_wire`` functions are the client's.
"""

from __future__ import annotations

import os

from partiql.engine.errors import ValidationException
from partiql.engine.throughput.report import Metrics, PartitionMetrics
from partiql.engine.wire_values import from_wire, to_wire

PREFIX = "PartiQLDDB_20261127"
SECONDS = (1, 3600)


class FileWritesRefused(ValidationException):
    """CreateBackupFile on a server anyone on the network may call."""


# ------------------------------------------------------------------ server side

def describe_table_layout(handler, request: dict) -> dict:
    connection, name = handler.connection, _text(request, "TableName")
    description = connection.describe(name)
    return {"Partitions": [dict(p, KeyHashRange=[str(n) for n in p["KeyHashRange"]])
                           for p in description.get("Partitions", [])],
            "KeySpread": spread_to_wire(connection.key_spread(name)),
            "Advice": connection.design_advice(name)}


def describe_throughput_metrics(handler, request: dict) -> dict:
    name = _text(request, "TableName")
    index = _text(request, "IndexName") if "IndexName" in request else None
    last = request.get("Seconds", 60)
    if type(last) is not int or not SECONDS[0] <= last <= SECONDS[1]:
        raise ValidationException(f"Seconds must be a whole number from {SECONDS[0]} to {SECONDS[1]}, "
                                  f"not {last!r}")
    try:
        found = handler.connection.metrics(name, index, last=last)
    except ValueError as error:  # (an index the table does not have)
        raise ValidationException(str(error)) from None
    return {"Metrics": metrics_to_wire(found)}


def create_backup_file(handler, request: dict) -> dict:
    path = _text(request, "Path")
    if not handler.file_writes:
        raise FileWritesRefused("CreateBackupFile is refused: this server listens beyond loopback without "
                                "--credentials, so anyone who reaches it could write files")
    if not os.path.isabs(path):
        raise ValidationException(f"Path must be absolute (the server's working directory is not yours): {path}")
    try:
        handler.connection.backup(path)
    except OSError as error:  # StorageError: in memory, Path exists, no such directory, a full disk
        raise ValidationException(str(error)) from None
    return {"Path": path, "SizeBytes": os.path.getsize(path)}


OPERATIONS = {"DescribeTableLayout": describe_table_layout,
              "DescribeThroughputMetrics": describe_throughput_metrics,
              "CreateBackupFile": create_backup_file}


def _text(request, member: str) -> str:
    value = request.get(member) if isinstance(request, dict) else None
    if not isinstance(value, str) or not value:
        raise ValidationException(f"{member} must be a non-empty string, not {value!r}")
    return value


# ------------------------------------------------------------------ codecs

def _key_to_wire(key) -> dict:
    return {"L": [to_wire(part) for part in key]} if isinstance(key, tuple) else to_wire(key)


def _key_from_wire(value: dict):
    return tuple(from_wire(part) for part in value["L"]) if "L" in value else from_wire(value)


def spread_to_wire(spread: dict) -> list:
    """``Connection.key_spread``'s answer as JSON (a multi-attribute index's largest value: a map)."""
    return [{**({} if name is None else {"IndexName": name}), "Values": values, "Items": items,
             **({} if largest is None else {"Largest": to_wire(largest)}), "LargestItems": most}
            for name, (values, items, largest, most) in spread.items()]


def spread_from_wire(entries: list) -> dict:
    return {entry.get("IndexName"): (entry["Values"], entry["Items"],
                                     from_wire(entry["Largest"]) if "Largest" in entry else None,
                                     entry["LargestItems"]) for entry in entries}


def partitions_from_wire(partitions: list) -> list:
    return [dict(p, KeyHashRange=[int(n) for n in p["KeyHashRange"]]) for p in partitions]


def metrics_to_wire(found: Metrics) -> dict:
    """``Metrics`` as JSON: hash ranges as text, keys as attribute values."""
    return {"Table": found.table, **({} if found.index is None else {"Index": found.index}),
            "Seconds": found.seconds, "Consumed": found.consumed, "Throttled": found.throttled,
            "Events": found.events,
            "Partitions": [{"Number": p.number, "Lo": str(p.lo), "Hi": str(p.hi), "Items": p.items,
                            "Seconds": p.seconds} for p in found.partitions],
            "TopConsumed": [[_key_to_wire(key), units] for key, units in found.top_consumed],
            "TopThrottled": [[_key_to_wire(key), events] for key, events in found.top_throttled],
            "KeysThrottled": found.keys_throttled, "Ceilings": list(found.ceilings)}


def metrics_from_wire(data: dict) -> Metrics:
    return Metrics(data["Table"], data.get("Index"), data["Seconds"], [tuple(c) for c in data["Consumed"]],
                   [tuple(t) for t in data["Throttled"]], data["Events"],
                   [PartitionMetrics(p["Number"], int(p["Lo"]), int(p["Hi"]), p["Items"],
                                     [tuple(s) for s in p["Seconds"]]) for p in data["Partitions"]],
                   [(_key_from_wire(key), units) for key, units in data["TopConsumed"]],
                   [(_key_from_wire(key), events) for key, events in data["TopThrottled"]],
                   data["KeysThrottled"], tuple(data["Ceilings"]))
