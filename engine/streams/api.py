"""The DynamoDB Streams API (item-api §7.2): ListStreams, DescribeStream, GetShardIterator, GetRecords.

``OPERATIONS`` maps each operation to ``handler(engine, request) -> response``
over wire JSON (the records' attribute values leave as wire values), the
form ``partiql serve`` answers under the ``DynamoDBStreams_20120810`` target.
Requests are checked as DynamoDB checks them (JSON types, then the
constraint envelope with every violation), then against the streams.

A shard iterator is opaque to clients and stateless here: the stream ARN,
the shard, the position (the sequence number just before the next record)
and when it was issued, in base64 with a CRC so that a damaged or invented
one is refused. It expires 15 minutes after issue on the engine's clock.

Messages DynamoDB's documentation pins are DynamoDB's; those marked R are
ours, where neither the spec nor DynamoDB Local fixes the text.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from ..envelope import NAME_PATTERN, check_request, integer, string, structure
from ..errors import (ExpiredIteratorException, ResourceNotFoundException, TrimmedDataAccessException,
                      ValidationException)
from ..wire_values import item_to_wire
from .records import sequence_text

ITERATOR_AGE = 15 * 60.0     # seconds an iterator stays valid
RECORDS_PAGE = 1000          # GetRecords' most records
RECORDS_BYTES = 1024 * 1024  # ... and most bytes (SizeBytes summed)
LIST_PAGE = 100              # ListStreams' and DescribeStream's most entries

EXPIRED = "The provided iterator exceeds the maximum age allowed."
TRIMMED = "The operation attempted to read past the oldest stream record in a shard."  # the API's own doc
INVALID_ARN = "Invalid StreamArn"                                                     # R
INVALID_ITERATOR = "Invalid ShardIterator"                                             # R
NO_SHARD = "Requested resource not found: Shard does not exist"                        # DynamoDB Local's

_ARN = re.compile(r"arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table/[a-zA-Z0-9_.-]{3,255}"
                  r"/stream/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}")
_STREAM_ARN = string(min_len=37, max_len=1024)
_SHARD_ID = string(min_len=28, max_len=65)
_SEQUENCE = string(min_len=21, max_len=40)
ITERATOR_TYPES = ("TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER")
_AT = ("AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER")

LIST_STREAMS = structure({
    "TableName": string(pattern=NAME_PATTERN, min_len=3, max_len=255),
    "Limit": integer(min=1, max=LIST_PAGE), "ExclusiveStartStreamArn": _STREAM_ARN,
}, name="ListStreamsInput")
DESCRIBE_STREAM = structure({
    "StreamArn": dict(_STREAM_ARN, required=True), "Limit": integer(min=1, max=LIST_PAGE),
    "ExclusiveStartShardId": _SHARD_ID,
    "ShardFilter": structure({"Type": string(enum=("CHILD_SHARDS",)), "ShardId": _SHARD_ID}, name="ShardFilter"),
}, name="DescribeStreamInput")
GET_SHARD_ITERATOR = structure({
    "StreamArn": dict(_STREAM_ARN, required=True), "ShardId": dict(_SHARD_ID, required=True),
    "ShardIteratorType": string(required=True, enum=ITERATOR_TYPES), "SequenceNumber": _SEQUENCE,
}, name="GetShardIteratorInput")
GET_RECORDS = structure({
    "ShardIterator": string(required=True, min_len=1, max_len=2048),
    "Limit": integer(min=1, max=RECORDS_PAGE),
}, name="GetRecordsInput")


# ------------------------------------------------------------------ operations
def list_streams(engine, request) -> dict:
    checked = check_request(request, LIST_STREAMS)
    table_name = checked.get("TableName")
    with engine.lock:
        engine.streams.trim(engine.epoch())
        streams = sorted((s for s in engine.streams.by_arn.values()
                          if table_name is None or s.table_name == table_name), key=lambda s: (s.created, s.arn))
        if table_name is not None and not streams and table_name not in engine.tables:
            raise ResourceNotFoundException(f"Requested resource not found: Table: {table_name} not found")
        start = checked.get("ExclusiveStartStreamArn")
        if start is not None:
            arns = [s.arn for s in streams]
            if start not in arns:
                _stream(engine, start)  # the ARN's own error
            streams = streams[arns.index(start) + 1:] if start in arns else []
        limit = checked.get("Limit", LIST_PAGE)
        out = {"Streams": [{"StreamArn": s.arn, "TableName": s.table_name, "StreamLabel": s.label}
                           for s in streams[:limit]]}
        if len(streams) > limit:
            out["LastEvaluatedStreamArn"] = streams[limit - 1].arn
        return out


def describe_stream(engine, request) -> dict:
    checked = check_request(request, DESCRIBE_STREAM)
    wanted = checked.get("ShardFilter")
    if wanted is not None and ("Type" not in wanted or "ShardId" not in wanted):
        raise ValidationException("ShardFilter needs both Type and ShardId")  # R
    with engine.lock:
        stream = _stream(engine, checked["StreamArn"])
        shards = sorted(stream.shards, key=lambda shard: shard.shard_id)
        if wanted is not None:
            shards = [shard for shard in shards if shard.parent_id == wanted["ShardId"]]
        start = checked.get("ExclusiveStartShardId")
        if start is not None:
            shards = [shard for shard in shards if shard.shard_id > start]
        limit = checked.get("Limit", LIST_PAGE)
        description = {
            "StreamArn": stream.arn, "StreamLabel": stream.label,
            "StreamStatus": "ENABLED" if stream.enabled else "DISABLED",
            "StreamViewType": stream.view_type, "CreationRequestDateTime": stream.created,
            "TableName": stream.table_name, "KeySchema": stream.key_schema.to_api(),
            "Shards": [_shard(shard) for shard in shards[:limit]],
        }
        if len(shards) > limit:
            description["LastEvaluatedShardId"] = shards[limit - 1].shard_id
        return {"StreamDescription": description}


def get_shard_iterator(engine, request) -> dict:
    checked = check_request(request, GET_SHARD_ITERATOR)
    kind, text = checked["ShardIteratorType"], checked.get("SequenceNumber")
    if kind in _AT and text is None:
        raise ValidationException(f"SequenceNumber is required for ShardIteratorType {kind}")  # R
    if kind not in _AT and text is not None:
        raise ValidationException(f"SequenceNumber must not be given for ShardIteratorType {kind}")  # R
    if text is not None and not (text.isascii() and text.isdigit()):
        raise ValidationException(f"Invalid SequenceNumber: {text}")  # R
    with engine.lock:
        streams = engine.streams
        stream = _stream(engine, checked["StreamArn"])
        shard = stream.shard(checked["ShardId"])
        if shard is None:
            raise ResourceNotFoundException(NO_SHARD)
        if kind == "TRIM_HORIZON":
            position = shard.horizon
        elif kind == "LATEST":
            position = streams.sequence if shard.open else shard.end
        else:
            position = _position_at(shard, int(text), kind, streams.sequence)
        return {"ShardIterator": encode_iterator(stream.arn, shard.shard_id, position, engine.epoch())}


def get_records(engine, request) -> dict:
    checked = check_request(request, GET_RECORDS)
    arn, shard_id, position, issued = decode_iterator(checked["ShardIterator"])
    limit = checked.get("Limit", RECORDS_PAGE)
    with engine.lock:
        now = engine.epoch()
        if now - issued > ITERATOR_AGE:
            raise ExpiredIteratorException(EXPIRED)
        streams = engine.streams
        stream = _stream(engine, arn)
        shard = stream.shard(shard_id)
        if shard is None:
            raise ResourceNotFoundException(NO_SHARD)
        if position < shard.trimmed:
            raise TrimmedDataAccessException(TRIMMED)
        records, position = _page(streams.build(stream, shard.after(position, limit)), position)
        out = {"Records": records}
        if shard.open or shard.after(position):  # a closed shard read to its end has no next iterator
            out["NextShardIterator"] = encode_iterator(arn, shard_id, position, now)
        return out


OPERATIONS = {"ListStreams": list_streams, "DescribeStream": describe_stream,
              "GetShardIterator": get_shard_iterator, "GetRecords": get_records}


def streams_call(engine, operation: str, request) -> dict:
    """Run a Streams ``operation`` on a wire-JSON request; the wire-JSON response."""
    return OPERATIONS[operation](engine, request)


# ------------------------------------------------------------------ helpers
def _stream(engine, arn: str):
    """The stream ``arn`` names, after the trim (the caller holds the lock)."""
    if not _ARN.fullmatch(arn):
        raise ValidationException(INVALID_ARN)
    engine.streams.trim(engine.epoch())
    stream = engine.streams.by_arn.get(arn)
    if stream is None:
        raise ResourceNotFoundException(f"Requested resource not found: Stream: {arn} not found")
    return stream


def _shard(shard) -> dict:
    span = {"StartingSequenceNumber": sequence_text(shard.start)}
    if not shard.open:
        span["EndingSequenceNumber"] = sequence_text(shard.end)
    out = {"ShardId": shard.shard_id, "SequenceNumberRange": span}
    if shard.parent_id is not None:
        out["ParentShardId"] = shard.parent_id
    return out


def _position_at(shard, sequence: int, kind: str, newest: int) -> int:
    """The position of an AT_ / AFTER_SEQUENCE_NUMBER iterator, after the range and trim checks."""
    last = newest if shard.open else shard.end
    if not shard.start <= sequence <= last:
        raise ValidationException(f"Invalid SequenceNumber {sequence_text(sequence)} for shard "  # R
                                  f"{shard.shard_id}: its records are numbered from {sequence_text(shard.start)} "
                                  f"to {sequence_text(last)}")
    position = sequence - 1 if kind == "AT_SEQUENCE_NUMBER" else sequence
    if position < shard.trimmed:
        raise TrimmedDataAccessException(TRIMMED)
    return position


def _page(records: list, position: int) -> tuple[list, int]:
    """The records as the wire carries them, cut at 1 MB (one at least), and the position after them."""
    out, size = [], 0
    for record in records:
        size += record["dynamodb"]["SizeBytes"]
        if out and size > RECORDS_BYTES:
            break
        body = record["dynamodb"]
        for member in ("Keys", "NewImage", "OldImage"):
            if member in body:
                body[member] = item_to_wire(body[member])
        out.append(record)
        position = int(body["SequenceNumber"])
    return out, position


def encode_iterator(arn: str, shard_id: str, position: int, issued: float) -> str:
    """An opaque shard iterator (see the module's docstring)."""
    payload = f"{arn}|{shard_id}|{position}|{issued!r}"
    return base64.urlsafe_b64encode(f"{payload}|{zlib.crc32(payload.encode()):08x}".encode()).decode()


def decode_iterator(text: str) -> tuple[str, str, int, float]:
    """(stream ARN, shard id, position, issued) of an iterator; ValidationException when it is not one."""
    try:
        payload, _, crc = base64.urlsafe_b64decode(text.encode("ascii")).decode().rpartition("|")
        if f"{zlib.crc32(payload.encode()):08x}" != crc:
            raise ValueError(crc)
        arn, shard_id, position, issued = payload.split("|")
        return arn, shard_id, int(position), float(issued)
    except (ValueError, UnicodeError, binascii.Error):
        raise ValidationException(INVALID_ITERATOR) from None
