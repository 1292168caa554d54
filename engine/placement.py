"""Where DynamoDB places a partition-key value: its key hash, and the hash ranges of parallel-Scan segments.

DynamoDB places a value by the MD5 digest of the bytes ``Outliers`` followed
by the value's bytes (recorded-2026-11 A11): an S value's UTF-8 bytes, a B
value's own bytes, an N value's order-preserving base-100 form
(``number_bytes``). The engine's 64-bit key hash is the digest's first eight
bytes, big-endian, so partitions, Scan order (partitions' items in hash
order), parallel-Scan segments, ``.heat`` and the partition map all place a
key where DynamoDB does; a database file reopens with the same layout.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from hashlib import md5

SALT = b"Outliers"
_SALTED = md5(SALT)  # (copied per key: the salt is hashed once)
SEGMENT_BITS = 12  # a parallel-Scan segment is a range of the digest's first 12 bits
_SEGMENT_SHIFT = 64 - SEGMENT_BITS


def number_bytes(value) -> bytes:
    """DynamoDB's base-100 form of a number, whose bytes sort as the numbers do.

    Zero is the byte 0x80. Otherwise a first byte ``(exponent10 + pad) / 2 − 64`` (mod 256), where
    ``exponent10`` is the decimal exponent + 1 and ``pad`` is 1 when it is odd (a 0 digit goes first, so
    the digits pair up on base-100 boundaries), complemented for a negative number; then the digits in
    pairs, each pair's value + 1 (101 − value for a negative number); a negative number shorter than 20
    bytes ends with the byte 102, so that it sorts before its own extensions.
    """
    value = Decimal(value)
    if not value:
        return b"\x80"
    sign, digits, exponent = value.as_tuple()
    digits = list(digits)
    while digits[-1] == 0:  # (a value has a non-zero digit: zero returned above)
        digits.pop()
        exponent += 1
    exponent10 = len(digits) + exponent  # (the decimal exponent of 0.d1d2… × 10^exponent10)
    pad = exponent10 % 2
    if pad:
        digits.insert(0, 0)
    if len(digits) % 2:
        digits.append(0)
    first = ((exponent10 + pad) // 2 - 64) & 0xFF
    pairs = [digits[i] * 10 + digits[i + 1] for i in range(0, len(digits), 2)]
    if not sign:
        return bytes([first] + [pair + 1 for pair in pairs])
    tail = [102] if len(pairs) < 20 else []
    return bytes([first ^ 0xFF] + [101 - pair for pair in pairs] + tail)


def key_hash(value) -> int:
    """The 64-bit key hash of a key value, or of the tuple of a multi-attribute index's HASH values: the
    first eight bytes of DynamoDB's digest."""
    if type(value) is str:  # the usual partition key
        return _text_hash(value)
    if type(value) is tuple:
        return _tuple_hash(value)
    return _other_hash(value)


# The type tag of a value in a multi-attribute HASH tuple.
_TAGS = {str: b"S", bytes: b"B"}


@functools.lru_cache(maxsize=16384)
def _tuple_hash(values: tuple) -> int:
    """The hash of a multi-attribute index's HASH tuple (multi-attribute-keys.md §5 rule 2, DynamoDB's function
    being unpublished): the digest of, per value in KeySchema order, its type tag, the length of its bytes
    (4 bytes, big-endian) and the bytes, so that ("ab", "c") and ("a", "bc") differ."""
    parts = []
    for value in values:
        data = _hashed_bytes(value)
        parts += [_TAGS.get(type(value), b"N"), len(data).to_bytes(4, "big"), data]
    return digest_hash(b"".join(parts))


def _hashed_bytes(value) -> bytes:
    """The bytes DynamoDB hashes for an S, B or N value."""
    kind = type(value)
    if kind is str:
        return value.encode("utf-8", "surrogatepass")
    return value if kind is bytes else number_bytes(value)


# why cached: the digest is most of a point operation's cost in the storage core, and the items of one
# partition-key value (an item collection) are read and written together. Equal numbers (1000, 1E+3) are
# equal keys of the cache and hash alike.
@functools.lru_cache(maxsize=16384)
def _text_hash(value: str) -> int:
    return digest_hash(_hashed_bytes(value))


@functools.lru_cache(maxsize=16384)
def _other_hash(value) -> int:  # (a B value or a number: b"1" and 1 are not equal keys of the cache)
    return digest_hash(_hashed_bytes(value))


def digest_hash(data: bytes) -> int:
    """The 64-bit key hash of the bytes DynamoDB hashes for a key value (an S value's UTF-8 bytes, a B
    value's own, an N value's ``number_bytes``)."""
    digest = _SALTED.copy()
    digest.update(data)
    return int.from_bytes(digest.digest()[:8], "big")


def segment_range(segment: int, total: int) -> tuple[int, int]:
    """The hash range [lo, hi) of parallel-Scan segment ``segment`` of ``total``: the keys whose digest's
    first 12 bits fall in [ceil(4096·s/t), ceil(4096·(s+1)/t) − 1] (recorded-2026-11 A11; past 4,096
    segments some are empty)."""
    return _bucket(segment, total), _bucket(segment + 1, total)


def _bucket(segment: int, total: int) -> int:
    """The first hash of segment ``segment`` (``HASH_SPACE`` for ``total``)."""
    return -(-(segment << SEGMENT_BITS) // total) << _SEGMENT_SHIFT
