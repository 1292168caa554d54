"""Document paths against items: resolve a path, compile a getter, cache closures by node (item-api §3.4)."""

from __future__ import annotations

from typing import Callable

from ..types import MISSING
from .model import Path

Getter = Callable[[dict], object]


# ------------------------------------------------------------------------ paths

def resolve_elements(value, elements):
    """The value reached from ``value`` through ``elements`` (map keys, list indexes), or MISSING."""
    for element in elements:
        if element.__class__ is str:
            if value.__class__ is not dict:
                return MISSING
            value = value.get(element, MISSING)
        else:
            if value.__class__ is not list or not 0 <= element < len(value):
                return MISSING
            value = value[element]
    return value


def resolve(item: dict, path: Path):
    """The value at ``path`` in ``item``, or ``MISSING``.

    Never raises: a missing attribute, ``.x`` on a non-map and ``[i]`` on a
    non-list or past the end all give MISSING (item-api §3.4).
    """
    return resolve_elements(item, path.elements)


def path_getter(path: Path) -> Getter:
    """A compiled ``item -> value | MISSING`` for ``path``."""
    elements = path.elements
    if len(elements) == 1:
        name = elements[0]
        return lambda item: item.get(name, MISSING)
    name, rest = elements[0], elements[1:]
    return lambda item: resolve_elements(item.get(name, MISSING), rest)


# ------------------------------------------------------------------- id cache

class NodeCache:
    """Compiled closures keyed by node identity.

    Model nodes are frozen but may hold unhashable values (lists, maps), and
    hashing a large tree per call would cost more than the evaluation; the
    node itself is kept in the entry so its id cannot be reused meanwhile.
    """

    def __init__(self, build, size: int = 512):
        self._build, self._size, self._entries = build, size, {}

    def __call__(self, node, *extra):
        key = (id(node), extra)
        entry = self._entries.get(key)
        if entry is not None and entry[0] is node:
            return entry[1]
        compiled = self._build(node, *extra)
        if len(self._entries) >= self._size:
            self._entries.clear()
        self._entries[key] = (node, compiled)
        return compiled
