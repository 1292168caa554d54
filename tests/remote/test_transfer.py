"""Import and export against a remote table (issue #18 point 4): batches of 25 whose unprocessed items are
resent with backoff until all are in (throttling injected by a test double), a capacity cap that paces the
writes, parallel Scan segments for export, all or nothing for bad rows, and the shell's options."""

from __future__ import annotations

import io
import json

import pytest

import partiql
from partiql.remote import RemoteConnection
from partiql.remote.transfer import Pace
from partiql.shell import cli
from partiql.transfer import TransferError


class Throttling:
    """A client that leaves the last ``share`` of each BatchWriteItem unprocessed, ``times`` times over
    (the rest goes to the real client); everything else passes through."""

    def __init__(self, client, times: int, share: float = 0.5):
        self.client, self.times, self.share = client, times, share
        self.batches: list = []

    def batch_write_item(self, RequestItems, **options):
        (table, requests), = RequestItems.items()
        self.batches.append(len(requests))
        keep = len(requests) if self.times <= 0 else int(len(requests) * (1 - self.share))
        if self.share < 1:
            keep = max(1, keep)  # (a partial throttle lets something through)
        self.times -= 1
        if keep == 0:
            return {"UnprocessedItems": {table: requests}, "ConsumedCapacity": []}
        answer = self.client.batch_write_item(RequestItems={table: requests[:keep]}, **options)
        answer["UnprocessedItems"] = {table: requests[keep:]} if requests[keep:] else {}
        return answer

    def __getattr__(self, name):
        return getattr(self.client, name)


def rows(path, count: int, start: int = 0):
    path.write_text("".join(json.dumps({"pk": f"k{n}", "n": n}) + "\n" for n in range(start, start + count)))
    return path


def test_an_import_throttled_on_every_batch_completes_without_loss(served, tmp_path):
    with served.connect() as setup:
        setup.execute("CREATE TABLE Throttled PRIMARY KEY (pk STRING HASH)")
        double = Throttling(setup.client, times=40)
    db = RemoteConnection(endpoint_url=served.url, client=double)
    report = db.import_items("Throttled", rows(tmp_path / "rows.jsonl", 260), "json")
    assert report.imported == 260 and report.errors == []
    assert len(double.batches) > 260 // 25 + 1  # unprocessed items were sent again
    found = [item["pk"] for page in db.pages("SELECT pk FROM Throttled") for item in page.items]
    assert sorted(found) == sorted(f"k{n}" for n in range(260))
    assert report.write_units == 260  # what the service said it consumed


def test_backoff_waits_grow_with_jitter_and_an_endless_throttle_gives_up(served, tmp_path):
    with served.connect() as setup:
        setup.execute("CREATE TABLE Stuck PRIMARY KEY (pk STRING HASH)")
        double = Throttling(setup.client, times=10 ** 9, share=1.0)
    db = RemoteConnection(endpoint_url=served.url, client=double)
    waits: list = []
    from partiql.remote import transfer
    with pytest.raises(TransferError, match="the service took none of 3 items"):
        transfer.import_items(db, "Stuck", rows(tmp_path / "three.jsonl", 3), "json", sleep=waits.append)
    retries = [wait for wait in waits if wait > 0]
    assert len(retries) == transfer.GIVE_UP_AFTER and all(0 <= w <= transfer.BACKOFF_CAP for w in retries)


def test_the_capacity_cap_paces_writes():
    now = [0.0]
    slept: list = []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    pace = Pace(100, clock=lambda: now[0], sleep=sleep)
    for _ in range(10):
        pace.take(50)  # 500 units at 100 a second: about four seconds of waiting after the first 100
    assert 3.9 <= sum(slept) <= 4.1


def test_a_bad_row_fails_the_import_before_anything_is_sent(served, tmp_path):
    with served.connect() as db:
        db.execute("CREATE TABLE Strict PRIMARY KEY (pk STRING HASH)")
        path = rows(tmp_path / "bad.jsonl", 5)
        path.write_text(path.read_text() + json.dumps({"nokey": 1}) + "\n")
        before = len(served.log)
        with pytest.raises(TransferError, match="1 bad row"):
            db.import_items("Strict", path, "json")
        assert "BatchWriteItem" not in served.sent(before)
        report = db.import_items("Strict", path, "json", continue_on_error=True)
        assert report.imported == 5 and report.errors[0][0] == 6


def test_export_reads_parallel_segments_and_round_trips(served, tmp_path):
    with served.connect() as db:
        db.execute("CREATE TABLE Exported PRIMARY KEY (pk STRING HASH)")
        db.import_items("Exported", rows(tmp_path / "in.jsonl", 120), "json")
        before = len(served.log)
        report = db.export_items("Exported", tmp_path / "out.jsonl", max_rcu=1000)
        assert report.exported == 120 and report.read_units > 0
        assert served.sent(before).count("Scan") >= 4  # one segment a thread, at least a page each
        lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
        assert sorted(int(line["Item"]["n"]["N"]) for line in lines) == list(range(120))


def test_the_shell_imports_and_exports_on_an_endpoint(served, tmp_path, capsys):
    with served.connect() as db:
        db.execute("CREATE TABLE ViaShell PRIMARY KEY (pk STRING HASH)")
    source = rows(tmp_path / "in.jsonl", 30)
    code = cli.main(["--endpoint-url", served.url, "-e", f".import {source} ViaShell --format json --max-wcu 500",
                     "-e", f".export ViaShell {tmp_path / 'out.jsonl'} --max-rcu 500"])
    err = capsys.readouterr().err
    assert code == 0 and "imported 30 items into ViaShell" in err and "exported 30 items of ViaShell" in err
    local = partiql.connect()
    local.execute("CREATE TABLE Lcl PRIMARY KEY (pk STRING HASH)")
    from partiql.shell.progress import Progress
    from partiql.shell.transfer import Request, run_import
    said: list = []
    assert not run_import(local, Request(str(source), "Lcl", "json", capacity=10), Progress(io.StringIO()),
                          lambda text, style: said.append(text))
    assert "paces a transfer with a remote table" in said[0]
    assert local.execute("SELECT * FROM Lcl WHERE pk = 'k1'").items == []
