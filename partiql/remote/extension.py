"""The client of partiql-ddb's extension API (``partiql.extension``): ``.heat``, ``.describe``'s partitions
and ``.backup`` of a file that ``partiql serve`` serves.

boto3 knows nothing of the extension's operations, so a request is built,
signed and sent with botocore's own parts (``AWSRequest``, ``SigV4Auth``
with the client's credentials, ``URLLib3Session``), as the DynamoDB client
would send it. An endpoint that answers ``UnknownOperationException`` (or
anything that is not JSON) is not ``partiql serve``: ``available`` is then
False for the life of the connection, and real DynamoDB (no endpoint URL) is
never asked at all.
"""

from __future__ import annotations

import json

from .. import extension
from ..errors import EndpointUnreachable
from .values import error_of, unreachable

JSON_1_0 = "application/x-amz-json-1.0"
TIMEOUT = 60  # seconds: a backup of a large file takes a while


class NotPartiqlServe(ValueError):
    """The endpoint does not speak partiql-ddb's extension API."""


class ExtensionClient:
    """partiql-ddb's extension operations on one ``RemoteConnection``'s endpoint."""

    def __init__(self, connection):
        self.connection = connection
        self.available = connection.endpoint_url is not None  # (until an answer says otherwise)
        self._http = None

    def call(self, operation: str, request: dict) -> dict:
        """The response of ``operation``; its error as DynamoDB's exception; NotPartiqlServe where the
        endpoint does not know it."""
        if not self.available:
            raise NotPartiqlServe(f"{self.connection.where} is not partiql serve")
        from botocore.exceptions import HTTPClientError
        try:
            response = self._session().send(self._signed(operation, request).prepare())
        except HTTPClientError as error:
            raise EndpointUnreachable(unreachable(self.connection.where, self.connection.endpoint_url,
                                                  error)) from None
        return self._answer(response)

    def _signed(self, operation: str, request: dict):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        client = self.connection.client
        body = json.dumps(request).encode()
        signed = AWSRequest("POST", client.meta.endpoint_url, data=body,
                            headers={"Content-Type": JSON_1_0, "X-Amz-Target": f"{extension.PREFIX}.{operation}"})
        # why: the client's own credentials (a private accessor, but the one botocore's clients use)
        credentials = client._get_credentials()  # noqa: SLF001
        if credentials is not None:
            SigV4Auth(credentials.get_frozen_credentials(), "dynamodb", client.meta.region_name).add_auth(signed)
        return signed

    def _session(self):
        if self._http is None:
            from botocore.httpsession import URLLib3Session
            self._http = URLLib3Session(timeout=TIMEOUT)
        return self._http

    def _answer(self, response) -> dict:
        try:
            body = json.loads(response.content or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self.available = False
            raise NotPartiqlServe(f"{self.connection.where} is not partiql serve (it answered HTTP "
                                  f"{response.status_code})")
        if response.status_code == 200:
            return body
        code = str(body.get("__type", "InternalServerError")).rpartition("#")[2]
        if code == "UnknownOperationException":
            self.available = False
            raise NotPartiqlServe(f"{self.connection.where} is not partiql serve")
        raise error_of(code, body.get("message", body.get("Message", "")))

    def close(self) -> None:
        if self._http is not None:
            self._http.close()

    # ------------------------------------------------------------- operations
    def layout(self, table: str) -> dict:
        """``{"partitions", "key_spread", "advice"}`` of ``table`` (see ``Connection.layout``)."""
        found = self.call("DescribeTableLayout", {"TableName": table})
        return {"partitions": extension.partitions_from_wire(found["Partitions"]),
                "key_spread": extension.spread_from_wire(found["KeySpread"]), "advice": found["Advice"]}

    def metrics(self, table: str, index: str | None, last: int):
        request = {"TableName": table, "Seconds": last, **({} if index is None else {"IndexName": index})}
        return extension.metrics_from_wire(self.call("DescribeThroughputMetrics", request)["Metrics"])

    def backup(self, path: str) -> dict:
        return self.call("CreateBackupFile", {"Path": path})

