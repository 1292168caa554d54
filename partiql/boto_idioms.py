"""boto3's idioms for the in-process client: paginators, waiters, and binary values as raw bytes.

Paginators and waiters run on botocore's own machinery and models (the
``Paginator`` and ``Waiter`` classes, DynamoDB's paginators-1 and waiters-2
files), so they page and wait exactly as boto3's do; botocore is imported only
when one is asked for. Binary values: boto3 takes ``bytes`` (or ``bytearray``,
or ``str``, which it encodes as UTF-8) for ``B`` and ``BS`` and returns
``bytes``; the wire carries base64 text, which is what the engine's wire
converters read and write, so the client turns one into the other at its edge.
"""

from __future__ import annotations

import base64
import functools
import re

from partiql.engine.limits import MAX_VALUE_DEPTH


# ------------------------------------------------------------------- binary values

def blobs_as_text(value, depth: int = 1):
    """A boto3 attribute value with its raw blobs as the wire's base64 text (anything else as it is;
    past DynamoDB's nesting limit too, for the wire converter to refuse)."""
    if not isinstance(value, dict) or depth > MAX_VALUE_DEPTH:
        return value
    out = dict(value)
    if "B" in out:
        out["B"] = _text(out["B"])
    if isinstance(out.get("BS"), list):
        out["BS"] = [_text(member) for member in out["BS"]]
    if isinstance(out.get("M"), dict):
        out["M"] = {name: blobs_as_text(member, depth + 1) for name, member in out["M"].items()}
    if isinstance(out.get("L"), list):
        out["L"] = [blobs_as_text(member, depth + 1) for member in out["L"]]
    return out


def blobs_as_bytes(value):
    """A wire attribute value with its base64 blobs as the ``bytes`` boto3 returns."""
    if not isinstance(value, dict) or not value:
        return value
    tag, content = next(iter(value.items()))
    if tag == "B":
        return {"B": base64.b64decode(content)}
    if tag == "BS":
        return {"BS": [base64.b64decode(member) for member in content]}
    if tag == "M":
        return {"M": {name: blobs_as_bytes(member) for name, member in content.items()}}
    if tag == "L":
        return {"L": [blobs_as_bytes(member) for member in content]}
    return value


def _text(blob):
    # as botocore serialises a blob: bytes as they are, text as its UTF-8 bytes
    if isinstance(blob, str):
        blob = blob.encode("utf-8")
    if isinstance(blob, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(blob)).decode("ascii")
    return blob  # the wire converter words the error


# ------------------------------------------------------------- paginators, waiters

def _botocore():
    try:
        import botocore.exceptions  # noqa: PLC0415 - only when a paginator or waiter is asked for
        import botocore.paginate  # noqa: PLC0415
        import botocore.session  # noqa: PLC0415
        import botocore.waiter  # noqa: PLC0415
    except ImportError:
        raise ImportError("paginators and waiters run on botocore: pip install boto3 "
                          "(the 'aws' extra of partiql-ddb)") from None
    return botocore


@functools.cache
def _models():
    session = _botocore().session.get_session()
    return (session.get_service_model("dynamodb"), session.get_paginator_model("dynamodb"),
            session.get_waiter_model("dynamodb"))


def _camel(name: str) -> str:
    return "".join(word.capitalize() for word in name.split("_"))


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def paginator_names(client) -> list[str]:
    """The boto3 paginators whose operation this client has (``list_tables``, ``query``, …)."""
    configured = _models()[1]._paginator_config
    return sorted(_snake(name) for name in configured if hasattr(client, _snake(name)))


def get_paginator(client, name: str):
    """botocore's Paginator for operation ``name`` (snake case, as boto3 names it)."""
    botocore = _botocore()
    if name not in paginator_names(client):
        raise botocore.exceptions.OperationNotPageableError(operation_name=name)
    service, pages, _ = _models()
    operation = _camel(name)
    return botocore.paginate.Paginator(getattr(client, name), pages.get_paginator(operation),
                                       service.operation_model(operation))


def waiter_names(client) -> list[str]:
    """The boto3 waiters whose operation this client has (``table_exists``, …)."""
    model = _models()[2]
    return sorted(_snake(name) for name in model.waiter_names
                  if hasattr(client, _snake(model.get_waiter(name).operation)))


def get_waiter(client, name: str):
    """botocore's Waiter ``name`` (snake case), polling this client."""
    botocore = _botocore()
    if name not in waiter_names(client):
        raise ValueError(f"Waiter does not exist: {name}")
    config = _models()[2].get_waiter(_camel(name))
    method = getattr(client, _snake(config.operation))

    def poll(**request):  # as botocore's NormalizedOperationMethod: an error is a response too
        try:
            return method(**request)
        except client.exceptions.ClientError as error:
            return error.response

    return botocore.waiter.Waiter(_camel(name), config, poll)
