"""Legacy (pre-expression) parameters lowered into the expression model (item-api §4)."""

from __future__ import annotations


def lower_write(request: dict, parsed: dict) -> None:
    """Expected / AttributeUpdates → ConditionExpression / UpdateExpression in ``parsed``."""


def lower_query(request: dict, key_condition, filter_) -> tuple:
    """KeyConditions / QueryFilter → key condition and filter."""
    return key_condition, filter_


def lower_scan(request: dict, filter_):
    """ScanFilter → filter."""
    return filter_
