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
from urllib.parse import parse_qsl, quote

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
REPEATED = "Authorization header must be sent once."
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
    if ALGORITHM in rest:
        # why: the HTTP face joins a repeated header's values with ", " (RFC 9110 §5.3); two signatures are
        # none (which one would be verified?). DynamoDB's answer is not recorded: these words are ours.
        raise IncompleteSignatureException(f"{REPEATED} Authorization={authorization}")
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


SERVICE = "dynamodb"  # the signing name of DynamoDB and of its Streams API (item-api §1.1)
DATE_MALFORMED = "Date must be in ISO-8601 'basic format'. Got '{}'. See http://en.wikipedia.org/wiki/ISO_8601"
# why these words: DynamoDB's own texts for a scope of another service and an unsigned Host are AWS's SigV4
# ones; for an unsigned X-Amz-* header we follow SigV4's documented rule (every x-amz-* header sent is
# signed) in the same words as Host's (no recording of DynamoDB's answer).
WRONG_SERVICE = f"Credential should be scoped to correct service: '{SERVICE}'. "
NOT_SIGNED = "'{}' must be a 'SignedHeader' in the AWS Authorization."
HOST_NOT_SIGNED = NOT_SIGNED.format("Host' or ':authority")


class Verifier:
    """Checks requests against one access key id and its secret; ``clock`` gives epoch seconds.

    Beyond the signature itself (SigV4 hardening, issue 32): the X-Amz-Date within 5 minutes of the clock, so
    a captured request cannot be replayed; Host, X-Amz-Date and every X-Amz-* header sent among the signed
    headers, so X-Amz-Target cannot be changed after signing; the scope's service ``dynamodb`` (any region);
    a request presigned in its query string verified alike (its X-Amz-Expires honoured).
    """

    def __init__(self, key_id: str, secret: str, clock=time.time):
        self.key_id = key_id
        self.secret = secret
        self.clock = clock

    def verify(self, headers: dict, body: bytes) -> None:
        """Raise DynamoDB's error unless ``headers`` carry a valid signature of ``body``."""
        query = headers.get(PRESIGNED)
        if query is not None:
            return self._verify_presigned(headers, body, query)
        parts = authorization_parts(headers)
        scope = self._scope(parts["Credential"], lambda: PART_MISSING.format("Credential")
                            + f" Authorization={headers['authorization']}")
        stamp = headers.get("x-amz-date")
        self._check_signed(headers, parts["SignedHeaders"], ("x-amz-date",) if stamp is not None else ())
        self._check_time(stamp)
        expected = self.signature(headers, body, parts["SignedHeaders"], scope)
        if not hmac.compare_digest(expected, parts["Signature"]):
            raise InvalidSignatureException(MISMATCH)

    def _verify_presigned(self, headers: dict, body: bytes, query: str) -> None:
        params = dict(parse_qsl(query, keep_blank_values=True))
        missing = [part for part in PRESIGNED_PARTS if part not in params]
        if missing:
            raise IncompleteSignatureException(" ".join(f"AWS query-string parameters must include '{part}'."
                                                        for part in missing) + " Re-examine the query-string "
                                               "parameters.")
        scope = self._scope(params["X-Amz-Credential"],
                            lambda: f"Credential is malformed: {params['X-Amz-Credential']}")
        stamp = params["X-Amz-Date"]
        self._check_signed(headers, params["X-Amz-SignedHeaders"], ())
        self._check_time(stamp, _expires(params.get("X-Amz-Expires")))
        expected = self.signature(headers, body, params["X-Amz-SignedHeaders"], scope, stamp=stamp,
                                  query=_canonical_query(params))
        if not hmac.compare_digest(expected, params["X-Amz-Signature"]):
            raise InvalidSignatureException(MISMATCH)

    def _scope(self, credential: str, malformed) -> list[str]:
        scope = credential.split("/")
        if len(scope) != 5 or scope[4] != "aws4_request":
            raise IncompleteSignatureException(malformed())
        if scope[0] != self.key_id:
            raise UnrecognizedClientException(UNRECOGNIZED)
        if scope[3] != SERVICE:
            raise InvalidSignatureException(WRONG_SERVICE)
        return scope

    @staticmethod
    def _check_signed(headers: dict, signed_headers: str, required: tuple) -> None:
        """Host, the named headers and every X-Amz-* header the request carries must be signed."""
        signed = set(signed_headers.split(";"))
        if "host" not in signed:
            raise InvalidSignatureException(HOST_NOT_SIGNED)
        for name in (*required, *sorted(headers)):
            if (name in required or name.startswith("x-amz-")) and name not in signed:
                raise InvalidSignatureException(NOT_SIGNED.format(_header_name(name)))

    def _check_time(self, stamp: str | None, expires: int = SKEW_SECONDS) -> None:
        """A signature made more than 5 minutes after now, or more than ``expires`` seconds (5 minutes) before
        it, is refused in SigV4's words: a captured request cannot be replayed later."""
        if stamp is None:
            return  # (signed with a Date header instead: the signature check decides)
        try:
            signed = datetime.strptime(stamp, DATE_FORMAT).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            raise IncompleteSignatureException(DATE_MALFORMED.format(stamp)) from None
        now = self.clock()
        if signed < now - expires:
            span = "5 min." if expires == SKEW_SECONDS else f"{expires} sec."
            raise InvalidSignatureException(f"Signature expired: {stamp} is now earlier than "
                                            f"{_stamp(now - expires)} ({_stamp(now)} - {span})")
        if signed > now + SKEW_SECONDS:
            raise InvalidSignatureException(f"Signature not yet current: {stamp} is still later than "
                                            f"{_stamp(now + SKEW_SECONDS)} ({_stamp(now)} + 5 min.)")

    def signature(self, headers: dict, body: bytes, signed_headers: str, scope: list[str], *,
                  stamp: str | None = None, query: str = "") -> str:
        """The hex signature of a ``POST /`` request with these headers, body and canonical query string."""
        names = signed_headers.split(";")
        canonical_headers = "".join(f"{name}:{' '.join(headers.get(name, '').split())}\n" for name in names)
        canonical = "\n".join(("POST", "/", query, canonical_headers, signed_headers,
                               hashlib.sha256(body).hexdigest()))
        date, region, service = scope[1], scope[2], scope[3]
        to_sign = "\n".join((ALGORITHM, stamp or headers.get("x-amz-date", ""), "/".join(scope[1:]),
                             hashlib.sha256(canonical.encode()).hexdigest()))
        key = ("AWS4" + self.secret).encode()
        for part in (date, region, service, "aws4_request"):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


def _expires(text: str | None) -> int:
    """A presigned request's lifetime in seconds (SigV4: 1 to 604800), 5 minutes when it names none."""
    if text is None:
        return SKEW_SECONDS
    if not text.isdigit() or not 1 <= int(text) <= 604_800:
        raise IncompleteSignatureException(f"X-Amz-Expires must be between 1 and 604800 seconds; got {text}")
    return int(text)


def _canonical_query(params: dict) -> str:
    """SigV4's canonical query string: every parameter but the signature, encoded, sorted."""
    encoded = sorted((quote(name, safe="-_.~"), quote(value, safe="-_.~"))
                     for name, value in params.items() if name != "X-Amz-Signature")
    return "&".join(f"{name}={value}" for name, value in encoded)


def _header_name(name: str) -> str:
    """``x-amz-target`` → ``X-Amz-Target``."""
    return "-".join(word.capitalize() for word in name.split("-"))


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(int(seconds), timezone.utc).strftime(DATE_FORMAT)
