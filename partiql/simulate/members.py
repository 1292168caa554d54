"""The one check of what a workload's TOML tables hold: a table, with the members it needs and no other."""

from __future__ import annotations

from .errors import WorkloadError


def members(entry, where: str, required: tuple = (), optional: tuple = ()) -> dict:
    """``entry`` when it is a TOML table holding every ``required`` member and nothing beyond ``required`` and
    ``optional``; a WorkloadError naming ``where`` otherwise."""
    if not isinstance(entry, dict):
        raise WorkloadError(f"{where} takes a table ({', '.join(required + optional)})")
    missing = [name for name in required if name not in entry]
    if missing:
        raise WorkloadError(f"{where} needs {', '.join(missing)}")
    unknown = sorted(set(entry) - set(required) - set(optional))
    if unknown:
        raise WorkloadError(f"{where}: unknown {', '.join(unknown)} (it takes {', '.join(required + optional)})")
    return entry


def named_tables(entry, where: str) -> dict:
    """``entry`` when it is a TOML table of tables named by the user (a table's or an index's name -> settings)."""
    if not isinstance(entry, dict):
        raise WorkloadError(f"{where} takes a table")
    return entry
