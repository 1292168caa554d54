"""UpdateContributorInsights, DescribeContributorInsights, ListContributorInsights (spec throughput.md §6).

Contributor Insights is where DynamoDB users look for their most accessed and
most throttled keys. Here the settings live in the table's spec
(``TableSpec.insights``: the table's or an index's mode and when it was set),
so a database file keeps them and DeleteTable drops them; a change takes
effect at once (R: AWS passes through ENABLING / DISABLING, which the update's
answer reports). The figures themselves (CloudWatch's, in AWS) are the
engine's metrics: ``engine.throughput.metrics`` and the shell's ``.heat``.
"""

from __future__ import annotations

import dataclasses

from ..envelope import NAME_PATTERN, check_request, integer, string, structure
from ..errors import ResourceNotFoundException, ValidationException
from .control import INVALID, table_not_found

MODES = ("ACCESSED_AND_THROTTLED_KEYS", "THROTTLED_KEYS")
DEFAULT_MODE = MODES[0]
LIST_PAGE = 100  # R: ListContributorInsights' MaxResults bound and default

_TABLE = string(required=True, min_len=1, max_len=1024)
_INDEX = string(pattern=NAME_PATTERN, min_len=3, max_len=255)
UPDATE = structure({
    "TableName": _TABLE, "IndexName": _INDEX,
    "ContributorInsightsAction": string(required=True, enum=("ENABLE", "DISABLE")),
    "ContributorInsightsMode": string(enum=MODES),
}, name="UpdateContributorInsightsInput")
DESCRIBE = structure({"TableName": _TABLE, "IndexName": _INDEX}, name="DescribeContributorInsightsInput")
LIST = structure({
    "TableName": string(min_len=1, max_len=1024), "NextToken": string(),
    "MaxResults": integer(min=0, max=LIST_PAGE),
}, name="ListContributorInsightsInput")

# The CloudWatch rules DynamoDB creates (R, after their documented names): partition keys
# (PK) and, for a table or index with a sort key, items (SK); most accessed (C) and most
# throttled (T). THROTTLED_KEYS mode keeps only the throttled ones.
_RULES = {"ACCESSED_AND_THROTTLED_KEYS": ("C", "T"), "THROTTLED_KEYS": ("T",)}


def _target(engine, checked: dict):
    """(table, index name or None), after the existence checks."""
    table = engine.tables.get(checked["TableName"])
    if table is None:
        raise table_not_found(checked["TableName"])
    index = checked.get("IndexName")
    if index is not None and table.spec.index(index) is None:
        raise ResourceNotFoundException(f"Requested resource not found: Index: {index} not found")
    return table, index


def _settings(table) -> dict:
    """index name ("" for the table) -> (mode, epoch seconds of the last change)."""
    return {name: (mode, at) for name, mode, at in table.spec.insights}


def update_contributor_insights(engine, request: dict) -> dict:
    checked = check_request(request, UPDATE)
    enable = checked["ContributorInsightsAction"] == "ENABLE"
    if not enable and "ContributorInsightsMode" in checked:
        raise ValidationException(INVALID + "ContributorInsightsMode can only be set when enabling")  # R
    with engine.lock:
        table, index = _target(engine, checked)
        settings = _settings(table)
        if enable:
            settings[index or ""] = (checked.get("ContributorInsightsMode", DEFAULT_MODE), engine.epoch())
        else:
            settings.pop(index or "", None)
        engine.storage.check_writable()
        table.set_spec(dataclasses.replace(table.spec, insights=tuple((n, m, at) for n, (m, at) in settings.items())))
        engine.storage.save_table(table)
    out = _names(checked["TableName"], index)
    out["ContributorInsightsStatus"] = "ENABLING" if enable else "DISABLING"
    if enable:
        out["ContributorInsightsMode"] = checked.get("ContributorInsightsMode", DEFAULT_MODE)
    return out


def describe_contributor_insights(engine, request: dict) -> dict:
    checked = check_request(request, DESCRIBE)
    with engine.lock:
        table, index = _target(engine, checked)
        found = _settings(table).get(index or "")
        ranged = (table.spec.index(index).key if index else table.spec.key).range_name is not None
    out = _names(checked["TableName"], index)
    if found is None:
        out["ContributorInsightsStatus"] = "DISABLED"
        return out
    mode, at = found
    name = checked["TableName"] if index is None else f"{checked['TableName']}-{index}"
    keys = ("PK", "SK") if ranged else ("PK",)
    out["ContributorInsightsRuleList"] = [f"DynamoDBContributorInsights-{key}{kind}-{name}-{int(at * 1000)}"
                                          for key in keys for kind in _RULES[mode]]
    out.update({"ContributorInsightsStatus": "ENABLED", "LastUpdateDateTime": at, "ContributorInsightsMode": mode})
    return out


def list_contributor_insights(engine, request: dict) -> dict:
    checked = check_request(request, LIST)
    size = checked.get("MaxResults") or LIST_PAGE
    with engine.lock:
        if "TableName" in checked and checked["TableName"] not in engine.tables:
            raise table_not_found(checked["TableName"])
        names = [checked["TableName"]] if "TableName" in checked else engine.table_names()
        summaries = [{**_names(name, index or None), "ContributorInsightsStatus": "ENABLED",
                      "ContributorInsightsMode": mode}
                     for name in names for index, mode, _ in engine.tables[name].spec.insights]
    start = _start(checked.get("NextToken"), len(summaries))
    out = {"ContributorInsightsSummaries": summaries[start:start + size]}
    if start + size < len(summaries):
        out["NextToken"] = str(start + size)
    return out


def _start(token, count: int) -> int:
    if token is None:
        return 0
    if not (token.isascii() and token.isdigit()) or int(token) > count:
        raise ValidationException("Invalid NextToken")  # R
    return int(token)


def _names(table: str, index: str | None) -> dict:
    return {"TableName": table} if index is None else {"TableName": table, "IndexName": index}


OPERATIONS = {"UpdateContributorInsights": update_contributor_insights,
              "DescribeContributorInsights": describe_contributor_insights,
              "ListContributorInsights": list_contributor_insights}
