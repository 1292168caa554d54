"""DynamoDB's ten attribute types as Python values.

=========  =====================  =========================================
DynamoDB   Python (inside)        accepted at the boundary
=========  =====================  =========================================
S          str                    str
N          decimal.Decimal        Decimal, int (bool excluded); float refused
B          bytes                  bytes, bytearray, memoryview
BOOL       bool                   bool
NULL       None                   None
L          list                   list, tuple
M          dict (str keys)        dict
SS/NS/BS   frozenset              set, frozenset (one scalar type, non-empty)
=========  =====================  =========================================

Inside the engine numbers are always normalised (``Decimal.normalize``,
``-0`` → ``0``) and sets are frozensets, so equality and hashing of keys
follow DynamoDB's value semantics. Wire JSON (``{"N": "1.5"}``) is converted
only at the boundaries (``from_wire`` / ``to_wire``).
"""

from __future__ import annotations

import re
from decimal import Context, Decimal, InvalidOperation

from . import limits
from .errors import ValidationException

# Arithmetic context: wide enough that 38-digit operands never round; results
# are range-checked afterwards like any other number.
NUMBER_CONTEXT = Context(prec=200, Emax=999_999, Emin=-999_999)
ZERO = Decimal(0)

_NUMBER_SYNTAX = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")

SET_TYPES = {"S": "SS", "N": "NS", "B": "BS"}
ALL_TYPES = ("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS")

_SCALAR_TAG = {str: "S", Decimal: "N", bytes: "B", bool: "BOOL", type(None): "NULL",
               list: "L", dict: "M"}


class Missing:
    """The value of a path that does not resolve (PartiQL's MISSING)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING = Missing()


# --------------------------------------------------------------------- type tags

def type_of(value) -> str:
    """DynamoDB's type tag of an internal value: 'S', 'N', …, 'SS', 'NS', 'BS'."""
    tag = _SCALAR_TAG.get(type(value))
    if tag is not None:
        return tag
    if type(value) is frozenset:
        return SET_TYPES[_SCALAR_TAG[type(next(iter(value)))]]
    raise TypeError(f"not a DynamoDB value: {value!r}")


# ----------------------------------------------------------------------- numbers

_INT_MIN, _INT_MAX = -2 ** 31, 2 ** 31 - 1
_OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
_UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"


def number_problem(number: Decimal) -> str | None:
    """DynamoDB's complaint about a number's range or precision, or None.

    Magnitude is checked before precision, as DynamoDB does (dynalite
    ``checkNum``): the exponent of the leading digit must lie in -130..125.
    """
    # why zero too: DynamoDB refuses 0e126 and 0e-131 as it refuses 1e126 (recorded-2026-11 A8); a
    # zero's exponent is the one it was written with (Decimal("0e126").adjusted() == 126)
    exponent = number.adjusted()
    if not _INT_MIN <= exponent + 1 <= _INT_MAX:
        # why: DynamoDB measures a number's magnitude (precision - scale) in 32-bit arithmetic, which
        # wraps: 1e2147483647 is a Number underflow to it (recorded-2026-11 B7)
        exponent += -2 ** 32 if exponent > 0 else 2 ** 32
    if exponent > limits.NUMBER_MAX_EXPONENT:
        return _OVERFLOW
    if exponent < limits.NUMBER_MIN_EXPONENT:
        return _UNDERFLOW
    if len(number.normalize(NUMBER_CONTEXT).as_tuple().digits) > limits.NUMBER_MAX_DIGITS:
        return "Attempting to store more than 38 significant digits in a Number"
    return None


def normalize_number(number: Decimal) -> Decimal:
    """The canonical form of a valid number: plain digits, no exponent, no
    trailing fractional zeros, -0 → 0 (``Decimal('2020')``, not ``2.02E+3``)."""
    if not number:
        return ZERO
    normal = number.normalize(NUMBER_CONTEXT)
    return normal if normal.as_tuple().exponent <= 0 else Decimal(format(normal, "f"))


def checked_number(number: Decimal) -> Decimal:
    """Validate and normalise a number; ValidationException when out of range."""
    # why first: most numbers are integers written plainly (JSON, boto3's ints), already canonical and
    # within range from 1 to 38 digits; one str() tells, and the general checks cost seven times as much
    text = str(number)
    digits = text[1:] if text[0] == "-" else text
    if len(digits) <= limits.NUMBER_MAX_DIGITS and digits.isdigit() and digits[0] != "0":
        return number
    if _plain_fraction(digits):  # (the other common form: embeddings, prices, measurements)
        return number
    problem = number_problem(number)
    if problem:
        raise ValidationException(problem)
    return normalize_number(number)


def _plain_fraction(digits: str) -> bool:
    """Whether a number's text (its sign off) is a canonical plain fraction within DynamoDB's range: digits,
    a point, digits not ending in 0, no leading zero but a lone one, at most 38 significant digits. Such a
    number is its own normal form (``tests/engine/test_types.py`` holds it to the general checks)."""
    if len(digits) > limits.NUMBER_MAX_DIGITS + 2:
        return False
    whole, point, fraction = digits.partition(".")
    return (point == "." and whole.isdigit() and fraction.isdigit() and fraction[-1] != "0"
            and (whole == "0" or whole[0] != "0") and len((whole + fraction).lstrip("0")) <= limits.NUMBER_MAX_DIGITS)


def parse_number(text: str) -> Decimal:
    """Parse DynamoDB number text (``"-00001.2340"``, ``"1e3"``) to a canonical Decimal."""
    if not isinstance(text, str):
        raise ValidationException("The parameter cannot be converted to a numeric value")
    # why the colon with nothing after it for "": recorded-2026-11 B4 (DynamoDB 2026-09/10)
    if not _NUMBER_SYNTAX.match(text) or not_a_java_big_decimal(text):
        raise ValidationException(f"The parameter cannot be converted to a numeric value: {text}")
    try:
        number = Decimal(text)
    except InvalidOperation:  # exponent beyond the context's range
        raise ValidationException(f"The parameter cannot be converted to a numeric value: {text}") from None
    return checked_number(number)


def not_a_java_big_decimal(text: str) -> bool:
    """Whether Java's BigDecimal refuses number text (DynamoDB then cannot parse it at all: ``1e99999999999``
    is not a number to it, ``1e200`` is one too large; partiql-dynamodb §5.2, C-200, recorded-2026-11 B7):
    its exponent must be a 32-bit integer, and so must its scale (the digits after the point, less the
    exponent)."""
    mark = text.find("e") if "e" in text else text.find("E")
    if mark < 0:
        return False
    written = text[mark + 1:].lstrip("+-").lstrip("0")
    if len(written) > 10:  # (past 32 bits, and int() of thousands of digits is refused)
        return True
    exponent = int(("-" if text[mark + 1] == "-" else "") + (written or "0"))
    point = text.find(".")
    fraction = 0 if point < 0 else mark - point - 1
    return not (_INT_MIN <= exponent <= _INT_MAX and _INT_MIN <= fraction - exponent <= _INT_MAX)


def number_text(number: Decimal) -> str:
    """Plain decimal text without exponent, as DynamoDB returns numbers."""
    text = str(number)  # why first: a third of format's cost, and the same text unless it has an exponent
    return format(number, "f") if "E" in text else text


def add_numbers(left: Decimal, right: Decimal, subtract: bool = False) -> Decimal:
    """Exact sum or difference, range-checked like a stored number."""
    result = NUMBER_CONTEXT.subtract(left, right) if subtract else NUMBER_CONTEXT.add(left, right)
    return checked_number(result)


# ------------------------------------------------------------ equality, ordering

def prefix_end(prefix):
    """The least S or B value above every value that begins with ``prefix`` (``"p#01"`` → ``"p#02"``);
    None when there is none (all its units are the greatest)."""
    top = 0x10FFFF if isinstance(prefix, str) else 0xFF
    while prefix:
        last = prefix[-1] if isinstance(prefix, str) else prefix[-1:]
        code = ord(last)
        if code < top:
            successor = chr(code + 1) if isinstance(prefix, str) else bytes((code + 1,))
            return prefix[:-1] + successor
        prefix = prefix[:-1]
    return None


def values_equal(a, b) -> bool:
    """DynamoDB equality: same type and same value; sets unordered, maps by content."""
    ta, tb = type(a), type(b)
    if ta is not tb:
        return False
    if ta is list:
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if ta is dict:
        return a.keys() == b.keys() and all(values_equal(v, b[k]) for k, v in a.items())
    if ta is frozenset:
        return type_of(a) == type_of(b) and a == b
    return a == b


def comparable(a, b) -> bool:
    """True when ``a`` and ``b`` can be ordered: both S, both N or both B."""
    ta = type(a)
    return ta is type(b) and (ta is str or ta is Decimal or ta is bytes)


# Python orders str by code point, which is UTF-8 byte order, bytes by
# unsigned bytes and Decimal numerically: exactly DynamoDB's orders for S, B, N.


# ------------------------------------------------------------------------- text

LONE_SURROGATE = ("One or more parameter values were invalid: a string holds a lone surrogate "
                  "(U+{code:04X} at character {position}), which is not Unicode text and cannot "
                  "travel in DynamoDB's JSON protocol")


def is_text(text: str) -> bool:
    """Whether ``text`` is valid Unicode (holds no lone UTF-16 surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def checked_text(text: str) -> str:
    """``text`` if it is valid Unicode; ValidationException for a lone surrogate.

    The rule for every string (values, names, expressions, statements): a
    UTF-16 surrogate half is not a character, UTF-8 cannot encode it, and
    DynamoDB's JSON protocol cannot carry it (INF: the service's wording is
    unknown; the message says what and where).
    """
    if is_text(text):
        return text
    position = next(i for i, c in enumerate(text) if "\ud800" <= c <= "\udfff")
    raise ValidationException(LONE_SURROGATE.format(code=ord(text[position]), position=position))


# ------------------------------------------------------------------------- sizes

def utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


# why cached: every write sizes its numbers; the size depends only on the value, and stored numbers
# repeat (counters, flags, ages). why a dict emptied when full, not lru_cache: most numbers of a large
# import are new (sort keys, ids), and an LRU miss costs as much again as sizing the number
_NUMBER_SIZES: dict = {}
_NUMBER_SIZES_HELD = 4096


def number_size(number: Decimal) -> int:
    """Bytes DynamoDB uses to store a number (spec §5.3): base-100 mantissa + exponent byte."""
    size = _NUMBER_SIZES.get(number)
    if size is None:
        if len(_NUMBER_SIZES) >= _NUMBER_SIZES_HELD:
            _NUMBER_SIZES.clear()
        size = _NUMBER_SIZES[number] = _number_size(number)
    return size


def _number_size(number: Decimal) -> int:
    if not number:
        return 1
    text = str(number)  # why first: a plain integer's size follows from its text, at a fifth of the cost
    digits = text[1:] if text[0] == "-" else text
    if digits.isdigit():
        count, leading = len(digits.rstrip("0")), len(digits)
        mantissa = (count + (leading & 1) + 1) // 2
        return 1 + mantissa + (1 if text[0] == "-" and mantissa < 20 else 0)
    sign, digits, exponent = number.as_tuple()
    count = len(digits)
    leading = count + exponent  # E: digits before the point in 0.d × 10^E
    while digits[count - 1] == 0:  # trailing zeros of an integer are not significant
        count -= 1
    mantissa = (count + (leading & 1) + 1) // 2
    return 1 + mantissa + (1 if sign and mantissa < 20 else 0)


def _set_size(value: frozenset) -> int:
    kind = type(next(iter(value)))
    if kind is str:
        return sum(utf8_len(element) for element in value)
    if kind is bytes:
        return sum(len(element) for element in value)
    return sum(number_size(element) for element in value)


def value_size(value) -> int:
    """Bytes a value counts toward item size (spec §5.3)."""
    kind = type(value)
    if kind is str:
        return utf8_len(value)
    if kind is Decimal:
        return number_size(value)
    if kind is bytes:
        return len(value)
    if kind is dict:
        return 3 + sum(utf8_len(key) + 1 + value_size(item) for key, item in value.items())
    if kind is list:
        return 3 + sum(1 + value_size(item) for item in value)
    if kind is frozenset:
        return _set_size(value)
    return 1  # BOOL, NULL


def item_size(item: dict) -> int:
    """Σ over top-level attributes of name bytes + value bytes (spec §5.3)."""
    total = 0
    for name, value in item.items():  # why inline: this runs on every write
        total += len(name) if name.isascii() else len(name.encode("utf-8", "surrogatepass"))
        kind = type(value)
        if kind is str:
            total += len(value) if value.isascii() else len(value.encode("utf-8", "surrogatepass"))
        elif kind is Decimal:
            total += number_size(value)
        else:
            total += value_size(value)
    return total


# ------------------------------------------------------------------------ copies

_MUTABLE = (dict, list)  # the only engine values that need copying
_MUTABLE_TYPES = frozenset(_MUTABLE)


def copy_value(value):
    """A copy that shares nothing mutable with ``value`` (scalars are immutable)."""
    kind = type(value)
    if kind is list:
        if _MUTABLE_TYPES.isdisjoint(map(type, value)):  # a list of scalars: one C-level copy
            return value.copy()
        return [copy_value(item) if type(item) in _MUTABLE else item for item in value]
    if kind is dict:
        if _MUTABLE_TYPES.isdisjoint(map(type, value.values())):
            return value.copy()
        return {key: copy_value(item) if type(item) in _MUTABLE else item for key, item in value.items()}
    return value


def shallow_containers(item: dict) -> tuple | None:
    """The names of an item's map and list attributes when each holds scalars
    only (so a one-level copy of each copies the item), else None.

    ``()`` for a flat item.
    """
    if _MUTABLE_TYPES.isdisjoint(map(type, item.values())):
        return ()
    names = tuple(name for name, value in item.items() if type(value) in _MUTABLE)
    for name in names:
        value = item[name]
        if not _MUTABLE_TYPES.isdisjoint(map(type, value.values() if type(value) is dict else value)):
            return None
    # why shared: items of one shape then hold one tuple, not one each (a read
    # that copies a record touches it, and a cold tuple is a cache miss per item)
    return _SHAPES.setdefault(names, names) if len(_SHAPES) < _MAX_SHAPES else names


_SHAPES: dict = {}
_MAX_SHAPES = 4096


# ------------------------------------------------------------- Python boundary

FLOAT_MESSAGE = "Float types are not supported. Use Decimal types instead."
_INT_LIMIT = 10 ** limits.NUMBER_MAX_DIGITS


def int_number(value: int) -> Decimal:
    """An int as a DynamoDB number: of at most 38 digits it is valid and canonical as it stands."""
    return Decimal(value) if -_INT_LIMIT < value < _INT_LIMIT else checked_number(Decimal(value))


def _set_from_python(value) -> frozenset:
    if not value:
        raise ValidationException("One or more parameter values were invalid: An string set  may not be empty")
    members = [from_python(element) for element in value]
    kinds = {type(member) for member in members}
    if len(kinds) != 1 or kinds.pop() not in (str, Decimal, bytes):
        raise TypeError("A set must hold strings only, numbers only or binaries only")
    result = frozenset(members)
    if len(result) != len(members):  # 1 and 1.0 collapse once normalised
        raise ValidationException("Input collection contains duplicates")
    return result


def from_python(value):
    """Convert a caller's Python value to the engine's canonical value.

    ints become Decimals, numbers are range-checked and normalised, tuples
    become lists, sets frozensets; floats are refused as boto3 refuses them.
    Values nested deeper than ``limits.MAX_VALUE_DEPTH`` are DynamoDB's
    nesting error. The result shares nothing with the input.
    """
    return _from_python(value, 1)


def _from_python(value, depth: int):
    kind = type(value)
    if kind is str:
        return value if value.isascii() else checked_text(value)  # (ASCII is text: no call)
    if kind is bool or value is None:
        return value
    if kind is Decimal:
        if not value.is_finite():  # why: boto3's TypeSerializer refuses them with these words
            raise TypeError("Infinity and NaN not supported")
        return checked_number(value)
    if kind is int:
        return int_number(value)
    if kind is float:
        raise TypeError(FLOAT_MESSAGE)
    if kind is bytes:
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, dict):
        check_depth(depth)
        return {(key if type(key) is str and key.isascii() else attribute_name(key)): _from_python(item, depth + 1)
                for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        check_depth(depth)
        return [_from_python(item, depth + 1) for item in value]
    if isinstance(value, (set, frozenset)):
        return _set_from_python(value)
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return checked_text(str(value))
    if isinstance(value, int):
        return checked_number(Decimal(int(value)))
    raise TypeError(f"Unsupported type {type(value).__name__!r} for value {value!r}")


def attribute_name(key, what: str = "Attribute names") -> str:
    """A caller's attribute name (or other map key, ``what`` they are): a str of Unicode text
    (TypeError for another type, DynamoDB's ValidationException for a lone surrogate)."""
    if not isinstance(key, str):
        raise TypeError(f"{what} must be strings, not {type(key).__name__}")
    return checked_text(str(key))


def item_from_python(item) -> dict:
    """Convert a caller's item (a dict of attribute name → value)."""
    if not isinstance(item, dict):
        raise TypeError(f"An item must be a dict, not {type(item).__name__}")
    return from_python(item)


# ------------------------------------------------------------- item checks

NESTING = "Nesting Levels have exceeded supported limits"


def check_depth(depth: int) -> None:
    """DynamoDB's nesting error for a container met at ``depth`` > ``limits.MAX_VALUE_DEPTH``."""
    if depth > limits.MAX_VALUE_DEPTH:
        raise ValidationException(NESTING)


def nesting_problem(value, depth: int = 1) -> bool:
    """True when a map or list sits at depth 32 or deeper (top-level value = depth 1)."""
    kind = type(value)
    if kind is dict:
        return depth >= limits.MAX_NESTING_DEPTH or any(
            nesting_problem(member, depth + 1) for member in value.values())
    if kind is list:
        return depth >= limits.MAX_NESTING_DEPTH or any(
            nesting_problem(member, depth + 1) for member in value)
    return False
