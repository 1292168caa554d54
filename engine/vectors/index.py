"""One vector index's entries (vector-search.md §4.3), kept beside its table, and the exact k-nearest search.

An item has an entry when it holds the vector (a valid one: the write path refused the others) and, for an
index with a HASH element, the HASH attribute; entries live by HASH value (None without a HASH element), by
the table key. The table's one write path tells the index what each committed write changed
(``VectorIndex.apply``) and asks it, before, what the write costs it (``charge``, §6.3).

The search scores every candidate of the HASH value (exact, spec §1 rule 2, model): in 64-bit floats from
the stored 32-bit ones, sums exactly rounded (``math.fsum``) so the result is the same whichever way the
candidates were found. With numpy installed and a partition past ``NUMPY_FROM`` entries, numpy scores the
candidates first in 32-bit floats (one BLAS call) and only those within the rounding bound of the k-th are
scored exactly (the same answer:
``tests/vectors`` holds both ways to a brute-force ranking; ``bench/vectors.py`` measures what it pays).
"""

from __future__ import annotations

import math
from array import array
from operator import mul

from ..types import item_size, utf8_len
from .matrix import Matrix
from .values import F32_MAX, f32_vector

NUMPY_FROM = 512          # candidates from which numpy scores first (bench/vectors.py)
WRITE_FLOOR = 1024        # VectorWriteRequestBytes of one index, at least (§6.3 rule 2)
SEARCH_FLOOR = 1024       # VectorSearchRequestBytes of one search, at least (§6.4 rule 3, model)


class Entry:
    """An item's entry: its table key (ties order by it), vector, what the index holds of it, its bytes."""

    __slots__ = ("key", "vector", "held", "size", "square")

    def __init__(self, key: tuple, vector: array, held: dict, size: int):
        self.key, self.vector, self.held, self.size = key, vector, held, size
        self.square = math.fsum(map(mul, vector, vector))  # (its norm's square: cosine's denominator)


class VectorIndex:
    """The entries of the vector index ``spec`` of a table keyed by ``table_key``."""

    def __init__(self, spec, table_key):
        self.spec = spec
        self.held_names = spec.held_names(table_key)
        self.partitions: dict = {}   # HASH value (None: no HASH element) -> {table key: Entry}
        self.count = 0
        self.bytes = 0
        self._bytes: dict = {}       # HASH value -> its entries' bytes (what a search of it examines)
        self._matrices: dict = {}    # HASH value -> its numpy ``Matrix``, kept by ``apply`` once built

    # ---------------------------------------------------------------------- entries
    def entry_of(self, key: tuple, item: dict | None) -> Entry | None:
        """The entry ``item`` makes (None: absent, sparse)."""
        spec = self.spec
        if item is None or spec.attribute not in item or (spec.hash is not None and spec.hash[0] not in item):
            return None
        vector = f32_vector(item[spec.attribute])
        if vector is None:  # (a value the write path refused; an index built later skips it: §3.2 rule 6)
            return None
        names = self.held_names
        held = item if names is None else {name: value for name, value in item.items() if name in names}
        # the vector is sized as its name and 4 bytes a dimension (§6.3 rule 2), its numbers never sized
        size = (item_size({name: value for name, value in held.items() if name != spec.attribute})
                + utf8_len(spec.attribute) + 4 * spec.dimensions)
        return Entry(key, vector, held, size)

    def held_entry(self, key: tuple, item: dict | None) -> Entry | None:
        """The entry this index holds for the stored ``item`` of ``key`` (what ``entry_of`` would make again)."""
        if item is None:
            return None
        where = None if self.spec.hash is None else item.get(self.spec.hash[0])
        return self.partitions.get(where, {}).get(key)

    def charge(self, before: Entry | None, after: Entry | None) -> int:
        """VectorWriteRequestBytes of a write that turns ``before`` into ``after`` (0: not charged)."""
        if before is None and after is None:
            return 0
        if before is not None and after is not None and before.held == after.held:
            return 0  # (an identical entry: replication is delta-based)
        return max(WRITE_FLOOR, max(entry.size for entry in (before, after) if entry is not None))

    def hash_of(self, entry: Entry):
        """The HASH value ``entry`` lives under (None without a HASH element)."""
        return None if self.spec.hash is None else entry.held[self.spec.hash[0]]

    def apply(self, before: Entry | None, after: Entry | None) -> None:
        """Replace ``before`` by ``after`` (either may be None)."""
        if before is not None:
            where = self.hash_of(before)
            removed = self.partitions[where].pop(before.key)
            self.count -= 1
            self.bytes -= removed.size
            self._bytes[where] -= removed.size
            if not self.partitions[where]:
                del self.partitions[where], self._bytes[where]
            matrix = self._matrices.get(where)
            if matrix is not None:
                matrix.remove(before.key)
                if matrix.wasteful:
                    del self._matrices[where]
        if after is not None:
            where = self.hash_of(after)
            self.partitions.setdefault(where, {})[after.key] = after
            self.count += 1
            self.bytes += after.size
            self._bytes[where] = self._bytes.get(where, 0) + after.size
            matrix = self._matrices.get(where)
            if matrix is not None:
                matrix.put(after)

    # ----------------------------------------------------------------------- search
    def search_bytes(self, hash_value, returned: int) -> int:
        """VectorSearchRequestBytes of a search of ``hash_value`` returning the vector ``returned`` times (§6.4
        rule 3, model): every entry it examines, and 4 bytes a dimension a vector returned."""
        return max(SEARCH_FLOOR, self._bytes.get(hash_value, 0) + 4 * self.spec.dimensions * returned)

    def candidates(self, hash_value, filters: dict) -> list:
        """The entries of ``hash_value`` whose inline-filter attributes equal ``filters`` (present, equal)."""
        entries = list(self.partitions.get(hash_value, {}).values())
        if not filters:
            return entries
        return [entry for entry in entries if _passes(entry.held, filters)]

    def nearest(self, query: array, hash_value, filters: dict, top: int) -> list:
        """The ``top`` (score, entry) nearest ``query``, closest first, ties by table key."""
        q = [float(x) for x in query]
        if len(self.partitions.get(hash_value, ())) >= NUMPY_FROM and _numpy() is not None:
            entries = self._shortlist(q, top, hash_value, filters)
        else:
            entries = self.candidates(hash_value, filters)
        qq = math.fsum(x * x for x in q)  # (the query's squared norm, once: cosine divides by it for each entry)
        scored = [(score(self.spec.distance, q, qq, entry), entry) for entry in entries]
        higher_first = self.spec.distance == "DOT_PRODUCT"
        scored.sort(key=lambda pair: (-pair[0] if higher_first else pair[0], pair[1].key))
        return [(_reported(value), entry) for value, entry in scored[:top]]

    def _shortlist(self, q: list, top: int, hash_value, filters: dict) -> list:
        """The candidates whose numpy score (32-bit dot products over the kept matrix: one BLAS call) is within the
        32-bit rounding bound of the ``top``-th best: a superset of the exact answer's, which ``nearest`` scores
        exactly."""
        np = _numpy()
        matrix = self._matrices.get(hash_value)
        if matrix is None:
            entries = list(self.partitions.get(hash_value, {}).values())
            matrix = self._matrices[hash_value] = Matrix(np, entries, self.spec.dimensions)
        size = matrix.size
        usable = matrix.alive[:size].copy()
        if filters:
            for row in np.nonzero(usable)[0]:
                usable[row] = _passes(matrix.entries[row].held, filters)
        rows = np.nonzero(usable)[0]
        if len(rows) <= top:
            return [matrix.entries[row] for row in rows]
        dots = (matrix.data[:size] @ np.asarray(q, dtype=np.float32)).astype(np.float64)
        squares = matrix.squares[:size]
        qq = math.fsum(x * x for x in q)
        # why this margin: a d-term dot product of 32-bit floats is within d·2^-23·|q||s| of the exact one
        # (recursive summation's bound, doubled); a candidate outside it cannot be among the exact first ``top``
        error = len(q) * 2.0 ** -23 * math.sqrt(qq * float(squares[rows].max())) + 1e-300
        distance = self.spec.distance
        if distance == "COSINE":
            norms = np.sqrt(squares * qq)
            with np.errstate(divide="ignore", invalid="ignore"):
                keys = np.where(norms == 0, 1.0, 1.0 - dots / norms)
            margin = len(q) * 2.0 ** -23 + 1e-12
        elif distance == "DOT_PRODUCT":
            keys, margin = -dots, error
        else:  # EUCLIDEAN, by the squared distance (no square root to amplify the error near 0)
            keys, margin = squares - 2.0 * dots + qq, 2.0 * error
        keys[~usable] = np.inf
        kth = np.partition(keys, top - 1)[top - 1]
        keep = np.nonzero(usable & (keys <= kth + 2.0 * margin))[0]
        return [matrix.entries[row] for row in keep]


def score(distance: str, q: list, qq: float, entry: Entry) -> float:
    """The exact score of ``entry`` for the query ``q`` of squared norm ``qq`` (§5.4 rule 4), in 64-bit floats."""
    s = entry.vector
    if distance == "EUCLIDEAN":
        return math.sqrt(math.fsum([(a - b) * (a - b) for a, b in zip(q, s)]))
    dot = math.fsum(map(mul, q, s))
    if distance == "DOT_PRODUCT":
        return dot
    # why one square root of the product: an identical vector scores exactly 0 and an opposite one exactly 2
    # (recorded), which the product of two roots misses by a rounding
    norms = math.sqrt(qq * entry.square)
    if norms == 0:
        return 1.0  # (a zero vector on either side: captured)
    return min(2.0, max(0.0, 1.0 - dot / norms))


def _reported(value: float) -> float:
    """A score beyond the f32 range is reported as the f32 maximum (§5.4 rule 4)."""
    return max(-F32_MAX, min(F32_MAX, value))


def _passes(held: dict, filters: dict) -> bool:
    """Whether an entry holds every inline-filter attribute of ``filters``, equal (numbers by value)."""
    return all(name in held and type(held[name]) is type(value) and held[name] == value
               for name, value in filters.items())


_NUMPY = []


def _numpy():
    """numpy, when installed (imported once, on the first large search)."""
    if not _NUMPY:
        try:
            import numpy
        except ImportError:
            numpy = None
        _NUMPY.append(numpy)
    return _NUMPY[0]

