"""Issue 33 point 2: the AWS SDK for JavaScript's own waiter (``waitUntilTableExists``, v3, run by Node) waits
out a table CREATING over the wire, and its ``waitUntilTableNotExists`` a table DELETING. Skips, saying why, where
Node/npm or the npm registry is missing (``tests/js_sdk.py``)."""

from __future__ import annotations

import json
import subprocess

import partiql
from partiql.server import Server

from ..js_sdk import sdk_folder

SCRIPT = """
const sdk = require(process.argv[2]);
const client = new sdk.DynamoDBClient({endpoint: process.argv[3], region: "us-east-1", maxAttempts: 1,
  credentials: {accessKeyId: "a", secretAccessKey: "b"}});
const table = {TableName: "Orders", KeySchema: [{AttributeName: "pk", KeyType: "HASH"}],
  AttributeDefinitions: [{AttributeName: "pk", AttributeType: "S"}], BillingMode: "PAY_PER_REQUEST"};
(async () => {
  const created = await client.send(new sdk.CreateTableCommand(table));
  let started = Date.now();
  const waited = await sdk.waitUntilTableExists({client, minDelay: 1, maxDelay: 1, maxWaitTime: 30},
                                                {TableName: "Orders"});
  const creating = Date.now() - started;
  const put = await client.send(new sdk.PutItemCommand({TableName: "Orders", Item: {pk: {S: "a"}}}));
  await client.send(new sdk.DeleteTableCommand({TableName: "Orders"}));
  started = Date.now();
  const gone = await sdk.waitUntilTableNotExists({client, minDelay: 1, maxDelay: 1, maxWaitTime: 30},
                                                 {TableName: "Orders"});
  const deleting = Date.now() - started;
  console.log(JSON.stringify({created: created.TableDescription.TableStatus, waited: waited.state,
                              put: put.$metadata.httpStatusCode, gone: gone.state, creating, deleting}));
})().catch(e => { console.log(JSON.stringify({error: e.name, message: e.message})); });
"""


def test_the_javascript_sdk_waiters_wait_out_creating_and_deleting(tmp_path):
    folder = sdk_folder()
    script = tmp_path / "waiter.cjs"
    script.write_text(SCRIPT)
    db = partiql.connect(realism={"lifecycle": {"create": 2.5, "delete": 2.5}})
    with Server(db, port=0) as running:
        done = subprocess.run(["node", str(script), str(folder / "node_modules" / "@aws-sdk" / "client-dynamodb"),
                               running.url], capture_output=True, text=True, timeout=120)
    db.close()
    found = json.loads(done.stdout.strip().splitlines()[-1])
    # (each waiter polled through the 2.5 s: the PutItem after the first would have found no table otherwise)
    assert {k: found.get(k) for k in ("created", "waited", "put", "gone")} == {
        "created": "CREATING", "waited": "SUCCESS", "put": 200, "gone": "SUCCESS"}, (found, done.stderr)
    assert found["creating"] >= 2000 and found["deleting"] >= 2000
