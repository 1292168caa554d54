"""Table and index specifications: key schemas, projections, billing.

These are the validated, immutable descriptions the storage layer works
from. Building them from a CreateTable / UpdateTable request, with every
DynamoDB validation message, lives in ``engine.requests.create_table``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import limits


@dataclass(frozen=True, slots=True)
class KeySchema:
    """A partition key and an optional sort key, with their types ('S', 'N', 'B').

    A multi-attribute GSI key (multi-attribute-keys.md) has up to four HASH and four RANGE attributes:
    ``hash_name`` / ``range_name`` are the first of each, ``more_hash`` / ``more_range`` the rest as
    ``(name, type)`` pairs, in KeySchema order. A table's and an LSI's key never has more.
    """

    hash_name: str
    hash_type: str
    range_name: str | None = None
    range_type: str | None = None
    more_hash: tuple = ()
    more_range: tuple = ()
    # derived once: every key check reads them
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    types: dict[str, str] = field(init=False, repr=False, compare=False)
    hash_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    range_names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        hashes = ((self.hash_name, self.hash_type), *self.more_hash)
        ranges = ((self.range_name, self.range_type), *self.more_range) if self.range_name is not None else ()
        object.__setattr__(self, "hash_names", tuple(name for name, _ in hashes))
        object.__setattr__(self, "range_names", tuple(name for name, _ in ranges))
        object.__setattr__(self, "names", self.hash_names + self.range_names)
        object.__setattr__(self, "types", dict(hashes + ranges))

    @property
    def multi(self) -> bool:
        """Whether it has more than one HASH or more than one RANGE attribute."""
        return bool(self.more_hash or self.more_range)

    def to_api(self) -> list[dict]:
        return ([{"AttributeName": name, "KeyType": "HASH"} for name in self.hash_names]
                + [{"AttributeName": name, "KeyType": "RANGE"} for name in self.range_names])


@dataclass(frozen=True, slots=True)
class Throughput:
    """Provisioned read and write capacity units (None = on-demand)."""

    read: int
    write: int


@dataclass(frozen=True, slots=True)
class OnDemandThroughput:
    """OnDemandThroughput: the most request units a second an on-demand table serves (-1: no cap)."""

    max_read: int = -1
    max_write: int = -1

    def to_api(self) -> dict:
        return {"MaxReadRequestUnits": self.max_read, "MaxWriteRequestUnits": self.max_write}


@dataclass(frozen=True, slots=True)
class WarmThroughput:
    """WarmThroughput: the read and write units a second the table is ready to serve at once."""

    read: int
    write: int

    def to_api(self) -> dict:
        return {"ReadUnitsPerSecond": self.read, "WriteUnitsPerSecond": self.write, "Status": "ACTIVE"}


@dataclass(frozen=True, slots=True)
class Projection:
    """KEYS_ONLY, INCLUDE (with non-key attributes) or ALL."""

    type: str
    non_key_attributes: tuple[str, ...] = ()

    def to_api(self) -> dict:
        out = {"ProjectionType": self.type}
        if self.type == "INCLUDE":
            out["NonKeyAttributes"] = list(self.non_key_attributes)
        return out


@dataclass(frozen=True, slots=True)
class IndexSpec:
    """A local or global secondary index."""

    name: str
    kind: str  # 'LSI' or 'GSI'
    key: KeySchema
    projection: Projection
    throughput: Throughput | None = None  # GSIs on provisioned tables only

    @property
    def is_global(self) -> bool:
        return self.kind == "GSI"

    def projected_names(self, table_key: KeySchema) -> frozenset[str] | None:
        """Attribute names an index entry holds; None means every attribute (ALL)."""
        if self.projection.type == "ALL":
            return None
        return frozenset(table_key.names) | frozenset(self.key.names) | frozenset(
            self.projection.non_key_attributes)


@dataclass(frozen=True, slots=True)
class VectorIndexSpec:
    """A vector index (vector-search.md §2.1): the list attribute it reads as a vector of ``dimensions``
    32-bit floats, its distance function, its projection, and its SearchSchema — at most one HASH
    attribute ``(name, type)`` and the INLINE_FILTER attributes ``((name, type), …)``."""

    name: str
    attribute: str
    dimensions: int
    distance: str  # COSINE, EUCLIDEAN or DOT_PRODUCT
    projection: Projection
    hash: tuple | None = None
    filters: tuple = ()
    schema_order: tuple = ()  # the SearchSchema's attribute names as given (DescribeTable repeats them)

    @property
    def schema_names(self) -> tuple:
        return ((self.hash[0],) if self.hash else ()) + tuple(name for name, _ in self.filters)

    def held_names(self, table_key: KeySchema) -> frozenset | None:
        """The attributes an entry holds (None: the whole item, ALL); the vector always (§5.4 rule 9)."""
        if self.projection.type == "ALL":
            return None
        return (frozenset(table_key.names) | frozenset(self.schema_names) | {self.attribute}
                | frozenset(self.projection.non_key_attributes))

    def to_api(self, types: dict) -> dict:
        out = {"IndexName": self.name, "VectorAttribute": {"AttributeName": self.attribute},
               "Dimensions": self.dimensions, "DistanceFunction": self.distance,
               "Projection": self.projection.to_api()}
        if self.schema_order:
            kinds = {name: "HASH" if self.hash and name == self.hash[0] else "INLINE_FILTER"
                     for name in self.schema_order}
            out["SearchSchema"] = [{"AttributeName": name, "SearchSchemaElementType": kinds[name]}
                                   for name in self.schema_order]
        return out


@dataclass(frozen=True, slots=True)
class TableSpec:
    """Everything CreateTable fixes about a table (UpdateTable makes a new spec)."""

    name: str
    key: KeySchema
    attribute_types: dict[str, str]  # AttributeDefinitions
    throughput: Throughput | None = None  # None = PAY_PER_REQUEST
    indexes: tuple[IndexSpec, ...] = ()
    stream_view_type: str | None = None
    deletion_protection: bool = False
    ttl_attribute: str | None = None  # UpdateTimeToLive's AttributeName while TTL is enabled
    tags: tuple[tuple[str, str], ...] = ()  # (key, value) in the order they were first set
    on_demand: OnDemandThroughput | None = None  # on-demand tables' maximum throughput, when set
    warm: WarmThroughput | None = None  # WarmThroughput, when set (throughput.md §2, §4)
    # Contributor Insights enabled on the table ("") or an index: (name, mode, epoch seconds set)
    insights: tuple[tuple[str, str, float], ...] = ()
    vectors: tuple[VectorIndexSpec, ...] = ()  # vector indexes, in creation order (vector-search.md)

    @property
    def billing_mode(self) -> str:
        return "PAY_PER_REQUEST" if self.throughput is None else "PROVISIONED"

    @property
    def lsis(self) -> tuple[IndexSpec, ...]:
        return tuple(index for index in self.indexes if index.kind == "LSI")

    @property
    def gsis(self) -> tuple[IndexSpec, ...]:
        return tuple(index for index in self.indexes if index.kind == "GSI")

    def index(self, name: str) -> IndexSpec | None:
        for index in self.indexes:
            if index.name == name:
                return index
        return None

    def vector(self, name: str) -> VectorIndexSpec | None:
        for index in self.vectors:
            if index.name == name:
                return index
        return None

    def initial_partitions(self, size_bytes: int = 0) -> int:
        """ceil(max(RCU/3000 + WCU/1000, size/10 GB)), at least 1 (data-modeling.md)."""
        read, write = ((limits.ON_DEMAND_INITIAL_RCU, limits.ON_DEMAND_INITIAL_WCU)
                       if self.throughput is None else (self.throughput.read, self.throughput.write))
        if self.warm is not None:  # sized as if provisioned at its warm throughput (throughput.md §2)
            read, write = max(read, self.warm.read), max(write, self.warm.write)
        by_capacity = read / limits.PARTITION_RCU + write / limits.PARTITION_WCU
        by_size = size_bytes / limits.PARTITION_BYTES
        needed = max(by_capacity, by_size)
        whole = int(needed)
        return max(1, whole if whole == needed else whole + 1)


def all_key_names(spec: TableSpec) -> frozenset[str]:
    """Names of every key attribute of the table and of its indexes."""
    names = set(spec.key.names)
    for index in spec.indexes:
        names.update(index.key.names)
    return frozenset(names)
