"""``partiql serve`` under stuck and hostile clients (issue 38 point 4), with real processes and sockets: a
half-sent body cannot hold SIGTERM past the drain, a second signal stops at once, unterminated header
sections and trickling requests are cut off, a read-only file is refused at start, and the log counts a
repeated warning instead of repeating it."""

from __future__ import annotations

import http.client
import logging
import os
import shutil
import signal
import socket
import subprocess
import threading
import time

import pytest

import partiql
from partiql.server import Server
from partiql.server.log import Repeats

from .conftest import HASH_RANGE, SIGNED
from .test_serve_command import post, start

HALF = (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
        b"X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
        + b"".join(f"{name}: {value}\r\n".encode() for name, value in SIGNED.items())
        + b"Content-Length: 100\r\n\r\n{\"a\"")


def _port(url: str) -> int:
    return int(url.rpartition(":")[2])


def _stuck_client(url: str) -> socket.socket:
    """A client that sent half its body and waits."""
    stuck = socket.create_connection(("127.0.0.1", _port(url)))
    stuck.sendall(HALF)
    time.sleep(0.3)
    return stuck


def _until_exit(process, limit: float) -> float:
    started = time.monotonic()
    process.wait(timeout=limit)
    return time.monotonic() - started


def test_a_half_sent_body_does_not_hold_sigterm_past_the_drain():
    process, url, _ = start("--drain", "1")
    stuck = _stuck_client(url)
    process.send_signal(signal.SIGTERM)
    took = _until_exit(process, 15)
    err = process.stderr.read()
    stuck.close()
    assert took < 4, took
    assert process.returncode == 0 and "Traceback" not in err
    assert "closed 1 connection(s) whose requests were not done after the 1 s drain" in err
    assert "database closed" in err


def test_a_second_signal_stops_at_once():
    process, url, _ = start("--drain", "60")
    stuck = _stuck_client(url)
    process.send_signal(signal.SIGTERM)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    took = _until_exit(process, 15)
    err = process.stderr.read()
    stuck.close()
    assert took < 3, took
    assert process.returncode == 0 and "Traceback" not in err and "database closed" in err


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _endless_header(url: str, sent: list, answers: list) -> None:
    """Send one header section that never ends, up to 100 MB, until the server closes the connection."""
    connection = socket.create_connection(("127.0.0.1", _port(url)))
    chunk = b"X-Padding: " + b"a" * (1 << 20) + b"\r\n"
    total = 0
    try:
        connection.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")
        while total < 100 << 20:
            connection.sendall(chunk)
            total += len(chunk)
    except OSError:
        pass
    try:
        answers.append(connection.recv(200))
    except OSError:
        answers.append(b"")
    sent.append(total)
    connection.close()


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the server's RSS from /proc")
def test_ten_endless_header_sections_leave_the_server_small_and_answering():
    process, url, _ = start()
    try:
        sent, answers = [], []
        clients = [threading.Thread(target=_endless_header, args=(url, sent, answers)) for _ in range(10)]
        for client in clients:
            client.start()
        peak = 0.0
        while any(client.is_alive() for client in clients):
            peak = max(peak, _rss_mb(process.pid))
            time.sleep(0.05)
        connection = http.client.HTTPConnection("127.0.0.1", _port(url), timeout=30)
        status, body = post(connection, "ListTables", {})
        connection.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert peak < 200, peak
    assert max(sent) < 100 << 20  # every one was cut off long before its 100 MB
    assert all(answer.startswith(b"HTTP/1.1 431 ") or answer == b"" for answer in answers), answers
    assert any(answer.startswith(b"HTTP/1.1 431 ") for answer in answers)
    assert (status, body) == (200, {"TableNames": []})


@pytest.fixture
def quick_server():
    db = partiql.connect()
    with Server(db, port=0, request_seconds=1.0) as running:
        yield running
    db.close()


@pytest.mark.parametrize("sends", [b"", b"POST / HTTP/1"], ids=["silent", "trickling"])
def test_a_request_not_whole_in_time_is_answered_408_and_closed(quick_server, sends):
    client = socket.create_connection(("127.0.0.1", quick_server.port), timeout=10)
    started = time.monotonic()
    for byte in sends:  # a byte every 50 ms for 0.65 s, then nothing: the request is never whole
        client.sendall(bytes([byte]))
        time.sleep(0.05)
    answer = client.recv(200)
    assert client.recv(200) == b""  # (closed)
    client.close()
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert 0.9 < time.monotonic() - started < 5


def test_a_slow_request_that_arrives_whole_is_served(quick_server):
    client = http.client.HTTPConnection("127.0.0.1", quick_server.port, timeout=10)
    assert post(client, "CreateTable", {"TableName": "Tee", **HASH_RANGE})[0] == 200
    time.sleep(1.5)  # idle between requests (keep-alive) is not a request being late
    assert post(client, "ListTables", {}) == (200, {"TableNames": ["Tee"]})
    client.close()


@pytest.fixture
def read_only_file(tmp_path):
    path = tmp_path / "ro.db"
    with partiql.connect(str(path)) as db:
        db.execute("CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)")
    if os.geteuid() == 0:  # (root writes a file whatever its mode: make it immutable instead)
        if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(path)]).returncode:
            pytest.skip("running as root without chattr +i: no file is read-only to this user")
        yield str(path)
        subprocess.run(["chattr", "-i", str(path)])
    else:
        path.chmod(0o444)
        yield str(path)


def test_a_read_only_file_is_refused_at_start_not_acknowledged(read_only_file):
    process = subprocess.run(["partiql", "serve", read_only_file, "--port", "0"], capture_output=True, text=True,
                             timeout=60)
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert (f"partiql: cannot open {read_only_file} for writing: the file is read-only to this user; read a "
            "snapshot of it with --read-only") in process.stderr
    with pytest.raises(OSError, match="is read-only to this user"):
        partiql.connect(read_only_file)


def test_the_log_counts_a_repeated_warning_per_interval():
    """On a virtual clock: the first of a subject at once, its repeats told when the interval is over."""
    now = [0.0]
    lines = []

    class Lines:
        def write(self, text):
            lines.extend(line for line in text.splitlines() if line)

        def flush(self):
            pass

    handler = Repeats(Lines(), interval=5, clock=lambda: now[0])
    logger = logging.getLogger("test.repeats")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for second in range(12):
            now[0] = second * 0.5
            logger.warning("hot key k1: %d units", second, extra={"subject": "hot key k1"})
        logger.warning("cold key k2: 1 unit", extra={"subject": "cold key k2"})
        now[0] = 6.0
        logger.warning("hot key k1: 99 units", extra={"subject": "hot key k1"})
        handler.close()
    finally:
        logger.removeHandler(handler)
    assert lines == ["hot key k1: 0 units",  # (t = 0)
                     "hot key k1: 9 units (× 9 more in the last 5 s)",  # (t = 5: 0.5 … 4.5 told)
                     "hot key k1: 10 units",  # (a new interval)
                     "cold key k2: 1 unit",  # (another subject, at once)
                     "hot key k1: 99 units (× 2 more in the last 1 s)"]  # (5.5 and 6, told at close)


def test_a_hot_key_s_warnings_are_counted_in_the_server_log():
    process, url, _ = start("--throughput", "report")
    try:
        connection = http.client.HTTPConnection("127.0.0.1", _port(url), timeout=30)
        post(connection, "CreateTable", {
            "TableName": "Thin", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}})
        for i in range(500):  # past the 300-unit burst: ~200 warnings of one subject within seconds
            post(connection, "PutItem", {"TableName": "Thin", "Item": {"pk": {"S": "hot"}, "n": {"N": str(i)}}})
        connection.close()
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    warnings = [line for line in err.splitlines() if "TableWriteProvisionedThroughputExceeded on Thin" in line]
    assert 1 <= len(warnings) <= 10, len(warnings)
    assert any(" more in the last " in line for line in warnings)
