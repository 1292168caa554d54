"""Realism from a TOML file, a dict or a preset name (``realism_from``), every mistake named with its place.

::

    seed = 7                          # the same seed, the same faults
    [[fault]]
    operation = ["PutItem", "UpdateItem"]   # DynamoDB's names; ExecuteStatement for PartiQL (default: every one)
    table = "Orders"                  # and index = "…", key = { pk = "hot" }
    error = "InternalServerError"     # or ThrottlingException, ProvisionedThroughputExceededException,
    share = 0.1                       #    TransactionConflictException, TransactionConflict
    [[fault]]
    operation = "BatchWriteItem"
    unprocessed = 0.5                 # a share of the batch's entries handed back (at least one)
    count = 3                         # the first 3 matching requests only
    [[fault]]
    table = "Orders"
    latency = 0.25                    # seconds the answer takes longer
    share = 0.01
    [lifecycle]                       # seconds: create, index, delete, ttl; items a second: backfill
    [consistency]                     # window, stale, gsi_lag, index_lag = { ByStatus = 2.0 }
    [transactions]
    duration = 0.03                   # seconds a transaction holds its items
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

from ..types import from_python
from .faults import ERRORS, REASONS, THROTTLES, Rule
from .conflicts import Conflicts
from .consistency import Consistency
from .lifecycle import Lifecycle
from .vector_timing import REALISTIC, VectorTiming
from .model import Realism

# (model) figures: tables CREATING 15 s, new GSIs 15 s before a backfill of 3,000 items a second, tables DELETING
# 15 s — AWS publishes no figure; recorded creations took 15-20 s for tables, 14-22 s for GSIs (vector-search.md).
# Consistency: "usually reached within a second" (DynamoDB developer guide, read consistency) is the window; GSIs
# take "a fraction of a second" (guide, GSI attribute projections): 0.5 s (model); the chance an eventually
# consistent read lags is unpublished: 0.1 (model). Transactions: 30 ms (model: no published figure). TTL: ENABLED
# at once and deletions up to 30 minutes late, as observed (item-api §6.1, §6.2; AWS says "within 48 hours").
AWS_LIFECYCLE = {"create": 15.0, "index": 15.0, "backfill": 3000.0, "delete": 15.0, "ttl": 0.0, "ttl_lag": 1800.0}
AWS_CONSISTENCY = {"window": 1.0, "stale": 0.1, "gsi_lag": 0.5}
AWS_TRANSACTIONS = {"duration": 0.03}
PRESETS = {"off": lambda: None,
           "aws": lambda: Realism(source="the aws preset",
                                  lifecycle=Lifecycle(**AWS_LIFECYCLE, vectors=VectorTiming(**REALISTIC)),
                                  consistency=Consistency(**AWS_CONSISTENCY),
                                  conflicts=Conflicts(**AWS_TRANSACTIONS))}
TOP = ("seed", "fault", "lifecycle", "consistency", "transactions")
# [lifecycle]: seconds tables (create) and new GSIs (index) are CREATING, the items a second a GSI backfills
# (backfill, 0: at once), seconds a deleted table is DELETING (delete), seconds TTL is ENABLING / DISABLING (ttl)
# and the most an expired item waits for its deletion (ttl_lag); [consistency]: seconds a write's previous
# version may be read (window), the chance an eventually consistent read of it does (stale), seconds a GSI lags
# its table (gsi_lag; index_lag, a table of index name = seconds, for one index); [transactions]: seconds a
# transaction holds its items (duration). name -> (default, most, what it is)
LIFECYCLE = {"create": (0.0, 86_400, "seconds"), "index": (0.0, 86_400, "seconds"),
             "backfill": (0.0, 10_000_000, "items a second"), "delete": (0.0, 86_400, "seconds"),
             "ttl": (0.0, 86_400, "seconds"), "ttl_lag": (0.0, 30 * 86_400, "seconds")}
CONSISTENCY = {"window": (1.0, 3600, "seconds"), "stale": (0.0, 1, "a share"), "gsi_lag": (0.0, 3600, "seconds")}
TRANSACTIONS = {"duration": (0.0, 60, "seconds")}
LATENCY = (0.0, 60, "seconds")  # a rule's latency
RULE = ("operation", "table", "index", "key", "error", "share", "count", "unprocessed", "latency", "reason")


class RealismError(ValueError):
    """A realism setting that cannot be, with its place."""


def realism_from(spec) -> Realism | None:
    """``spec``: None or a preset name (``off``), a TOML file's path, a dict as the file holds, or a Realism."""
    if spec is None or isinstance(spec, Realism):
        return spec
    if isinstance(spec, dict):
        return parse(spec, "<realism>")
    if isinstance(spec, str) and spec in PRESETS:
        return PRESETS[spec]()  # (a new one per engine: a lifecycle holds its tables' clocks)
    path = Path(spec)
    if not path.is_file():
        raise RealismError(f"realism takes a preset ({', '.join(PRESETS)}) or a TOML file; {spec} is neither")
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise RealismError(f"{spec}: not TOML: {error}") from None
    return parse(document, str(spec))


def parse(document: dict, source: str) -> Realism:
    unknown = sorted(set(document) - set(TOP))
    if unknown:
        raise RealismError(f"{source}: unknown {', '.join(unknown)} (it takes seed, [[fault]], [lifecycle], "
                           "[consistency] and [transactions])")
    seed = document.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RealismError(f"{source}: seed takes a whole number, not {seed!r}")
    rules = document.get("fault", [])
    if not isinstance(rules, list):
        raise RealismError(f"{source}: fault takes [[fault]] tables ({', '.join(RULE)})")
    return Realism([_rule(entry, f"{source}: fault[{n}]") for n, entry in enumerate(rules)], seed, source,
                   Lifecycle(**_figures(document["lifecycle"], f"{source}: lifecycle", LIFECYCLE), seed=seed)
                   if "lifecycle" in document else None,
                   _consistency(document["consistency"], f"{source}: consistency")
                   if "consistency" in document else None,
                   Conflicts(**_figures(document["transactions"], f"{source}: transactions", TRANSACTIONS))
                   if "transactions" in document else None)


def _consistency(entry, where: str) -> Consistency:
    """``[consistency]``: its figures, and ``index_lag``, seconds by index name."""
    lags = entry.get("index_lag", {}) if isinstance(entry, dict) else {}
    if not isinstance(lags, dict):
        raise RealismError(f"{where}.index_lag takes a table of index name = seconds")
    figures = _figures({k: v for k, v in entry.items() if k != "index_lag"} if isinstance(entry, dict) else entry,
                       where, CONSISTENCY, extra=("index_lag",))
    return Consistency(**figures, index_lag={name: _number(seconds, f"{where}.index_lag.{name}",
                                                           CONSISTENCY["gsi_lag"]) for name, seconds in lags.items()})


def _figures(entry, where: str, figures: dict, extra: tuple = ()) -> dict:
    """The numbers of a ``[lifecycle]``, ``[consistency]`` or ``[transactions]`` table: each in its range, its
    default when unsaid (``extra``: other members the caller reads)."""
    takes = ", ".join((*figures, *extra))
    if not isinstance(entry, dict):
        raise RealismError(f"{where} takes a table ({takes})")
    unknown = sorted(set(entry) - set(figures))
    if unknown:
        raise RealismError(f"{where}: unknown {', '.join(unknown)} (it takes {takes})")
    return {name: _number(entry.get(name, figure[0]), f"{where}.{name}", figure) for name, figure in figures.items()}


def _number(value, where: str, figure: tuple) -> float:
    """``value`` as a figure (default, most, what it is) takes it, or a RealismError naming ``where``."""
    _, top, what = figure
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= top:
        raise RealismError(f"{where} takes {what} from 0 to {top:,}, not {value!r}")
    return float(value)


def _rule(entry, where: str) -> Rule:
    if not isinstance(entry, dict):
        raise RealismError(f"{where} takes a table ({', '.join(RULE)})")
    unknown = sorted(set(entry) - set(RULE))
    if unknown:
        raise RealismError(f"{where}: unknown {', '.join(unknown)} (it takes {', '.join(RULE)})")
    error, unprocessed = entry.get("error"), _share(entry.get("unprocessed", 0.0), f"{where}.unprocessed")
    latency = _number(entry.get("latency", 0.0), f"{where}.latency", LATENCY)
    if [error is not None, bool(unprocessed), bool(latency)].count(True) != 1:
        raise RealismError(f"{where} takes error, unprocessed or latency (one of them)")
    if error is not None and error not in ERRORS:
        raise RealismError(f"{where}.error takes {', '.join(ERRORS)}, not {error!r}")
    reason = entry.get("reason")
    if reason is not None and (error not in THROTTLES or reason not in REASONS):
        raise RealismError(f"{where}.reason names a throttle's reason ({', '.join(REASONS[:3])}, …: throughput.md "
                           f"§5), with error {' or '.join(THROTTLES)}; not {reason!r}")
    operations = entry.get("operation", [])
    operations = [operations] if isinstance(operations, str) else operations
    if not isinstance(operations, list) or not all(isinstance(o, str) and o for o in operations):
        raise RealismError(f"{where}.operation takes an operation's name or a list of them")
    if unprocessed and any(o not in ("BatchWriteItem", "BatchGetItem") for o in operations or ["*"]):
        raise RealismError(f"{where}: unprocessed applies to BatchWriteItem and BatchGetItem: name them in operation")
    for name in ("table", "index"):
        if name in entry and (not isinstance(entry[name], str) or not entry[name]):
            raise RealismError(f"{where}.{name} takes a name")
    key = entry.get("key", {})
    if not isinstance(key, dict):
        raise RealismError(f"{where}.key takes a table of attribute = value")
    count = entry.get("count")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 1):
        raise RealismError(f"{where}.count takes a whole number >= 1, not {count!r}")
    try:
        key = {name: from_python(value) for name, value in key.items()}
    except (TypeError, ValueError) as error:
        raise RealismError(f"{where}.key: {error}") from None
    return Rule(error, tuple(operations), entry.get("table"), entry.get("index"), key,
                _share(entry.get("share", 1.0), f"{where}.share"), count, unprocessed, latency, reason)


def _share(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= 1:
        raise RealismError(f"{where} takes a share from 0 to 1, not {value!r}")
    return float(value)


INDEX_TIMINGS = ("instant", "realistic")


def with_index_timing(realism, timing: str):
    """``realism`` (a Realism or None) with vector indexes' phases on the clock when ``timing`` is "realistic"
    (vector-search.md §1: ``index_timing``; "instant", the default, changes nothing); ValueError for another."""
    if timing not in INDEX_TIMINGS:
        raise ValueError(f"index_timing takes {' or '.join(INDEX_TIMINGS)}, not {timing!r}")
    if timing == "instant":
        return realism
    if realism is None:
        realism = Realism(source="index timing realistic")
    if realism.lifecycle is None:
        realism.lifecycle = Lifecycle(seed=realism.seed)
    if realism.lifecycle.vectors is None:
        realism.lifecycle.vectors = VectorTiming(**REALISTIC)
    return realism
