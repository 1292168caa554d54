"""Apply an UpdateExpression (SET / REMOVE / ADD / DELETE) to an item.

DynamoDB computes every action against the *old* item and applies them
together (item-api §3.10): ``SET a = b, b = a`` swaps, and several list
indexes in one expression refer to positions in the original list. So each
action reads only the old item and writes only the new one; list element
removals and out-of-range appends are deferred to the end, when positions no
longer matter.

The new item is built copy-on-write: containers along a written path are
copied, untouched attribute values are shared with the old item (engine
values are never mutated in place), written values are fresh copies.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Callable

from ..errors import ValidationException
from ..types import MISSING, NESTING, add_numbers, copy_value, nesting_problem, type_of, utf8_len, value_size
from .evaluate import INCORRECT_TYPE, compile_operand
from .paths import NodeCache, resolve, resolve_elements
from .model import Add, Delete, Path, Remove, Set, Update, Value
from .slots import BOUND
from .projection import project

INVALID_PATH = "The document path provided in the update expression is invalid for update"

# Marks "remove this attribute" in a computed result (DELETE emptying a set).
_DROP = object()


def _fail(message: str):
    raise ValidationException(message)


# ------------------------------------------------------------------ new image

class _Image:
    """The new item under construction, copied lazily along written paths."""

    def __init__(self, old: dict, exists: bool):
        self.exists = exists
        self.root = dict(old)
        self._fresh = {id(self.root)}  # containers already copied (safe to mutate)
        self._removals: dict[int, tuple[list, list[int]]] = {}
        self._appends: dict[int, tuple[list, list[tuple[int, object]]]] = {}

    def _parent(self, elements) -> dict | list:
        node = self.root
        for element in elements:
            # Parents were checked against the old item; overlapping actions
            # (rejected by the parsers) are the only way to get here without one.
            child = node.get(element) if node.__class__ is dict else node[element]
            if child.__class__ is not dict and child.__class__ is not list:
                _fail(INVALID_PATH)
            if id(child) not in self._fresh:
                child = dict(child) if child.__class__ is dict else list(child)
                node[element] = child
                self._fresh.add(id(child))
            node = child
        return node

    def put(self, path: Path, value) -> None:
        """Write ``value`` at ``path`` (an index past the end appends, in index order)."""
        *parents, last = path.elements
        parent = self._parent(parents)
        if last.__class__ is int and last >= len(parent):
            self._appends.setdefault(id(parent), (parent, []))[1].append((last, value))
        else:
            parent[last] = value

    def drop(self, path: Path) -> None:
        """Remove ``path``; a list element is removed at the end, by its original index."""
        *parents, last = path.elements
        parent = self._parent(parents)
        if last.__class__ is str:
            parent.pop(last, None)
        elif last < len(parent):  # why: an index past the end is ignored
            self._removals.setdefault(id(parent), (parent, []))[1].append(last)

    def finish(self) -> dict:
        for target, indexes in self._removals.values():
            for index in sorted(set(indexes), reverse=True):
                del target[index]
        for target, appended in self._appends.values():
            target.extend(value for _, value in sorted(appended, key=lambda pair: pair[0]))
        return self.root


# ----------------------------------------------------------------- path checks

def _parent_is_valid(old: dict, path: Path) -> bool:
    """A nested target needs an existing parent of the right kind in the old item."""
    elements = path.elements
    parent = resolve_elements(old, elements[:-1])
    last = elements[-1]
    return parent.__class__ is _PARENT_KIND[last.__class__]


_PARENT_KIND = {str: dict, int: list}  # `.key` needs a map, `[i]` a list


def _check_parent(old: dict, path: Path) -> None:
    if not _parent_is_valid(old, path):
        _fail(INVALID_PATH)


# --------------------------------------------------------------------- actions
# Each action compiles to ``step(old, image)``: read the old item, write the image.

Step = Callable[[dict, _Image], None]


def _set(action: Set) -> Step:
    path, compute = action.path, compile_operand(action.value, strict=True)
    depth = len(path.elements)

    def step(old, image):
        value = compute(old)  # why: the value's errors come before the path's
        _check_parent(old, path)
        value = copy_value(value)
        if nesting_problem(value, depth):
            _fail(NESTING)
        image.put(path, value)
    return step


def _remove(action: Remove) -> Step:
    path = action.path

    def step(old, image):
        if not image.exists:  # why: REMOVE on an absent item is silently ignored (no path errors)
            return
        _check_parent(old, path)
        image.drop(path)
    return step


def _added(current, value):
    """ADD's result: N + N, or set ∪ set of one set type; a missing attribute takes the value."""
    if value.__class__ not in _ADDABLE:
        _fail(INCORRECT_TYPE)
    if current is MISSING:
        return value
    if current.__class__ is not value.__class__:
        _fail(INCORRECT_TYPE)
    return _ADDABLE[value.__class__](current, value)


def _set_union(current: frozenset, value: frozenset) -> frozenset:
    if type_of(current) != type_of(value):  # SS onto NS and the like
        _fail(INCORRECT_TYPE)
    return current | value


_ADDABLE = {
    Decimal: add_numbers,
    frozenset: _set_union,
}


def _add(action: Add) -> Step:
    path, compute = action.path, compile_operand(action.value, strict=True)

    def step(old, image):
        result = _added(resolve(old, path), compute(old))
        _check_parent(old, path)
        image.put(path, result)
    return step


def _deleted(current, value):
    """DELETE's result: set difference; MISSING stays missing, an empty result is _DROP."""
    if value.__class__ is not frozenset:
        _fail(INCORRECT_TYPE)
    if current is MISSING:
        return MISSING
    if current.__class__ is not frozenset or type_of(current) != type_of(value):
        _fail(INCORRECT_TYPE)
    remaining = current - value
    # why: DynamoDB has no empty sets; deleting the last element removes the attribute.
    return remaining if remaining else _DROP


def _delete(action: Delete) -> Step:
    path, compute = action.path, compile_operand(action.value, strict=True)

    def step(old, image):
        if not image.exists:  # why: nothing to delete from an absent item, like REMOVE
            return
        result = _deleted(resolve(old, path), compute(old))
        _check_parent(old, path)
        if result is _DROP:
            image.drop(path)
        elif result is not MISSING:
            image.put(path, result)
    return step


_ACTIONS = {Set: _set, Remove: _remove, Add: _add, Delete: _delete}


def compile_steps(update: Update) -> tuple[Step, ...]:
    """``update`` 's actions as steps (a shape's model holds slots for its values: ``slots``)."""
    return tuple(_ACTIONS[action.__class__](action) for action in update.actions)


_compiled = NodeCache(compile_steps)  # (an update without a shape's program: PartiQL's, the legacy AttributeUpdates)


# ------------------------------------------------------------------ public API

def apply_update(update: Update, item: dict, *, exists: bool | None = None, program=None) -> dict:
    """The item after ``update`` (item-api §3.10); ``item`` itself is never mutated.

    ``item`` is ``{}`` when the item does not exist (or its key alone, with
    ``exists=False``; by default an item exists when it is non-empty). On an
    absent item REMOVE and DELETE are no-ops, even below missing parents; the
    caller decides whether anything is created. Raises ValidationException
    with DynamoDB's texts: a SET value reading a missing attribute, a run-time
    type error (+, -, list_append, ADD, DELETE), an invalid nested target, a
    number out of range, or too deep a nesting. ``program`` (``slots.Program``): the update's shape's steps,
    compiled once, and this request's values — else ``update`` is compiled (cached by node).
    """
    image = _Image(item, bool(item) if exists is None else exists)
    if program is None:
        for step in _compiled(update):
            step(item, image)
        return image.finish()
    outer, BOUND.values = BOUND.values, program.values
    try:
        for step in program.steps:
            step(item, image)
    finally:
        BOUND.values = outer
    return image.finish()


def updated_size(update: Update, old: dict, old_size: int, new: dict) -> int:
    """The size of ``new``, ``update`` 's result over ``old`` (of ``old_size`` bytes): the old size less the
    top-level attributes the update touched, plus what they are now (an item's size is its attributes' names
    and values, spec §5.3)."""
    size = old_size
    for name in {action.path.elements[0] for action in update.actions}:
        if name in old:
            size -= utf8_len(name) + value_size(old[name])
        if name in new:
            size += utf8_len(name) + value_size(new[name])
    return size


def written_paths(update: Update) -> tuple[Path, ...]:
    """The paths ``update`` writes (SET, REMOVE, ADD, DELETE), in expression order."""
    return tuple(action.path for action in update.actions)


def assigned_values(update: Update) -> frozenset:
    """Top-level attributes ``update`` SETs to a value given in the request (``SET a = :v``).

    why: DynamoDB words an index key of the wrong type differently when the
    request supplied it than when the update computed it (item-api §3.10).
    """
    return frozenset(action.path.name for action in update.actions
                     if action.__class__ is Set and len(action.path.elements) == 1
                     and action.value.__class__ is Value)


def updated_values(update: Update, old: dict, new: dict, which: str) -> dict:
    """UpdateItem's UPDATED_OLD / UPDATED_NEW (and PartiQL's RETURNING MODIFIED OLD/NEW).

    The written paths projected from the old (``which='OLD'``) or new
    (``'NEW'``) item with their nesting; paths that do not resolve there are
    omitted (new attributes under OLD, removed ones or ``SET l[100]`` appends
    under NEW); ``{}`` when nothing remains (item-api §5.9).
    """
    source = _SOURCES.get(which)
    if source is None:
        raise ValueError(f"which must be 'OLD' or 'NEW', not {which!r}")
    return project(source(old, new), written_paths(update))


_SOURCES = {"OLD": lambda old, new: old, "NEW": lambda old, new: new}
