"""What a caller hands a connection, checked the same way for a local and a remote one: statement text,
parameters (Python values, converted to engine values), batch and transaction elements and their options,
the scan policy; and what both connections do alike (``ConnectionBase``: the policy, pages, ``with``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Iterator, Sequence

from partiql.engine.types import from_python

from .result import Result

SCAN_POLICIES = ("allow", "warn", "deny")
STATEMENT_OPTIONS = ("consistent_read", "return_old")


class ConnectionBase:
    """What a local ``Connection`` and a ``RemoteConnection`` share: the scan policy, pages, ``with``
    blocks. A subclass sets ``_scan_policy`` and has ``execute`` and ``close``."""

    _scan_policy = "allow"

    @property
    def scan_policy(self) -> str:
        """"allow", "warn" (attach a warning) or "deny" (refuse full Scans): this connection's, never
        saved in a database file (another program may read the same file with its own)."""
        return self._scan_policy

    @scan_policy.setter
    def scan_policy(self, policy: str) -> None:
        _check_scan_policy(policy)
        self._scan_policy = policy

    def pages(self, statement: str, parameters: Sequence | None = None, *, limit: int | None = None,
              consistent_read: bool = False) -> Iterator[Result]:
        """Every page of a statement, following NextToken until the end."""
        token = None
        while True:
            result = self.execute(statement, parameters, limit=limit, next_token=token,
                                  consistent_read=consistent_read)
            yield result
            token = result.next_token
            if token is None:
                return

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _python_params(parameters) -> list:
    """The engine values of a statement's parameters: a list (or tuple) of Python values.

    why a TypeError: like boto3's, for a caller's programming error; a string
    or a number is not silently taken as a sequence of parameters.
    """
    if parameters is None:
        return []
    if not isinstance(parameters, (list, tuple)):
        raise TypeError(f"parameters must be a list of values, not {type(parameters).__name__} "
                        f"(for one parameter, pass [{parameters!r}])")
    return [from_python(value) for value in parameters]




def _check_scan_policy(policy) -> None:
    if policy not in SCAN_POLICIES:
        raise ValueError(f"scan_policy must be one of {', '.join(SCAN_POLICIES)}, not {policy!r}")


def _text(statement) -> str:
    """A statement's text; TypeError (the caller's mistake, as boto3 makes it) for anything else."""
    if not isinstance(statement, str):
        raise TypeError(f"a statement must be a str, not {type(statement).__name__}")
    return statement


def _sequence(statements) -> list:
    """The elements of a batch or transaction: a list or tuple, never a string's characters."""
    if not isinstance(statements, (list, tuple)):
        raise TypeError(f"statements must be a list, not {type(statements).__name__} "
                        "(each element a statement, (statement, parameters) or (statement, parameters, options))")
    return list(statements)


def _statement(entry) -> tuple[str, list, dict]:
    """(text, engine parameters, options) of a batch or transaction element."""
    if isinstance(entry, str):
        return entry, [], {}
    if not isinstance(entry, (list, tuple)) or not 2 <= len(entry) <= 3:
        raise TypeError("each statement must be a str, (statement, parameters) or "
                        f"(statement, parameters, options), not {entry!r}"[:200])
    text, parameters, *rest = entry
    if rest and not isinstance(rest[0], dict):
        raise TypeError(f"statement options must be a dict, not {type(rest[0]).__name__}")
    options = dict(rest[0]) if rest else {}
    unknown = set(options) - set(STATEMENT_OPTIONS)
    if unknown:
        raise ValueError(f"unknown statement options {sorted(unknown)}; use {', '.join(STATEMENT_OPTIONS)}")
    return _text(text), _python_params(parameters), options


def _positions(entries, option: str) -> frozenset:
    return frozenset(i for i, (_, _, options) in enumerate(entries) if options.get(option))


def exact(value):
    """``value`` with every float, at any depth, the Decimal of its shortest text: the number its writer meant
    (JSON and TOML give floats; the engine refuses them, as boto3 does: they are not exact)."""
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, (list, tuple)):
        return [exact(member) for member in value]
    if isinstance(value, dict):
        return {name: exact(member) for name, member in value.items()}
    return value
