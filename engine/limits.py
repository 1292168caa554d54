"""DynamoDB's numbers, as data: unit sizes, item and key limits, partition maxima.

One place for every constant the engine's arithmetic and validation uses
(spec partiql-dynamodb.md §5–§7, data-modeling.md). ``Limits`` bundles the
few an engine may override (the partition size, so tests can see splits).
"""

from __future__ import annotations

from dataclasses import dataclass

# Capacity units (spec §6).
READ_UNIT_BYTES = 4096
WRITE_UNIT_BYTES = 1024

# Reads page at 1 MB of evaluated items (spec §2.7, §7).
PAGE_BYTES = 1024 * 1024

# Items, keys, values (spec §5, §7).
MAX_ITEM_BYTES = 409_600
MAX_HASH_KEY_BYTES = 2048
MAX_RANGE_KEY_BYTES = 1024
MAX_NESTING_DEPTH = 32
# INF: how deep a value may nest on its way in (a parameter, an expression
# value, a wire body). Far past what an item may hold (32), so that every
# later stage — copies, sizes, comparisons, encoders — recurses safely; the
# error is the one DynamoDB gives an item nested too deep.
MAX_VALUE_DEPTH = 100
NUMBER_MAX_DIGITS = 38
NUMBER_MAX_EXPONENT = 125
NUMBER_MIN_EXPONENT = -130
MAX_ATTRIBUTE_NAME_BYTES = 65_535
MAX_KEY_ATTRIBUTE_NAME_BYTES = 255

# Tables and indexes (spec §7; item-api §5.1).
MAX_LSIS = 5
MAX_GSIS = 20
# A GSI key: up to 4 HASH and 4 RANGE attributes (multi-attribute-keys.md §2.2, §13).
MAX_GSI_HASH_ATTRIBUTES = 4
MAX_GSI_RANGE_ATTRIBUTES = 4
MAX_PROJECTED_ATTRIBUTES = 100
MAX_CAPACITY_UNITS = 1_000_000_000_000
TABLE_NAME_MIN, TABLE_NAME_MAX = 3, 255

# Partitions (data-modeling.md): what one partition serves and holds.
PARTITION_RCU = 3000
PARTITION_WCU = 1000
PARTITION_BYTES = 10 * 1024 ** 3
LSI_COLLECTION_BYTES = 10 * 1024 ** 3
# A new on-demand table sustains 4,000 writes and 12,000 reads per second
# (DG-mode); the partition formula is applied to those figures.
ON_DEMAND_INITIAL_RCU = 12_000
ON_DEMAND_INITIAL_WCU = 4_000
# The partition-key hash space: 64-bit.
HASH_SPACE = 1 << 64

# Batches and transactions (spec §7; item-api §5.13–§5.16).
BATCH_GET_MAX_KEYS = 100
# A BatchGetItem answers part of its keys and lists the rest as UnprocessedKeys past these (DG BatchGetItem:
# "the response size limit is exceeded … more than 1 MB per partition is requested"; recorded-2026-11 A10)
BATCH_GET_RESPONSE_BYTES = 16 * 1024 * 1024
BATCH_GET_PARTITION_BYTES = 1024 * 1024
BATCH_WRITE_MAX_REQUESTS = 25
TRANSACT_MAX_ITEMS = 100
TRANSACT_MAX_PAYLOAD = 4 * 1024 * 1024
BATCH_STATEMENT_MAX_PAYLOAD = 16 * 1024 * 1024  # BatchExecuteStatement (spec §7)
IDEMPOTENCY_WINDOW_SECONDS = 600

# Expressions (item-api §3).
IN_MAX_OPERANDS = 100
MAX_EXPRESSION_BYTES = 4096
MAX_EXPRESSION_OPERATORS = 300

# Tags (item-api §5.17) and TTL (§6).
MAX_TAGS = 50
MAX_TAG_KEY = 128
MAX_TAG_VALUE = 256
MAX_RESOURCE_ARN = 1283
TTL_MAX_AGE_SECONDS = 5 * 365 * 24 * 3600  # older expiry times are ignored (DG: "5 years")
# DescribeLimits: DynamoDB Local's fixed figures (item-api §5.19).
ACCOUNT_MAX_CAPACITY_UNITS = 80_000
TABLE_MAX_CAPACITY_UNITS = 40_000


@dataclass(frozen=True)
class Limits:
    """The limits one engine runs with; only tests lower them."""

    partition_bytes: int = PARTITION_BYTES
    page_bytes: int = PAGE_BYTES
    lsi_collection_bytes: int = LSI_COLLECTION_BYTES

