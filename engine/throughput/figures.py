"""Every number of the throughput model, as data (spec throughput.md).

DynamoDB's published figures, and the figures of the rules the spec marks
**(model)**, in one place: the model reads them from here and nowhere else.
"""

from __future__ import annotations

from .. import limits

# The switches (spec §1).
MODES = ("off", "report", "enforce")
DEFAULT_MODE = "report"

# Burst capacity: a provisioned bucket banks up to 300 seconds of its rate (§3.1).
BURST_SECONDS = 300

# Partition ceilings per second (§2, §3.2): reads and writes counted independently.
PARTITION_READ_CEILING = float(limits.PARTITION_RCU)
PARTITION_WRITE_CEILING = float(limits.PARTITION_WCU)

# On-demand (§4). A new table's previous peak is half of what it serves at once
# (12,000 RCU / 4,000 WCU, limits.ON_DEMAND_INITIAL_*); traffic up to twice the
# previous peak is served.
PEAK_MULTIPLIER = 2
ON_DEMAND_INITIAL_PEAK_READ = limits.ON_DEMAND_INITIAL_RCU / PEAK_MULTIPLIER
ON_DEMAND_INITIAL_PEAK_WRITE = limits.ON_DEMAND_INITIAL_WCU / PEAK_MULTIPLIER
PEAK_AVERAGE_SECONDS = 60  # (model) the peak is a 60-second average of consumption ...
PEAK_LAG_SECONDS = 1800    # (model) ... that raises the peak 30 minutes after it was seen

# Isolation of hot items (§3.3, model): a partition above half its ceiling for
# 300 seconds in a row splits where its traffic halves.
ISOLATION_SHARE = 0.5
ISOLATION_SECONDS = 300

# The account's per-table quota (§4): on-demand tables above it fail with
# RequestLimitExceeded. DescribeLimits shows the same figures (limits.py).
ACCOUNT_TABLE_MAX_READ = limits.TABLE_MAX_CAPACITY_UNITS
ACCOUNT_TABLE_MAX_WRITE = limits.TABLE_MAX_CAPACITY_UNITS

# What is counted (§6, model): per second for the last hour; top keys per minute.
METRICS_SECONDS = 3600
TOP_N = 10
TOP_KEYS_KEPT = 200       # keys a closed minute keeps (the most consumed / throttled)
TOP_KEYS_LIMIT = 4096     # distinct keys an open minute counts before it drops the least
# Sampling (model): once an open minute's consumed list has held more than SAMPLE_ABOVE keys, or a resource's
# second consumed more than SAMPLE_ABOVE_UNITS (reads and writes) and the next one follows it, each request is
# counted with a chance of SAMPLE_RATE per unit (1 in 8 for a 1 WCU write, every request from 8 units up), as
# its units divided by that chance (an unbiased estimate), until the minute ends. why: a busy minute (an
# import, a load test, a simulation) would otherwise pay a dictionary update keyed by a tuple, and the list's
# trimming, on every request (a fifth of the throughput model's cost on a GetItem); a hot key's estimate is
# within a few per cent after a few hundred requests, and a session at a human's pace is counted exactly.
SAMPLE_ABOVE = TOP_KEYS_LIMIT // 2
SAMPLE_ABOVE_UNITS = 1_000
SAMPLE_RATE = 1 / 8
TOP_KEYS_MINUTES = METRICS_SECONDS // 60
WARNINGS_KEPT = 100       # report mode's recent warnings, for the shell and the server

# Float tolerance of the bucket comparisons: a refill is rate × elapsed time,
# and a fraction of a unit lost to rounding must not refuse a request the
# arithmetic admits (three requests 1/1500 s apart refill 500 WCU/s × 0.002 s).
EPSILON = 1e-6
