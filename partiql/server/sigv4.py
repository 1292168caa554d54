"""SigV4 checks of a ``POST /`` request: its shape always, its signature with ``--credentials ID:SECRET``.

Without credentials the server accepts any well-formed signature, as
DynamoDB Local does, and refuses a request with no Authorization, or a
malformed one, as DynamoDB and DynamoDB Local do (``ShapeChecker``,
recorded-2026-11 C2); a request presigned in its query string
(``X-Amz-Signature``) passes too. ``partiql serve --unsigned`` serves
requests without any. With credentials, a request must carry an
``Authorization: AWS4-HMAC-SHA256`` header signed with the secret of the one
known access key id (``Verifier``). The errors and texts are DynamoDB's
(item-api §1.1, all HTTP 400 in ``com.amazon.coral.service``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from datetime import datetime, timezone

from partiql.engine.errors import (IncompleteSignatureException, InvalidSignatureException,
                                   MissingAuthenticationTokenException, UnrecognizedClientException)

ALGORITHM = "AWS4-HMAC-SHA256"
MISSING = "Request is missing Authentication Token"
UNRECOGNIZED = "The security token included in the request is invalid."
MISMATCH = ("The request signature we calculated does not match the signature you provided. Check your "
            "AWS Secret Access Key and signing method. Consult the service documentation for details.")
# AWS names every missing part, in this order, then the header as sent (recorded-2026-11 C2).
REQUIRED_PARTS = ("Credential", "Signature", "SignedHeaders")
PART_MISSING = "Authorization header requires '{}' parameter."
DATE_MISSING = "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header."
PRESIGNED = "\0presigned"  # where the HTTP face puts a request's query string when it is presigned
PRESIGNED_PARTS = ("X-Amz-Credential", "X-Amz-Signature", "X-Amz-SignedHeaders", "X-Amz-Date")

_PARTS = re.compile(r"\s*(Credential|SignedHeaders|Signature)\s*=\s*([^,\s]+)\s*,?")


def parse_credentials(text: str) -> tuple[str, str]:
    """``ID:SECRET`` → (access key id, secret); ValueError when malformed."""
    key_id, sep, secret = text.partition(":")
    if not sep or not key_id or not secret:
        raise ValueError(f"--credentials takes ACCESS_KEY_ID:SECRET_ACCESS_KEY, got {text!r}")
    return key_id, secret


def authorization_parts(headers: dict) -> dict:
    """The parts of a well-formed Authorization header; DynamoDB's error for a missing or malformed one."""
    authorization = headers.get("authorization")
    if not authorization:
        raise MissingAuthenticationTokenException(MISSING)
    algorithm, _, rest = authorization.partition(" ")
    parts = dict(_PARTS.findall(rest)) if algorithm == ALGORITHM else {}
    missing = [PART_MISSING.format(name) for name in REQUIRED_PARTS if name not in parts]
    if "x-amz-date" not in headers and "date" not in headers:
        missing.append(DATE_MISSING)
    if missing:
        raise IncompleteSignatureException(" ".join(missing) + f" Authorization={authorization}")
    return parts


class ShapeChecker:
    """Accepts any well-formed signature (or a presigned query string), refuses none or a malformed one."""

    def verify(self, headers: dict, body: bytes) -> None:
        presigned = headers.get(PRESIGNED)
        if presigned is not None and all(f"{part}=" in presigned for part in PRESIGNED_PARTS):
            return
        authorization_parts(headers)


SKEW_SECONDS = 300  # how far a request's X-Amz-Date may be from the server's clock (SigV4's 5 minutes)
DATE_FORMAT = "%Y%m%dT%H%M%SZ"


class Verifier:
    """Checks requests against one access key id and its secret; ``clock`` gives epoch seconds."""

    def __init__(self, key_id: str, secret: str, clock=time.time):
        self.key_id = key_id
        self.secret = secret
        self.clock = clock

    def verify(self, headers: dict, body: bytes) -> None:
        """Raise DynamoDB's error unless ``headers`` carry a valid signature of ``body``."""
        parts = authorization_parts(headers)
        scope = parts["Credential"].split("/")
        if len(scope) != 5 or scope[4] != "aws4_request":
            raise IncompleteSignatureException(PART_MISSING.format("Credential")
                                               + f" Authorization={headers['authorization']}")
        if scope[0] != self.key_id:
            raise UnrecognizedClientException(UNRECOGNIZED)
        self._check_time(headers.get("x-amz-date"))
        expected = self.signature(headers, body, parts["SignedHeaders"], scope)
        if not hmac.compare_digest(expected, parts["Signature"]):
            raise InvalidSignatureException(MISMATCH)

    def _check_time(self, stamp: str | None) -> None:
        """A signature made more than 5 minutes before or after now is refused, in SigV4's words (a captured
        request cannot be replayed later). An X-Amz-Date in another form is left to the signature check."""
        try:
            signed = datetime.strptime(stamp or "", DATE_FORMAT).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            return
        now = self.clock()
        if signed < now - SKEW_SECONDS:
            raise InvalidSignatureException(f"Signature expired: {stamp} is now earlier than "
                                            f"{_stamp(now - SKEW_SECONDS)} ({_stamp(now)} - 5 min.)")
        if signed > now + SKEW_SECONDS:
            raise InvalidSignatureException(f"Signature not yet current: {stamp} is still later than "
                                            f"{_stamp(now + SKEW_SECONDS)} ({_stamp(now)} + 5 min.)")

    def signature(self, headers: dict, body: bytes, signed_headers: str, scope: list[str]) -> str:
        """The hex signature of a ``POST /`` request with these headers and body."""
        names = signed_headers.split(";")
        canonical_headers = "".join(f"{name}:{' '.join(headers.get(name, '').split())}\n" for name in names)
        canonical = "\n".join(("POST", "/", "", canonical_headers, signed_headers,
                               hashlib.sha256(body).hexdigest()))
        date, region, service = scope[1], scope[2], scope[3]
        to_sign = "\n".join((ALGORITHM, headers.get("x-amz-date", ""), "/".join(scope[1:]),
                             hashlib.sha256(canonical.encode()).hexdigest()))
        key = ("AWS4" + self.secret).encode()
        for part in (date, region, service, "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(int(seconds), timezone.utc).strftime(DATE_FORMAT)
