"""``partiql serve`` as a process: its announcement, SIGTERM, and no acknowledged write lost under load."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

import partiql

from .conftest import HASH_RANGE, SIGNED

CLIENTS = 16
LOAD_SECONDS = float(os.environ.get("PARTIQL_SERVE_LOAD_SECONDS", 3))  # the 30 s: set it to 30


def start(*args) -> tuple[subprocess.Popen, str, str]:
    process = subprocess.Popen([sys.executable, "-m", "partiql.shell", "serve", "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    found = re.search(r"http://[^ ,]+", line)
    assert found, (line, process.stderr.read() if process.poll() is not None else "")
    return process, found.group(0), line


def stop(process) -> tuple[int, str]:
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    return process.returncode, err


def post(connection, operation: str, body: dict) -> tuple[int, dict]:
    connection.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"DynamoDB_20120810.{operation}", **SIGNED})
    response = connection.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else {})


def test_in_memory_announcement_and_clean_stop():
    process, url, line = start()
    assert line.strip() == f"partiql serve: listening on {url}, serving an in-memory database (lost on exit)"
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url)
    code, err = stop(process)
    assert code == 0 and "database closed" in err


def test_an_open_bind_warns():
    process, url, _ = start("--host", "0.0.0.0")
    code, err = stop(process)
    assert code == 0 and "anyone who can reach it can read and write every table" in err


def test_sigterm_under_load_loses_no_acknowledged_write(tmp_path):
    path = tmp_path / "load.db"
    process, url, line = start(str(path))
    assert f"serving database {path}" in line
    port = int(url.rpartition(":")[2])
    setup = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    assert post(setup, "CreateTable", {"TableName": "Load", **HASH_RANGE})[0] == 200
    setup.close()
    acknowledged = [[] for _ in range(CLIENTS)]
    barrier = threading.Barrier(CLIENTS + 1)

    def client(number: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        barrier.wait()
        for sequence in range(10**9):
            item = {"pk": {"S": f"c{number}"}, "sk": {"N": str(sequence)}}
            try:
                status, _ = post(connection, "PutItem", {"TableName": "Load", "Item": item})
            except (OSError, http.client.HTTPException):
                return  # the server went away: what it acknowledged is what counts
            assert status == 200
            acknowledged[number].append(sequence)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    barrier.wait()
    time.sleep(LOAD_SECONDS)  # the load's duration, not a timing assertion
    code, err = stop(process)
    for thread in threads:
        thread.join(timeout=60)
    assert code == 0, err
    assert sum(map(len, acknowledged)) > CLIENTS  # every client got writes through
    with partiql.connect(path) as db:  # the file is closed and unlocked
        stored = {}
        for page in db.pages("SELECT pk, sk FROM Load"):
            for item in page.items:
                stored.setdefault(item["pk"], set()).add(int(item["sk"]))
        for number, sequences in enumerate(acknowledged):
            assert set(sequences) <= stored.get(f"c{number}", set())


@pytest.mark.parametrize("mode, status, logged", [("report", 200, True), ("enforce", 400, False)])
def test_throughput_modes_over_the_wire(mode, status, logged):
    process, url, _ = start("--throughput", mode)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", int(url.rpartition(":")[2]), timeout=30)
        post(connection, "CreateTable", {
            "TableName": "Thin", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}})
        answers = [post(connection, "PutItem", {"TableName": "Thin", "Item": {"pk": {"S": f"k{i}"}}})
                   for i in range(400)]  # well past the 300-unit burst, refilled at 1 unit a second
        connection.close()
    finally:
        code, err = stop(process)
    assert code == 0
    assert answers[-1][0] == status
    if status == 400:
        assert answers[-1][1]["__type"].endswith("#ProvisionedThroughputExceededException")
    assert ("partiql serve: warning: TableWriteProvisionedThroughputExceeded on Thin" in err) == logged
