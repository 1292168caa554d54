"""ExpressionAttributeNames / Values of one request, and the reserved words (item-api §3.5, §3.6)."""

from __future__ import annotations

import functools
from importlib import resources

from ..errors import ValidationException
from .messages import MAP_BAD_KEY, MAP_EMPTY, MAP_LONG_KEY, MAX_PLACEHOLDER_BYTES, UNUSED


# ------------------------------------------------------------ reserved words

@functools.cache
def reserved_words() -> frozenset[str]:
    """DynamoDB's 573 reserved words, upper case (item-api §3.6).

    ``reserved_words.txt`` is DG-ReservedWords as shipped in the moto wheel
    (moto 5.2.5, ``moto/dynamodb/parsing/reserved_keywords.txt``), one word
    per line; dynalite's and DynamoDB Local's lists are the same words.
    """
    text = resources.files(__package__).joinpath("reserved_words.txt").read_text("utf-8")
    return frozenset(text.split())


# ------------------------------------------------------------------- context

NO_ENTRIES: dict = {}


class ExpressionContext:
    """ExpressionAttributeNames and ExpressionAttributeValues of one request.

    ``names`` maps ``#placeholder`` → attribute name, ``values`` maps
    ``:placeholder`` → engine value (already converted from wire form). Each
    successful parse records the placeholders its expression used, so that
    ``check_unused`` can run after the last expression of the request.
    """

    __slots__ = ("names", "values", "used_names", "used_values", "_deferred")

    def __init__(self, names: dict | None = None, values: dict | None = None):
        self.names = names
        self.values = values
        self.used_names: set[str] = set()
        self.used_values: set[str] = set()
        self._deferred: list = []

    def check_keys(self) -> None:
        """Refuse empty maps and malformed placeholder keys (item-api §3.5 steps 4–5).

        Names are checked fully before values, as DynamoDB does.
        """
        for member, entries, sigil in (("ExpressionAttributeNames", self.names, "#"),
                                       ("ExpressionAttributeValues", self.values, ":")):
            if entries is None:
                continue
            if not entries:
                raise ValidationException(MAP_EMPTY.format(member))
            for key in entries:
                if not _placeholder_key(key, sigil):
                    raise ValidationException(MAP_BAD_KEY.format(member, key))
                # INF: the 255-byte limit (DG-ServiceQuotas) is checked after the key's syntax.
                if len(key.encode("utf-8")) > MAX_PLACEHOLDER_BYTES:
                    raise ValidationException(MAP_LONG_KEY)

    def check_unused(self) -> None:
        """Refuse names, then values, that no expression used (item-api §3.5 step 8).

        Then run the checks a parser deferred to this point (``defer=True``).
        """
        for member, entries, used in (("ExpressionAttributeNames", self.names, self.used_names),
                                      ("ExpressionAttributeValues", self.values, self.used_values)):
            unused = [key for key in entries or () if key not in used]
            if unused:
                raise ValidationException(UNUSED.format(member, ", ".join(unused)))
        deferred, self._deferred = self._deferred, []
        for check in deferred:
            check()

    def __repr__(self) -> str:
        return f"ExpressionContext(names={self.names!r}, values={self.values!r})"


def _placeholder_key(key, sigil: str) -> bool:
    return (isinstance(key, str) and len(key) > 1 and key[0] == sigil
            and all(c == "_" or (c.isascii() and c.isalnum()) for c in key[1:]))
