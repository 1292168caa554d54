"""Wire-server benchmark: ``partiql serve`` against moto's server, same client, same run.

    python bench/server.py [--requests 3000] [--runs 3] [--no-moto]

Both servers run as child processes on port 0 / a free port. For each:

- GetItem, PutItem and Query (10 items) requests/s over one raw keep-alive
  connection (a socket; requests prepared as bytes, responses read by length), and the server's CPU
  per request (its user+system time over the run, from /proc);
- GetItem requests/s over 16 concurrent keep-alive connections (16 client
  threads: the client's own GIL bounds this figure on a small machine);
- boto3 ``get_item`` calls/s (boto3's own ~1 ms per call bounds it);
- the floors (``bench/floor_server.py``): GetItem over one connection against
  partiql's own server stack answering without the database — measured in
  turns with ``partiql serve``, their ratio printed (issue 34: ≥ 0.7) — and,
  with moto, against a bare httptools server: what the stack and this client
  allow at all, so the ratio to moto can be read against its ceiling.

Medians of ``--runs``; the ratios partiql/moto are printed last. Compare only
runs whose reference lines agree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time

from _support import reference_speed  # (must precede the partiql import)

TABLE = "Bench"
# A well-formed signature: a served database refuses a request without one (recorded-2026-11 C2).
SIGNED = {"Authorization": "AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, "
                           "SignedHeaders=host, Signature=0", "X-Amz-Date": "20260101T000000Z",
          "Content-Type": "application/x-amz-json-1.0"}
CREATE = {"TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
          "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                   {"AttributeName": "sk", "AttributeType": "N"}]}
GET = {"TableName": TABLE, "Key": {"pk": {"S": "p0"}, "sk": {"N": "1"}}}
QUERY = {"TableName": TABLE, "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p0"}},
         "Limit": 10}
CLIENTS = 16


def _put(i: int) -> dict:
    return {"TableName": TABLE, "Item": {"pk": {"S": f"w{i % 100}"}, "sk": {"N": str(i)}, "v": {"S": "x" * 40}}}


class Child:
    """A server process: its URL and its CPU seconds so far."""

    def __init__(self, argv: list, url: str | None = None):
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if url is None:
            url = re.search(r"http://[^ ,]+", self.process.stdout.readline()).group(0)
        self.url = url
        self.port = int(url.rpartition(":")[2])
        _wait_for(self.port)

    def cpu(self) -> float:
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"no server on port {port}")


class Connection:
    """One keep-alive connection over a raw socket: requests written as bytes, responses read by
    Content-Length (no http.client, whose header parsing would dominate the figures).
    Reopened when the server closes it (moto's may)."""

    def __init__(self, port: int):
        self.port = port
        self.sock = None
        self.buffer = b""

    def _open(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def call(self, operation: str, body: dict) -> bytes:
        return self.send(request_bytes(operation, body))

    def send(self, request: bytes) -> bytes:
        if self.sock is None:
            self._open()
        self.sock.sendall(request)
        while b"\r\n\r\n" not in self.buffer:
            self._receive()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        length = int(_LENGTH.search(head).group(1))
        self.buffer = rest
        while len(self.buffer) < length:
            self._receive()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        if head[9:12] != b"200":
            raise RuntimeError(f"{head[:12]!r} {body[:200]!r}")
        if _CLOSE.search(head):
            self.sock.close()
            self.sock = None
        return body

    def _receive(self) -> None:
        data = self.sock.recv(1 << 16)
        if not data:
            raise ConnectionError("the server closed the connection mid-response")
        self.buffer += data


_LENGTH = re.compile(rb"(?i)\r\ncontent-length: *(\d+)")
_CLOSE = re.compile(rb"(?i)\r\nconnection: *close")


def request_bytes(operation: str, body: dict) -> bytes:
    data = json.dumps(body).encode()
    head = "".join(f"{name}: {value}\r\n" for name, value in {
        **SIGNED, "Host": "127.0.0.1", "X-Amz-Target": f"DynamoDB_20120810.{operation}",
        "Content-Length": len(data)}.items())
    return f"POST / HTTP/1.1\r\n{head}\r\n".encode() + data


def prepare(port: int) -> None:
    connection = Connection(port)
    connection.call("CreateTable", CREATE)
    for i in range(20):
        connection.call("PutItem", {"TableName": TABLE, "Item": {"pk": {"S": "p0"}, "sk": {"N": str(i)},
                                                                  "v": {"S": "x" * 40}}})


def one_connection(child: Child, operation: str, body_of, count: int) -> tuple[float, float]:
    """(requests/s, server CPU µs per request) over one keep-alive connection."""
    connection = Connection(child.port)
    requests = [request_bytes(operation, body_of(i)) for i in range(count)]
    connection.send(requests[0])  # warm
    cpu, start = child.cpu(), time.perf_counter()
    for request in requests:
        connection.send(request)
    elapsed = time.perf_counter() - start
    return count / elapsed, (child.cpu() - cpu) / count * 1e6


def concurrent(child: Child, count: int) -> float:
    """GetItem requests/s over 16 keep-alive connections at once."""
    per_client = max(1, count // CLIENTS)
    barrier = threading.Barrier(CLIENTS + 1)
    done = threading.Barrier(CLIENTS + 1)

    def client():
        connection = Connection(child.port)
        request = request_bytes("GetItem", GET)
        connection.send(request)
        barrier.wait()
        for _ in range(per_client):
            connection.send(request)
        done.wait()

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    done.wait()
    elapsed = time.perf_counter() - start
    for thread in threads:
        thread.join()
    return per_client * CLIENTS / elapsed


def boto3_calls(child: Child, count: int) -> float:
    import boto3

    client = boto3.client("dynamodb", endpoint_url=child.url, region_name="us-east-1",
                          aws_access_key_id="bench", aws_secret_access_key="bench")
    client.get_item(**GET)
    start = time.perf_counter()
    for _ in range(count):
        client.get_item(**GET)
    return count / (time.perf_counter() - start)


def measure(child: Child, count: int, runs: int) -> dict:
    prepare(child.port)
    rows = {}
    for name, operation, body_of in (("GetItem", "GetItem", lambda i: GET), ("PutItem", "PutItem", _put),
                                     ("Query(10)", "Query", lambda i: QUERY)):
        samples = [one_connection(child, operation, body_of, count) for _ in range(runs)]
        rows[f"{name} 1 conn"] = (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))
    rows[f"GetItem {CLIENTS} conns"] = (statistics.median(concurrent(child, count) for _ in range(runs)), None)
    rows["boto3 get_item"] = (statistics.median(boto3_calls(child, max(200, count // 5)) for _ in range(runs)), None)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-moto", action="store_true")
    parser.add_argument("--no-floors", action="store_true", help="skip the zero-work reference servers")
    args = parser.parse_args()
    print(reference_speed())
    servers = {"partiql": [sys.executable, "-m", "partiql.shell", "serve", "--port", "0"]}
    if not args.no_moto:
        port = _free_port()
        servers["moto"] = ([sys.executable, "-m", "moto.server", "-p", str(port)], f"http://127.0.0.1:{port}")
    results, floor = {}, None
    for name, spec in servers.items():
        argv, url = spec if isinstance(spec, tuple) else (spec, None)
        child = Child(argv, url)
        try:
            results[name] = measure(child, args.requests if name == "partiql" else max(300, args.requests // 10),
                                    args.runs)
            if name == "partiql" and not args.no_floors:
                floor = against_floor(child, args.requests, args.runs)
        finally:
            child.stop()
    print(f"{'':24}" + "".join(f"{name + ' req/s':>16}{'CPU µs/req':>12}" for name in results)
          + ("   partiql/moto" if "moto" in results else ""))
    for row in results["partiql"]:
        line = f"{row:24}"
        for name in results:
            rate, cpu = results[name][row]
            line += f"{rate:16,.0f}{(f'{cpu:,.0f}' if cpu is not None else '-'):>12}"
        if "moto" in results:
            line += f"{results['partiql'][row][0] / results['moto'][row][0]:14.1f}×"
        print(line)
    if floor is not None:
        (served, served_cpu), (bare, bare_cpu), ratio = floor
        print(f"GetItem 1 conn against its own stack's zero-work floor, in turns: {served:,.0f} req/s "
              f"({served_cpu:,.0f} µs CPU) against {bare:,.0f} req/s ({bare_cpu:,.0f} µs CPU): ×{ratio:.2f}")
    if "moto" in results and not args.no_floors:
        _print_floors(results, args.requests, args.runs)
    print(reference_speed())


def against_floor(child: Child, count: int, runs: int) -> tuple:
    """GetItem over one connection to ``child`` and to partiql's own stack answering without the database
    (``floor_server.py stack``), taking turns: ((req/s, CPU µs) each, the median of the paired ratios)."""
    floor = Child([sys.executable, os.path.join(os.path.dirname(__file__), "floor_server.py"), "stack"])
    try:
        pairs = []
        for turn in range(max(3, runs) * 3):  # (the first of each pair alternates)
            first, second = (child, floor) if turn % 2 == 0 else (floor, child)
            one, other = (one_connection(side, "GetItem", lambda i: GET, count // 3) for side in (first, second))
            pairs.append((one, other) if first is child else (other, one))
    finally:
        floor.stop()
    served = (statistics.median(p[0][0] for p in pairs), statistics.median(p[0][1] for p in pairs))
    bare = (statistics.median(p[1][0] for p in pairs), statistics.median(p[1][1] for p in pairs))
    return served, bare, statistics.median(p[0][0] / p[1][0] for p in pairs)


def _print_floors(results: dict, count: int, runs: int) -> None:
    moto = results["moto"]["GetItem 1 conn"][0]
    print(f"floors, GetItem 1 conn (20× moto would be {20 * moto:,.0f} req/s):")
    for mode, what in (("stack", "partiql's server stack, no database work"),
                       ("client", "bare httptools + uvloop, no work at all")):
        child = Child([sys.executable, os.path.join(os.path.dirname(__file__), "floor_server.py"), mode])
        try:
            samples = [one_connection(child, "GetItem", lambda i: GET, count) for _ in range(runs)]
        finally:
            child.stop()
        rate, cpu = statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)
        print(f"  {what:44}{rate:12,.0f} req/s{cpu:8,.0f} µs CPU{rate / moto:8.1f}× moto")


if __name__ == "__main__":
    main()
