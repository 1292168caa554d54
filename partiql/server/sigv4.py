"""SigV4 verification of a ``POST /`` request, for ``partiql serve --credentials ID:SECRET``.

Without credentials the server accepts any signature, as DynamoDB Local
does. With them, a request must carry an ``Authorization: AWS4-HMAC-SHA256``
header signed with the secret of the one known access key id; the errors and
texts are DynamoDB's (item-api §1.1, all HTTP 400 in ``com.amazon.coral.service``).
"""

from __future__ import annotations

import hashlib
import hmac
import re

from partiql.engine.errors import (IncompleteSignatureException, InvalidSignatureException,
                                   MissingAuthenticationTokenException, UnrecognizedClientException)

ALGORITHM = "AWS4-HMAC-SHA256"
MISSING = "Request is missing Authentication Token"
UNRECOGNIZED = "The security token included in the request is invalid."
MISMATCH = ("The request signature we calculated does not match the signature you provided. Check your "
            "AWS Secret Access Key and signing method. Consult the service documentation for details.")
# INF: AWS lists every missing part; this names the first one missing.
INCOMPLETE = "Authorization header requires '{}' parameter. Authorization={}"

_PARTS = re.compile(r"\s*(Credential|SignedHeaders|Signature)\s*=\s*([^,\s]+)\s*,?")


def parse_credentials(text: str) -> tuple[str, str]:
    """``ID:SECRET`` → (access key id, secret); ValueError when malformed."""
    key_id, sep, secret = text.partition(":")
    if not sep or not key_id or not secret:
        raise ValueError(f"--credentials takes ACCESS_KEY_ID:SECRET_ACCESS_KEY, got {text!r}")
    return key_id, secret


class Verifier:
    """Checks requests against one access key id and its secret."""

    def __init__(self, key_id: str, secret: str):
        self.key_id = key_id
        self.secret = secret

    def verify(self, headers: dict, body: bytes) -> None:
        """Raise DynamoDB's error unless ``headers`` carry a valid signature of ``body``."""
        authorization = headers.get("authorization")
        if not authorization:
            raise MissingAuthenticationTokenException(MISSING)
        algorithm, _, rest = authorization.partition(" ")
        if algorithm != ALGORITHM:
            raise IncompleteSignatureException(INCOMPLETE.format("Credential", authorization))
        parts = dict(_PARTS.findall(rest))
        for name in ("Credential", "SignedHeaders", "Signature"):
            if name not in parts:
                raise IncompleteSignatureException(INCOMPLETE.format(name, authorization))
        scope = parts["Credential"].split("/")
        if len(scope) != 5 or scope[4] != "aws4_request":
            raise IncompleteSignatureException(INCOMPLETE.format("Credential", authorization))
        if scope[0] != self.key_id:
            raise UnrecognizedClientException(UNRECOGNIZED)
        expected = self.signature(headers, body, parts["SignedHeaders"], scope)
        if not hmac.compare_digest(expected, parts["Signature"]):
            raise InvalidSignatureException(MISMATCH)

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
