"""Stream records of item-level changes (item-api §7.3, §7.4): what a write keeps, what a reader gets.

A write keeps a ``Change`` -- the old and new items as they were, and their
sizes (an item dict is never changed once built, but a stored ``Record`` is
its key's slot, which the next write of the key fills anew: a change keeps
the items, not the records) -- or nothing when it changed nothing
(``change`` returns None: an identical Put, an update that sets equal values, a
delete of a missing item). The record DynamoDB Streams returns is built
from it only when it is read (``Change.record``): ``INSERT`` for a new
item, ``MODIFY`` for a changed one, ``REMOVE`` for a deleted one, images by
view type, ``SizeBytes`` = the keys' size plus the images', and for a TTL
deletion the service in ``userIdentity``.

why build on read: a write with a stream enabled must stay cheap (issue 17:
at most 15 % on PutItem); records are read far less often than written.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..keys import key_dict
from ..types import item_size

EVENT_VERSION = "1.1"   # DynamoDB Local's STREAMS_EVENT_VERSION (spec §7.3)
EVENT_SOURCE = "aws:dynamodb"
SERVICE = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
# view type -> (carries the new image, carries the old image)
IMAGES = {"KEYS_ONLY": (False, False), "NEW_IMAGE": (True, False), "OLD_IMAGE": (False, True),
          "NEW_AND_OLD_IMAGES": (True, True)}


class Change(NamedTuple):
    """One committed change of one item, as a stream keeps it until it is read.

    ``old`` and ``new`` are the items (None when absent), ``old_size`` and
    ``new_size`` their sizes; one restored from the database file holds only
    the images its view type shows, so ``name`` is kept apart ("INSERT" /
    "MODIFY" / "REMOVE"). why a named tuple: the write path builds one per
    changed item with ``tuple.__new__`` (``change``), cheaper than any
    ``__init__``.
    """

    sequence: int
    created: float   # epoch seconds (ApproximateCreationDateTime)
    name: str
    pk: object
    sort: tuple | None
    old: dict | None
    old_size: int
    new: dict | None
    new_size: int
    service: bool

    def record(self, stream, region: str) -> dict:
        """The record as DynamoDB Streams returns it (engine values in Keys and the images)."""
        keys = key_dict(stream.key_schema, self.pk, None if self.sort is None else self.sort[0])
        wants_new, wants_old = IMAGES[stream.view_type]
        body = {"ApproximateCreationDateTime": int(self.created), "Keys": keys}
        size = item_size(keys)
        if wants_new and self.new is not None:
            body["NewImage"] = self.new
            size += self.new_size
        if wants_old and self.old is not None:
            body["OldImage"] = self.old
            size += self.old_size
        body.update({"SequenceNumber": sequence_text(self.sequence), "SizeBytes": size,
                     "StreamViewType": stream.view_type})
        found = {"eventID": event_id(stream.arn, self.sequence), "eventName": self.name,
                 "eventVersion": EVENT_VERSION, "eventSource": EVENT_SOURCE, "awsRegion": region, "dynamodb": body}
        if self.service:
            found["userIdentity"] = dict(SERVICE)
        return found


_new = tuple.__new__


def change(sequence: int, created: float, mutation) -> Change | None:
    """The change ``mutation`` makes, taken before it is committed, or None when it changes nothing
    (no record then, item-api §7.4: an identical put, an update setting equal values, a delete of a
    missing item)."""
    old, new = mutation.old, mutation.new
    if old is None:
        if new is None:
            return None
        return _new(Change, (sequence, created, "INSERT", mutation.pk, mutation.sort, None, 0, new.item, new.size,
                             mutation.service))
    if new is None:
        return _new(Change, (sequence, created, "REMOVE", mutation.pk, mutation.sort, old.item, old.size, None, 0,
                             mutation.service))
    if old.item == new.item:  # why equality by value: reordered map keys are equal, as DynamoDB compares
        return None
    return _new(Change, (sequence, created, "MODIFY", mutation.pk, mutation.sort, old.item, old.size, new.item,
                         new.size, mutation.service))


def event_id(arn: str, sequence: int) -> str:
    """A record's ``eventID``: 32 hex digits, unique, and the same after a restart (a digest of the
    stream and the sequence number)."""
    return hashlib.md5(f"{arn}#{sequence}".encode(), usedforsecurity=False).hexdigest()


def sequence_text(sequence: int) -> str:
    """A sequence number as DynamoDB writes it: 21 decimal digits (DynamoDB Local's ``%021d``)."""
    return f"{sequence:021d}"
