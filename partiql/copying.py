"""Copy tables between any two databases: a file, ``partiql serve``, an endpoint, real DynamoDB (issue 18.5).

    copy(partiql.connect(region="eu-west-1"), partiql.connect("local.db"), ["Orders"], sample=10_000)

A table's definition — keys, indexes, billing and throughput, stream and
Time to Live settings — is read from the source's DescribeTable /
DescribeTimeToLive and made again at the destination (CreateTable,
UpdateTimeToLive). With ``items`` every item follows; with ``sample=N`` the
first N items a Scan returns. Items travel as DynamoDB JSON lines through a
temporary file and the destination's own import (one transaction on a file;
batches with retries and ``max_wcu`` pacing on a remote table), so a copy
checks every row as an import does. A table that already exists at the
destination is refused, not merged.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field

from partiql.engine.errors import ResourceInUseException, ValidationException
from partiql.engine.requests.create_table import create_table_spec

from .schema import create_request
from .transfer_formats import FORMATS, Context


@dataclass
class CopyReport:
    """What a copy made: each table and the items it carried."""

    tables: list = field(default_factory=list)  # [(name, items copied)]
    seconds: float = 0.0

    def __str__(self) -> str:
        lines = [f"copied {name}: definition" + (f" and {count:,} item{'s' * (count != 1)}" if count is not None
                                                else "") for name, count in self.tables]
        return "\n".join(lines) + f"\n{len(self.tables)} table{'s' * (len(self.tables) != 1)} in {self.seconds:.1f} s"


def copy(source, dest, tables: list | None = None, *, items: bool = False, sample: int | None = None,
         max_wcu: float | None = None, progress=None, into_existing: bool = False) -> CopyReport:
    """Copy ``tables`` (every table: None) from connection ``source`` to connection ``dest``;
    ``into_existing``: a table that exists there (with the same key) takes the items, its definition kept."""
    if sample is not None and sample < 1:
        raise ValueError(f"sample takes a positive number of items, not {sample}")
    started = time.perf_counter()
    names = list(tables) if tables else source.table_names()
    existing = set(dest.table_names())
    clashes = [name for name in names if name in existing]
    if clashes and not into_existing:
        raise ResourceInUseException(f"Table already exists at the destination: {', '.join(clashes)} "
                                     "(a copy makes new tables: drop them there first, or fill them with "
                                     "--into-existing)")
    descriptions = {name: source.describe(name) for name in names}
    for name in clashes:
        _check_same_key(name, descriptions[name], dest.describe(name))
    report = CopyReport()
    for name in names:
        description = descriptions[name]
        if name not in existing:
            _create(source, dest, name, description)
        count = None
        if items or sample is not None:
            count = _copy_items(source, dest, description, sample, max_wcu, progress)
        report.tables.append((name, count))
    report.seconds = time.perf_counter() - started
    return report


def _create(source, dest, name: str, description: dict) -> None:
    dest.control("CreateTable", create_request(description))
    ttl = source.control("DescribeTimeToLive", {"TableName": name})["TimeToLiveDescription"]
    if ttl.get("TimeToLiveStatus") in ("ENABLED", "ENABLING"):
        dest.control("UpdateTimeToLive", {"TableName": name, "TimeToLiveSpecification": {
            "Enabled": True, "AttributeName": ttl["AttributeName"]}})


def _key_of(description: dict) -> list:
    types = {d["AttributeName"]: d["AttributeType"] for d in description["AttributeDefinitions"]}
    return [(k["AttributeName"], k["KeyType"], types.get(k["AttributeName"])) for k in description["KeySchema"]]


def _check_same_key(name: str, source: dict, dest: dict) -> None:
    """An existing destination table takes the items only if its key is the source's (names, roles, types)."""
    if _key_of(source) != _key_of(dest):
        shown = lambda key: ", ".join(f"{n} {t} {r}" for n, r, t in key)  # noqa: E731
        raise ValidationException(f"cannot copy {name} into the existing table: its key is ({shown(_key_of(dest))}),"
                                  f" the source's ({shown(_key_of(source))})")


def _copy_items(source, dest, description: dict, sample: int | None, max_wcu: float | None, progress) -> int:
    table = description["TableName"]
    folder = tempfile.mkdtemp(prefix="partiql-copy-")
    path = os.path.join(folder, f"{table}.jsonl")
    try:
        if sample is None:
            source.export_items(table, path, "ddb-json", progress=progress)
        else:
            _write_sample(source, description, path, sample)
        options = {"max_wcu": max_wcu} if dest.remote and max_wcu else {}
        return dest.import_items(table, path, "ddb-json", progress=progress, **options).imported
    finally:
        if os.path.exists(path):
            os.remove(path)
        os.rmdir(folder)


def _write_sample(source, description: dict, path: str, sample: int) -> None:
    """The first ``sample`` items a Scan of the table returns, as DynamoDB JSON lines."""
    table = description["TableName"]
    chosen, policy = [], source.scan_policy
    source.scan_policy = "allow"  # (a copy scans by design: the caller asked for the items)
    try:
        for page in source.pages(f'SELECT * FROM "{table}"', limit=min(sample, 1000)):
            chosen += page.items[:sample - len(chosen)]
            if len(chosen) >= sample:
                break
    finally:
        source.scan_policy = policy
    spec = create_table_spec(create_request(description))
    with open(path, "w", encoding="utf-8", newline="") as text:
        FORMATS["ddb-json"].write(text, chosen, Context(spec))
