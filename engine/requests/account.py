"""DescribeLimits and DescribeContinuousBackups (item-api §5.19; backups as AWS reports them).

Neither changes anything: DescribeLimits answers DynamoDB Local's fixed
figures, and a local table has continuous backups without point-in-time
recovery, which no operation here enables.
"""

from __future__ import annotations

from .. import limits
from ..envelope import check_request, structure
from ..errors import TableNotFoundException
from .control import validate_table_name_request

DESCRIBE_LIMITS = structure({}, name="DescribeLimitsInput")


def describe_limits(engine, request: dict) -> dict:
    check_request(request, DESCRIBE_LIMITS)
    return {"AccountMaxReadCapacityUnits": limits.ACCOUNT_MAX_CAPACITY_UNITS,
            "AccountMaxWriteCapacityUnits": limits.ACCOUNT_MAX_CAPACITY_UNITS,
            "TableMaxReadCapacityUnits": limits.TABLE_MAX_CAPACITY_UNITS,
            "TableMaxWriteCapacityUnits": limits.TABLE_MAX_CAPACITY_UNITS}


def describe_continuous_backups(engine, request: dict) -> dict:
    # INF: as AWS (and moto) answer for a new table: continuous backups ENABLED,
    # point-in-time recovery DISABLED; a missing table is TableNotFoundException.
    name = validate_table_name_request(request)
    with engine.lock:
        if name not in engine.tables:
            raise TableNotFoundException(f"Table not found: {name}")
    return {"ContinuousBackupsDescription": {
        "ContinuousBackupsStatus": "ENABLED",
        "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}}


OPERATIONS = {"DescribeLimits": describe_limits, "DescribeContinuousBackups": describe_continuous_backups}
