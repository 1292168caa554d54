"""ProjectionExpression: keep only some paths of an item, with their nesting.

Semantics (item-api §3.11): each path that resolves is copied into the
result under the same nesting (``a.b`` → ``{"a": {"b": …}}``); several
indexes of one list give a list of just those elements in index order (holes
squeezed out); paths that do not resolve are omitted; nothing matching gives
``{}``. The same function computes UpdateItem's UPDATED_OLD / UPDATED_NEW.
"""

from __future__ import annotations

from typing import Iterable

from ..types import MISSING, copy_value
from .paths import resolve
from .model import Path


class _MapNode(dict):
    """A map being rebuilt from some of its keys."""


class _ListNode(dict):
    """A list being rebuilt from some of its indexes (index → element)."""


_NODE_FOR = {str: _MapNode, int: _ListNode}  # the element addressing a node decides its kind


def _place(root: _MapNode, elements: tuple, value) -> None:
    node = root
    for element, following in zip(elements, elements[1:]):
        child = node.get(element)
        if child is None:
            child = node[element] = _NODE_FOR[following.__class__]()
        elif child.__class__ is not _NODE_FOR[following.__class__]:
            # The whole value is already there (an overlapping path; the
            # parsers reject those), or the path conflicts with another one.
            return
        node = child
    node[elements[-1]] = value  # a whole value supersedes any partial rebuild


def _finish(node):
    kind = node.__class__
    if kind is _MapNode:
        return {key: _finish(child) for key, child in node.items()}
    if kind is _ListNode:
        return [_finish(node[index]) for index in sorted(node)]
    return node


def project(item: dict, paths: Iterable[Path]) -> dict:
    """The part of ``item`` named by ``paths``, sharing nothing mutable with ``item``."""
    paths = tuple(paths)
    if all(len(path.elements) == 1 for path in paths):  # the common case, without rebuilding
        return {path.elements[0]: copy_value(item[path.elements[0]])
                for path in paths if path.elements[0] in item}
    root = _MapNode()
    for path in paths:
        value = resolve(item, path)
        if value is not MISSING:
            _place(root, path.elements, copy_value(value))
    return _finish(root)
