"""An UpdateExpression compiled once per request shape (issue 34 point 2), its values bound at run time.

A request's update is built from its cached parse as a model holding its values (``Value`` nodes), which
the size gate, ReturnValues and the key checks read. Compiling that model into steps afresh for every
request cost a quarter of an UpdateItem (the steps of a new model: closures, path getters, their caches
churning), so the steps are compiled once per shape — the expression's text and the names it is given —
from the same model built with ``Slot`` s in place of values, and ``update.apply_update`` binds a
request's values (``Program.values``) to ``BOUND`` around the run. A slot's operand reads the values bound
in this thread (the engine's writes run in their caller's thread, one at a time per engine; a binding of
each thread's own keeps two engines' writes apart).
"""

from __future__ import annotations

import threading

SHAPES = 1024  # compiled programs kept (the least recently built go first)


class Slot:
    """Stands for ``ExpressionAttributeValues[key]`` in a program compiled once per shape."""

    __slots__ = ("key",)

    def __init__(self, key: str):
        self.key = key

    def __repr__(self) -> str:
        return f"Slot({self.key!r})"


class SlotValues:
    """The values mapping a shape's model is built with: every placeholder becomes its Slot."""

    def __getitem__(self, key: str) -> Slot:
        return Slot(key)


SLOT_VALUES = SlotValues()


class _Bound(threading.local):
    values: dict | None = None


BOUND = _Bound()


def slot_operand(slot: Slot):
    """``item -> value``: the value bound to ``slot`` for the running request."""
    key, bound = slot.key, BOUND
    return lambda item: bound.values[key]


class Program:
    """A shape's compiled steps and the values one request binds to them."""

    __slots__ = ("steps", "values")

    def __init__(self, steps: tuple, values: dict):
        self.steps, self.values = steps, values
