"""DynamoDB Streams in the database file (format 4): a stream's description and its records as rows.

``streams`` rows hold ``Stream.state()`` as JSON, by ARN. ``stream_records``
rows hold one change each, by sequence number: ``[created, eventName,
service, keys, old image, new image]``, the images only as far as the
stream's view type shows them, the keys only when no image is there to hold
them (a record rebuilt from the row is the record the engine would have
built). Each row carries a CRC-32 like the item rows.
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
from .codec import _ENCODER, _decode_map, encode_item

SAVE_STREAM = "INSERT OR REPLACE INTO streams (arn, sid, state, crc) VALUES (?, ?, ?, ?)"
FORGET_STREAM = "DELETE FROM streams WHERE arn = ?"
ADD_RECORD = "INSERT INTO stream_records (seq, sid, shard, record, crc) VALUES (?, ?, ?, ?, ?)"
# (a fold of the write log made in steps and stopped may be made again: its records are written twice)
FOLD_RECORD = "INSERT OR REPLACE INTO stream_records (seq, sid, shard, record, crc) VALUES (?, ?, ?, ?, ?)"
TRIM_RECORDS = "DELETE FROM stream_records WHERE seq <= ? AND sid = ?"
FORGET_RECORDS = "DELETE FROM stream_records WHERE sid = ?"


def stream_checksum(arn: str, sid: int, text: str) -> int:
    return zlib.crc32(f"{arn}\x00{sid}\x00{text}".encode("utf-8"))


def record_checksum(sequence: int, sid: int, shard: int, text: str) -> int:
    return zlib.crc32(f"{sequence}\x00{sid}\x00{shard}\x00{text}".encode("utf-8"))


def record_row(stream, shard, change, new_text: str | None = None) -> tuple:
    """The ``stream_records`` row of one change; ``new_text`` is its new item's JSON when the item row
    already encoded it."""
    wants_new, wants_old = IMAGES[stream.view_type]
    old = encode_item(change.old) if wants_old and change.old is not None else "null"
    new = "null"
    if wants_new and change.new is not None:
        new = new_text if new_text is not None else encode_item(change.new)
    keys = "null"  # (an image holds the key)
    if old == "null" and new == "null":
        keys = encode_item(key_dict(stream.key_schema, change.pk, None if change.sort is None else change.sort[0]))
    text = f'[{change.created!r},"{change.name}",{int(change.service)},{keys},{old},{new}]'
    return (change.sequence, stream.number, shard.number, text,
            record_checksum(change.sequence, stream.number, shard.number, text))


def decode_change(sequence: int, text: str, key_schema) -> Change:
    """The change a ``stream_records`` row holds."""
    created, name, service, keys, old, new = json.loads(text)
    old, new = _item(old), _item(new)
    keys = _decode_map(keys) if keys is not None else new if new is not None else old
    sort = None if key_schema.range_name is None else (keys[key_schema.range_name],)
    return Change(sequence, created, name, keys[key_schema.hash_name], sort, old, _size(old), new, _size(new),
                  bool(service))


def _item(wire: dict | None) -> dict | None:
    return None if wire is None else _decode_map(wire)


def _size(item: dict | None) -> int:
    return 0 if item is None else item_size(item)


def stream_row(stream) -> tuple:
    """The ``streams`` row of a stream."""
    text = _ENCODER.encode(stream.state())
    return stream.arn, stream.number, text, stream_checksum(stream.arn, stream.number, text)


def save(db, streams) -> None:
    """Write what the file has not yet been told of ``streams`` (an ``engine.streams.Streams``): the
    changed descriptions with their trims, and the forgotten streams."""
    for arn, stream in streams.unsaved.items():
        if streams.by_arn.get(arn) is not stream:  # forgotten, 24 hours after it was disabled
            db.execute(FORGET_STREAM, (arn,))
            db.execute(FORGET_RECORDS, (stream.number,))
            continue
        db.execute(SAVE_STREAM, stream_row(stream))
        trimmed = stream.trimmed()
        if trimmed:
            db.execute(TRIM_RECORDS, (trimmed, stream.number))


def then_logged(stored, logged: list):
    """The file's record rows (``stored``, in sequence order), then the write log's past the last of them
    (a fold made in steps and stopped wrote some of the log's into the file already)."""
    last = 0
    for row in stored:
        last = row[0]
        yield row
    yield from (row for row in logged if row[0] > last)
