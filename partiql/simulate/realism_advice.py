"""What a run with ``[realism]`` met, and the advice it gives (issue 33 point 6): stale reads, transaction
conflicts, injected faults, and what its clients' retries did about them."""

from __future__ import annotations

from .retries import CONFLICTS

# faults an SDK retries (item-api §9: throttles and 5xx)
RETRYABLE = ("InternalServerError", "ThrottlingException", "ProvisionedThroughputExceededException")


def realism_data(db) -> dict | None:
    """The engine's realism as the report shows it (None: off): its source, the faults injected by kind, the
    conflicts met, the items served stale."""
    realism = db.engine.realism
    if realism is None:
        return None
    return {"source": realism.source, "injected": realism.total,
            "injected_by_kind": dict(realism.kinds.most_common()),
            "conflicts": realism.conflicts.met if realism.conflicts is not None else 0,
            "stale_items": realism.consistency.served if realism.consistency is not None else 0}


def realism_advice(found: dict) -> list:
    """Per pattern: reads served stale, writes that met a transaction, faults an SDK would retry."""
    out = []
    for pattern in found["patterns"]:
        out += [line for line in (_stale(pattern), _conflicts(pattern), _faults(pattern), _retries(pattern))
                if line]
    return out


def _stale(pattern: dict) -> str | None:
    if not pattern.get("stale"):
        return None
    share = pattern["stale"] / pattern["served"]
    where = (f"{pattern['name']}: {pattern['stale']:,} of {pattern['served']:,} reads ({share:.1%}) did not yet see "
             f"a write ({pattern['stale_items']:,} items as they were before it)")
    if "." in (pattern.get("access") or "").split(" on ")[-1]:  # (an index: never strongly consistent)
        return (where + ": a GSI is eventually consistent only — read an item you have just written from the "
                "table (GetItem with ConsistentRead) or from the write's own response (ReturnValues), and "
                "let lists read from the index tolerate the lag")
    return (where + ": read what must reflect the last write with ConsistentRead (twice the read units), or use "
            "the write's response (ReturnValues) instead of reading it back")


def conflicts_met(pattern: dict) -> int:
    """A pattern's requests that met a transaction holding their item (either of DynamoDB's two answers)."""
    return sum(pattern["errors"].get(code, 0) for code in CONFLICTS)


def _conflicts(pattern: dict) -> str | None:
    met = conflicts_met(pattern)
    if not met:
        return None
    return (f"{pattern['name']}: {met:,} requests ({met / pattern['requested']:.1%}) met a transaction holding the "
            "same item (TransactionConflict): concurrent transactions on a hot item serialise — keep the hot item "
            "(a counter, a total) out of the transaction or shard it, guard the invariant with a condition check "
            "on one item where that suffices, and retry with exponential back-off and jitter under an idempotency "
            "token (ClientRequestToken) so a retry never applies twice")


def _faults(pattern: dict) -> str | None:
    injected = {code: count for code, count in {**pattern["errors"], **pattern["reasons"]}.items()
                if code in RETRYABLE}
    if not injected:
        return None
    named = ", ".join(f"{code} × {count:,}" for code, count in injected.items())
    return (f"{pattern['name']}: {named}: the SDKs retry these (standard mode: exponential back-off with jitter); "
            "make writes idempotent — a condition expression, or ClientRequestToken for transactions — so a retry "
            "after a lost answer does not apply twice")


def _retries(pattern: dict) -> str | None:
    if not pattern.get("gave_up"):
        return None
    return (f"{pattern['name']}: {pattern['gave_up']:,} requests failed even after their last retry "
            f"({pattern['retried']:,} retries, {pattern['retried'] / pattern['requested']:.2f} a request): retries "
            "add load, not capacity — when what refuses is one item or one partition, spread the writes (shard "
            "the key, keep the hot item out of transactions) rather than retry harder")
