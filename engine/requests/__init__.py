"""DynamoDB's operations as request dict → response dict, over engine values.

``OPERATIONS`` is the one registry of operation names; the Python API of
``Engine``, the boto3-shaped client and a wire server all dispatch through it.
"""

from __future__ import annotations

from . import batches, items, reads, tables

OPERATIONS = {**tables.OPERATIONS, **items.OPERATIONS, **reads.OPERATIONS, **batches.OPERATIONS}
