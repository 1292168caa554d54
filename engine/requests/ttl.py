"""UpdateTimeToLive and DescribeTimeToLive (item-api §6.1).

The setting lives in the table's spec (``TableSpec.ttl_attribute``), so a
database file keeps it. Expired items are deleted by a sweep
(``partiql.server.ttl``) through the engine's one write path, as service
deletions; reads keep returning them until then, as DynamoDB does (§6.2).
"""

from __future__ import annotations

import dataclasses

from ..envelope import boolean, string, structure
from ..errors import ValidationException
from .control import TABLE_NAME_ONLY, control_request, table_not_found, validate_table_name_request

ALREADY_ENABLED = "TimeToLive is already enabled"
ALREADY_DISABLED = "TimeToLive is already disabled"
OTHER_ATTRIBUTE = "TimeToLive is active on a different AttributeName"

TIME_TO_LIVE_SPECIFICATION = structure({
    "Enabled": boolean(required=True),
    "AttributeName": string(required=True, min_len=1, max_len=255),
}, required=True, name="TimeToLiveSpecification")
UPDATE_TIME_TO_LIVE = structure({
    "TableName": TABLE_NAME_ONLY["members"]["TableName"], "TimeToLiveSpecification": TIME_TO_LIVE_SPECIFICATION,
}, name="UpdateTimeToLiveInput")


def _problem(current: str | None, enabled: bool, attribute: str) -> str | None:
    """LOCAL's texts (§6.1): a change must change something, on the active attribute."""
    if current is not None and current != attribute:
        return OTHER_ATTRIBUTE
    if enabled and current == attribute:
        return ALREADY_ENABLED
    if not enabled and current is None:
        return ALREADY_DISABLED
    return None


def update_time_to_live(engine, request: dict) -> dict:
    checked = control_request(request, UPDATE_TIME_TO_LIVE)
    name, specification = checked["TableName"], checked["TimeToLiveSpecification"]
    with engine.lock:
        table = engine.tables.get(name)
        if table is None:
            raise table_not_found(name)
        problem = _problem(table.spec.ttl_attribute, specification["Enabled"], specification["AttributeName"])
        if problem:
            raise ValidationException(problem)
        attribute = specification["AttributeName"] if specification["Enabled"] else None
        engine.storage.check_writable()
        table.set_spec(dataclasses.replace(table.spec, ttl_attribute=attribute))
        engine.storage.save_table(table)
    return {"TimeToLiveSpecification": {"Enabled": specification["Enabled"],
                                        "AttributeName": specification["AttributeName"]}}


def describe_time_to_live(engine, request: dict) -> dict:
    name = validate_table_name_request(request)
    with engine.lock:
        table = engine.tables.get(name)
        if table is None:
            raise table_not_found(name)
        attribute = table.spec.ttl_attribute
    # AWS reports ENABLED at once in practice (§6.1); no ENABLING/DISABLING phase is modelled.
    if attribute is None:
        return {"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}}
    return {"TimeToLiveDescription": {"TimeToLiveStatus": "ENABLED", "AttributeName": attribute}}


OPERATIONS = {"UpdateTimeToLive": update_time_to_live, "DescribeTimeToLive": describe_time_to_live}
