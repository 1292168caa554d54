"""A stream record of one item-level change (item-api §7.3, §7.4), or none when nothing changed.

``record_of(mutation, view_type, sequence, created, region)`` is the
record as DynamoDB Streams returns it, with engine values in ``Keys`` and
the images: ``INSERT`` for a new item, ``MODIFY`` for a changed one (a Put
that replaces with different content included), ``REMOVE`` for a deleted
one; None when the write changed nothing (an identical Put, an update that
sets equal values, a delete of a missing item). A TTL deletion
(``mutation.service``) names the service in ``userIdentity``.
"""

from __future__ import annotations

import uuid

from ..types import copy_value, item_size

EVENT_VERSION = "1.1"   # DynamoDB Local's STREAMS_EVENT_VERSION (spec §7.3)
EVENT_SOURCE = "aws:dynamodb"
SERVICE = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
# view type -> (carries the new image, carries the old image)
IMAGES = {"KEYS_ONLY": (False, False), "NEW_IMAGE": (True, False), "OLD_IMAGE": (False, True),
          "NEW_AND_OLD_IMAGES": (True, True)}


def record_of(mutation, view_type: str, sequence: int, created: float, region: str) -> dict | None:
    """The record of ``mutation``, or None when the write changed nothing."""
    old, new = mutation.old, mutation.new
    if new is None and old is None:
        return None  # a delete of a missing item
    if old is not None and new is not None and old.item == new.item:
        return None  # why: equality by value (reordered map keys are equal), as DynamoDB compares
    name = "INSERT" if old is None else "REMOVE" if new is None else "MODIFY"
    keys = mutation.key
    wants_new, wants_old = IMAGES[view_type]
    body = {"ApproximateCreationDateTime": int(created), "Keys": keys}
    size = item_size(keys)
    if wants_new and new is not None:
        body["NewImage"] = copy_value(new.item)
        size += new.size
    if wants_old and old is not None:
        body["OldImage"] = copy_value(old.item)
        size += old.size
    body.update({"SequenceNumber": sequence_text(sequence), "SizeBytes": size, "StreamViewType": view_type})
    record = {"eventID": str(uuid.uuid4()), "eventName": name, "eventVersion": EVENT_VERSION,
              "eventSource": EVENT_SOURCE, "awsRegion": region, "dynamodb": body}
    if mutation.service:
        record["userIdentity"] = dict(SERVICE)
    return record


def sequence_text(sequence: int) -> str:
    """A sequence number as DynamoDB writes it: 21 decimal digits (DynamoDB Local's ``%021d``)."""
    return f"{sequence:021d}"
