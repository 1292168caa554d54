"""DynamoDB Streams in the database file (format 4): a stream's description and its records as rows.

``streams`` rows hold ``Stream.state()`` as JSON, by ARN. ``stream_records``
rows hold one change each, by sequence number: ``[created, eventName,
service, keys, old image, new image]``, the images only as far as the
stream's view type shows them (a record rebuilt from the row is the record
the engine would have built). Each row carries a CRC-32 like the item rows.
The records leave the file as they leave memory: trimmed after 24 hours
(a trim touches the stream, whose next save deletes them up to its
shards' newest trimmed sequence number), all of them when the stream is
forgotten.
"""

from __future__ import annotations

import json
import zlib

from ..keys import key_dict
from ..streams import Change
from ..streams.records import IMAGES
from ..types import item_size
from ..wire_values import item_to_wire
from .codec import _ENCODER, _decode_map

SAVE_STREAM = "INSERT OR REPLACE INTO streams (arn, state, crc) VALUES (?, ?, ?)"
FORGET_STREAM = "DELETE FROM streams WHERE arn = ?"
ADD_RECORD = "INSERT INTO stream_records (seq, arn, shard, record, crc) VALUES (?, ?, ?, ?, ?)"
TRIM_RECORDS = "DELETE FROM stream_records WHERE seq <= ? AND arn = ?"
FORGET_RECORDS = "DELETE FROM stream_records WHERE arn = ?"


def stream_checksum(arn: str, text: str) -> int:
    return zlib.crc32(f"{arn}\x00{text}".encode("utf-8"))


def record_checksum(sequence: int, arn: str, shard: str, text: str) -> int:
    return zlib.crc32(f"{sequence}\x00{arn}\x00{shard}\x00{text}".encode("utf-8"))


def record_row(stream, shard, change) -> tuple:
    """The ``stream_records`` row of one change."""
    wants_new, wants_old = IMAGES[stream.view_type]
    keys = key_dict(stream.key_schema, change.pk, None if change.sort is None else change.sort[0])
    old = item_to_wire(change.old) if wants_old and change.old is not None else None
    new = item_to_wire(change.new) if wants_new and change.new is not None else None
    text = _ENCODER.encode([change.created, change.name, int(change.service), item_to_wire(keys), old, new])
    return change.sequence, stream.arn, shard.shard_id, text, record_checksum(
        change.sequence, stream.arn, shard.shard_id, text)


def decode_change(sequence: int, text: str, key_schema) -> Change:
    """The change a ``stream_records`` row holds."""
    created, name, service, keys, old, new = json.loads(text)
    keys = _decode_map(keys)
    sort = None if key_schema.range_name is None else (keys[key_schema.range_name],)
    old, new = _item(old), _item(new)
    return Change(sequence, created, name, keys[key_schema.hash_name], sort, old, _size(old), new, _size(new),
                  bool(service))


def _item(wire: dict | None) -> dict | None:
    return None if wire is None else _decode_map(wire)


def _size(item: dict | None) -> int:
    return 0 if item is None else item_size(item)


def stream_row(stream) -> tuple:
    """The ``streams`` row of a stream."""
    text = _ENCODER.encode(stream.state())
    return stream.arn, text, stream_checksum(stream.arn, text)


def save(db, streams) -> None:
    """Write what the file has not yet been told of ``streams`` (an ``engine.streams.Streams``): the
    changed descriptions with their trims, and the forgotten streams."""
    for arn, stream in streams.unsaved.items():
        if stream is None:
            db.execute(FORGET_STREAM, (arn,))
            db.execute(FORGET_RECORDS, (arn,))
            continue
        db.execute(SAVE_STREAM, stream_row(stream))
        trimmed = stream.trimmed()
        if trimmed:
            db.execute(TRIM_RECORDS, (trimmed, arn))
