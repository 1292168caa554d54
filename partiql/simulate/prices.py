"""DynamoDB's prices as data (USD), by region and table class: design-time.md §2.1.

Every figure is AWS's cost workbook of 2025-02-10, checked against later
sources (the AWS MCP server's "Jan 2026" prices, the 2026-09-11 Price List
for eu-west-1): on demand per million request units (after the November 2024
cut), provisioned per capacity-unit hour, storage per GB-month (1 GB =
1024³ bytes, 100 bytes of overhead an item or index entry). ``price(region,
table_class)`` is one region's row for one class.
"""

from __future__ import annotations

from dataclasses import dataclass

STANDARD = "STANDARD"
INFREQUENT = "STANDARD_INFREQUENT_ACCESS"
CLASSES = (STANDARD, INFREQUENT)
CLASS_NAMES = {STANDARD: "Standard", INFREQUENT: "Standard-IA"}

PRICES_DATED = "2025-02-10"   # AWS's cost workbook; unchanged in the sources through 2026-09
ITEM_OVERHEAD = 100           # bytes billed per item and per index entry, beyond its size (§2.2)
GB = 1024 ** 3
MONTH_HOURS = 730             # the month of the cost report (AWS's calculators' convention)
FREE_TIER = {"storage_gb": 25, "rcu": 25, "wcu": 25}  # per account and region, Standard only (§2.1)


@dataclass(frozen=True)
class Price:
    """One region's prices for one table class."""

    storage: float   # $ per GB-month
    wru: float       # $ per million write request units (on demand)
    rru: float       # $ per million read request units
    wcu_hour: float  # $ per provisioned write capacity unit an hour
    rcu_hour: float  # $ per provisioned read capacity unit an hour


# region -> (Standard, Standard-IA): storage, WRU, RRU, WCU-h, RCU-h
_TABLE = {
    "us-east-1": ((0.25, 0.625, 0.125, 0.00065, 0.00013), (0.10, 0.78, 0.155, 0.00081, 0.00016)),
    "eu-west-1": ((0.283, 0.705, 0.1415, 0.000735, 0.000147), (0.1132, 0.885, 0.177, 0.000919, 0.000184)),
    "eu-central-1": ((0.306, 0.7625, 0.1525, 0.000793, 0.0001586),
                     (0.1224, 0.955, 0.1905, 0.000991, 0.0001983)),
    "ap-southeast-2": ((0.285, 0.71, 0.1425, 0.00074, 0.000148), (0.114, 0.89, 0.178, 0.00093, 0.0001855)),
    # why 0.715: the workbook's figure; it may be a rounded 0.71345 (half the pre-cut 1.4269), not settled
    "ap-northeast-1": ((0.285, 0.715, 0.1425, 0.000742, 0.0001484), (0.114, 0.89, 0.178, 0.0009275, 0.0001855)),
}
REGIONS = tuple(_TABLE)

# Streams: GetRecords beyond the free 2.5 M a month, us-east-1 (2023 copy of the pricing page); not simulated.
STREAM_READS_PER_100K = 0.02
STREAM_FREE_READS = 2_500_000  # a month, per account and region


def price(region: str, table_class: str = STANDARD) -> Price:
    """``region``'s prices for ``table_class`` (KeyError naming the known ones otherwise)."""
    if region not in _TABLE:
        raise KeyError(f"no prices for region {region!r} (known: {', '.join(REGIONS)})")
    if table_class not in CLASSES:
        raise KeyError(f"no table class {table_class!r} (known: {', '.join(CLASSES)})")
    return Price(*_TABLE[region][CLASSES.index(table_class)])
