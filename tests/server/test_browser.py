"""A browser reaches ``partiql serve`` (recorded-2026-11 C1, issue 32): headless Chromium loads a page from
another origin that runs the AWS SDK for JavaScript (v3, bundled once with esbuild from the npm registry)
against the server: the preflight, the signed GetItem, DynamoDB's error, all through CORS. Where Chromium,
Node/npm or the registry is missing the browser tests skip, saying why; the replay below sends what
Chromium sent (recorded from the run these tests make) over a raw socket, and runs everywhere."""

from __future__ import annotations

import functools
import http.client
import http.server
import json
import re
import shutil
import subprocess
import threading

import pytest

import partiql
from partiql.server import Server

from ..js_sdk import browser_bundle

PAGE = """<!doctype html><html><body><pre id="out">pending</pre><script src="sdk.js"></script><script>
const asked = new URLSearchParams(location.search);
const client = new DDB.DynamoDBClient({endpoint: asked.get("endpoint"), region: "us-east-1", maxAttempts: 1,
  credentials: {accessKeyId: asked.get("id"), secretAccessKey: asked.get("secret")}});
client.send(new DDB.GetItemCommand({TableName: "Tab", Key: {pk: {S: "a"}}}))
  .then(r => { out.textContent = JSON.stringify({item: r.Item, requestId: r.$metadata.requestId}); })
  .catch(e => { out.textContent = JSON.stringify({error: e.name, message: e.message}); });
</script></body></html>"""


@pytest.fixture(scope="module")
def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium): the replay test stands in")
    return path


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A page on its own origin (another port), holding the SDK bundle."""
    root = tmp_path_factory.mktemp("page")
    shutil.copy(browser_bundle(), root / "sdk.js")
    (root / "index.html").write_text(PAGE)
    handler = functools.partial(_Quiet, directory=str(root))
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{site.server_address[1]}/index.html"
    site.shutdown()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _served(credentials=None):
    db = partiql.connect()
    db.execute("CREATE TABLE Tab PRIMARY KEY (pk STRING HASH)")
    db.execute("INSERT INTO Tab VALUE {'pk': 'a', 'n': 1}")
    return db, Server(db, port=0, credentials=credentials)


def _in_browser(chromium: str, page: str, endpoint: str, key_id: str, secret: str) -> dict:
    url = f"{page}?endpoint={endpoint}&id={key_id}&secret={secret}"
    done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
                           "--dump-dom", url], capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="out">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stderr[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@pytest.mark.parametrize("credentials, key, expected", [
    (None, ("local", "local"), {"item": {"pk": {"S": "a"}, "n": {"N": "1"}}}),
    (("AKIDLOCAL", "s3cret"), ("AKIDLOCAL", "s3cret"), {"item": {"pk": {"S": "a"}, "n": {"N": "1"}}}),
    (("AKIDLOCAL", "s3cret"), ("AKIDLOCAL", "wrong"), {"error": "InvalidSignatureException"}),
], ids=["any signature", "verified signature", "wrong secret"])
def test_a_browser_runs_a_get_item_through_cors(chromium, page, credentials, key, expected):
    db, server = _served(credentials)
    with server:
        answer = _in_browser(chromium, page, server.url, *key)
    db.close()
    assert {name: answer.get(name) for name in expected} == expected
    if "item" in expected:
        assert answer["requestId"]  # (x-amzn-RequestId is exposed to the page)


# What Chromium 150 sent for the page above (recorded from this test's run, 2026-11-27): the preflight, then the
# request. The signature is well formed; a server without --credentials does not verify it.
ORIGIN = "http://127.0.0.1:8772"
PREFLIGHT = [("Accept", "*/*"), ("Access-Control-Request-Method", "POST"),
             ("Access-Control-Request-Headers", "amz-sdk-invocation-id,amz-sdk-request,authorization,content-type,"
                                                "x-amz-content-sha256,x-amz-date,x-amz-target,x-amz-user-agent"),
             ("Origin", ORIGIN), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Site", "same-site"),
             ("Sec-Fetch-Dest", "empty"), ("Referer", ORIGIN + "/"), ("Accept-Encoding", "gzip, deflate, br, zstd"),
             ("Accept-Language", "en-US,en;q=0.9"),
             ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                            "HeadlessChrome/150.0.0.0 Safari/537.36")]
BODY = b'{"TableName":"Tab","Key":{"pk":{"S":"a"}}}'
REQUEST = [
    ("x-amz-content-sha256", "8f81fd7e22d91daa7aec2f08426ec0fc25af0ee1016fba8e577616430c1e9bba"),
    ("x-amz-user-agent", "aws-sdk-js/3.1169.0 ua/2.1 os/Linux lang/js md/browser#Chromium_150 api/dynamodb#3.1169.0 "
                         "m/N,E,P,e"),
    ("authorization", "AWS4-HMAC-SHA256 Credential=local/20261127/us-east-1/dynamodb/aws4_request, SignedHeaders="
                      "amz-sdk-invocation-id;amz-sdk-request;content-length;content-type;host;x-amz-content-sha256;"
                      "x-amz-date;x-amz-target;x-amz-user-agent, Signature=42857998f298b72f03cc6aba0338006f8008fca88f3"
                      "baccffdafb99813576460"),
    ("amz-sdk-request", "attempt=1; max=1"), ("amz-sdk-invocation-id", "06cac968-6254-43d4-ae73-e9ef8af752f4"),
    ("x-amz-date", "20261127T034153Z"), ("x-amz-target", "DynamoDB_20120810.GetItem"),
    ("content-type", "application/x-amz-json-1.0"), ("Accept", "*/*"), ("Origin", ORIGIN),
    ("Sec-Fetch-Site", "same-site"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty"),
    ("Referer", ORIGIN + "/")]


def _exchange(port: int, method: str, headers: list, body: bytes = b"") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest(method, "/", skip_accept_encoding=True)
    for name, value in headers:
        connection.putheader(name, value)
    if body:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body or None)
    response = connection.getresponse()
    answer = response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    connection.close()
    return answer


def test_chromium_s_preflight_and_request_replayed():
    db, server = _served()
    with server:
        status, headers, _ = _exchange(server.port, "OPTIONS", PREFLIGHT)
        assert status == 200
        assert headers["access-control-allow-origin"] == "*"
        assert headers["access-control-allow-methods"] == "POST"
        assert headers["access-control-allow-headers"] == dict(PREFLIGHT)["Access-Control-Request-Headers"]
        assert headers["access-control-max-age"] == "172800"
        status, headers, body = _exchange(server.port, "POST", REQUEST, BODY)
    db.close()
    assert (status, json.loads(body)) == (200, {"Item": {"pk": {"S": "a"}, "n": {"N": "1"}}})
    assert headers["access-control-allow-origin"] == "*"
    exposed = {name.strip().lower() for name in headers["access-control-expose-headers"].split(",")}
    assert {"x-amzn-requestid", "x-amz-crc32"} <= exposed
