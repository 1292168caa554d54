"""Stream records of item-level changes (item-api §7.3, §7.4): what a write keeps, what a reader gets.

A write keeps a ``Change`` -- the old and new stored records as they were
(the engine never changes a stored item in place: a write replaces it, and
``Record.alias`` relies on the same) -- or nothing when it changed nothing
(``changes_item``: an identical Put, an update that sets equal values, a
delete of a missing item). The record DynamoDB Streams returns is built
from it only when it is read (``Change.record``): ``INSERT`` for a new
item, ``MODIFY`` for a changed one, ``REMOVE`` for a deleted one, images by
view type, ``SizeBytes`` = the keys' size plus the images', and for a TTL
deletion the service in ``userIdentity``.

why build on read: a write with a stream enabled must stay cheap (issue 17:
at most 15 % on PutItem); records are read far less often than written.
"""

from __future__ import annotations

from ..keys import key_dict
from ..types import item_size

EVENT_VERSION = "1.1"   # DynamoDB Local's STREAMS_EVENT_VERSION (spec §7.3)
EVENT_SOURCE = "aws:dynamodb"
SERVICE = {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
# view type -> (carries the new image, carries the old image)
IMAGES = {"KEYS_ONLY": (False, False), "NEW_IMAGE": (True, False), "OLD_IMAGE": (False, True),
          "NEW_AND_OLD_IMAGES": (True, True)}


class Change:
    """One committed change of one item, as a stream keeps it until it is read.

    ``old`` and ``new`` are the stored ``Record``s (None when absent); one
    restored from the database file holds only the images its view type
    shows, so ``name`` is kept apart ("INSERT" / "MODIFY" / "REMOVE").
    """

    __slots__ = ("sequence", "created", "name", "pk", "sort", "old", "new", "service")

    def __init__(self, sequence: int, created: float, name: str, pk, sort, old, new, service: bool):
        self.sequence = sequence
        self.created = created   # epoch seconds (ApproximateCreationDateTime)
        self.name = name
        self.pk, self.sort = pk, sort
        self.old, self.new = old, new
        self.service = service

    @classmethod
    def of(cls, sequence: int, created: float, mutation) -> "Change":
        """The change a committed ``mutation`` made (``changes_item`` said it made one)."""
        old, new = mutation.old, mutation.new
        name = "INSERT" if old is None else "REMOVE" if new is None else "MODIFY"
        return cls(sequence, created, name, mutation.pk, mutation.sort, old, new, mutation.service)

    def record(self, stream, region: str, id_prefix: str) -> dict:
        """The record as DynamoDB Streams returns it (engine values in Keys and the images)."""
        keys = key_dict(stream.key_schema, self.pk, None if self.sort is None else self.sort[0])
        wants_new, wants_old = IMAGES[stream.view_type]
        body = {"ApproximateCreationDateTime": int(self.created), "Keys": keys}
        size = item_size(keys)
        new, old = self.new, self.old
        if wants_new and new is not None:
            body["NewImage"] = new.item
            size += new.size
        if wants_old and old is not None:
            body["OldImage"] = old.item
            size += old.size
        body.update({"SequenceNumber": sequence_text(self.sequence), "SizeBytes": size,
                     "StreamViewType": stream.view_type})
        found = {"eventID": f"{id_prefix}{self.sequence:016x}", "eventName": self.name,
                 "eventVersion": EVENT_VERSION, "eventSource": EVENT_SOURCE, "awsRegion": region, "dynamodb": body}
        if self.service:
            found["userIdentity"] = dict(SERVICE)
        return found


def changes_item(mutation) -> bool:
    """Whether ``mutation`` changed its item (no record otherwise, item-api §7.4)."""
    old, new = mutation.old, mutation.new
    if old is None:
        return new is not None  # a delete of a missing item changes nothing
    # why equality by value: reordered map keys are equal, as DynamoDB compares
    return new is None or old.item != new.item


def sequence_text(sequence: int) -> str:
    """A sequence number as DynamoDB writes it: 21 decimal digits (DynamoDB Local's ``%021d``)."""
    return f"{sequence:021d}"
