"""Request shapes as data, and DynamoDB's first two request checks (item-api §1.1, §2.1–§2.2).

A *shape* is a plain dict describing one request member, the way DynamoDB's
service model does:

====================  ============================================================
key                   meaning
====================  ============================================================
``type``              ``String`` ``Integer`` ``Long`` ``Double`` ``Boolean`` ``Blob``
                      ``List`` ``Map`` ``Structure`` (Java names: they appear in
                      SerializationException texts)
``required``          ``Member must not be null``
``pattern``           ``Member must satisfy regular expression pattern: <p>`` (full match)
``min_len/max_len``   length of a string (UTF-16 units, as Java counts), list, map, blob
``min/max``           numeric range
``enum``              tuple in the *server's* order (it is printed in that order)
``member``            List: the element shape (paths ``<list>.<i>.member``, 1-based)
``key/value``         Map: key and value shapes (paths ``<map>.<key>.member``)
``members``           Structure: ``{MemberName: shape}`` in the server's member order
``name``              Structure: the Java class name (only for one SerializationException text)
``scalar_error``      Structure: the SerializationException text when a scalar is given
====================  ============================================================

The helpers ``string()``, ``long()``, ``list_of()``, … only build such dicts.

Two passes, matching DynamoDB's phases 2 and 4 (§2.1):

* ``check_types(request, shape)`` (``engine.type_pass``) — JSON types; raises ``SerializationException``
  and returns a normalised copy (unknown and null members dropped, boolean
  strings coerced, decimals truncated for integral members).
* ``validate(request, shape)`` — every constraint violation, at most ten of them,
  in one ``ValidationException``: ``N validation errors detected: a; b``.

``engine.acceptance`` compiles a shape into the fast predicate that lets a
well-formed request skip both passes.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from .errors import ValidationException
from .type_pass import check_types

MAX_REPORTED = 10
NAME_PATTERN = "[a-zA-Z0-9_.-]+"

# ----------------------------------------------------------- enums (server order)
# §2.2: the envelope prints enum value sets in the server's order, not botocore's.
RETURN_CONSUMED_CAPACITY = ("INDEXES", "TOTAL", "NONE")
RETURN_ITEM_COLLECTION_METRICS = ("SIZE", "NONE")
RETURN_VALUES = ("ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW")
RETURN_VALUES_ON_CONDITION_CHECK_FAILURE = ("ALL_OLD", "NONE")
SELECT = ("SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES")
COMPARISON_OPERATOR = ("IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT", "NOT_NULL",
                       "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS")
CONDITIONAL_OPERATOR = ("OR", "AND")
ATTRIBUTE_ACTION = ("ADD", "DELETE", "PUT")
BILLING_MODE = ("PROVISIONED", "PAY_PER_REQUEST")
KEY_TYPE = ("HASH", "RANGE")
ATTRIBUTE_TYPE = ("B", "N", "S")
PROJECTION_TYPE = ("ALL", "INCLUDE", "KEYS_ONLY")
# INF: the spec pins no server order for these three; botocore's order is used.
STREAM_VIEW_TYPE = ("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")
TABLE_CLASS = ("STANDARD", "STANDARD_INFREQUENT_ACCESS")
SSE_TYPE = ("AES256", "KMS")


# ------------------------------------------------------------- shape builders

def _shape(type_: str, **constraints) -> dict:
    shape = {"type": type_}
    shape.update((key, value) for key, value in constraints.items()
                 if value is not None and value is not False)
    return shape


def string(*, required=False, pattern=None, min_len=None, max_len=None, enum=None) -> dict:
    """A String member."""
    return _shape("String", required=required, pattern=pattern, min_len=min_len,
                  max_len=max_len, enum=tuple(enum) if enum else None)


def integer(*, required=False, min=None, max=None) -> dict:  # noqa: A002 - DynamoDB's words
    """An Integer member (e.g. Limit)."""
    return _shape("Integer", required=required, min=min, max=max)


def long(*, required=False, min=None, max=None) -> dict:  # noqa: A002
    """A Long member (e.g. ReadCapacityUnits)."""
    return _shape("Long", required=required, min=min, max=max)


def boolean(*, required=False) -> dict:
    """A Boolean member."""
    return _shape("Boolean", required=required)


def blob(*, required=False, min_len=None, max_len=None) -> dict:
    """A Blob member (base64 text on the wire, bytes in process)."""
    return _shape("Blob", required=required, min_len=min_len, max_len=max_len)


def list_of(member: dict, *, required=False, min_len=None, max_len=None) -> dict:
    """A List member whose elements have shape ``member``."""
    return _shape("List", member=member, required=required, min_len=min_len, max_len=max_len)


def map_of(key: dict, value: dict, *, required=False, min_len=None, max_len=None) -> dict:
    """A Map member (string keys)."""
    return _shape("Map", key=key, value=value, required=required, min_len=min_len, max_len=max_len)


def structure(members: dict, *, required=False, name=None, scalar_error=None, to_string=None) -> dict:
    """A Structure member; ``members`` in the server's member order.

    ``to_string="class"``: an envelope item prints the value as ``Name(member=value, ...)``.
    """
    return _shape("Structure", members=dict(members), required=required, name=name,
                  scalar_error=scalar_error, to_string=to_string)


# The wire AttributeValue ({"N": "1"}), for the type pass only: its
# well-formedness (exactly one type, non-empty sets, numbers) is a later phase
# (engine.types.from_wire). Requests already holding engine values (the Python
# API) must not be checked against it.
ATTRIBUTE_VALUE = structure({
    "S": string(), "N": string(), "B": blob(),
    "SS": list_of(string()), "NS": list_of(string()), "BS": list_of(blob()),
    "M": None, "L": None, "NULL": boolean(), "BOOL": boolean(),
}, name="AttributeValue", scalar_error="Unexpected value type in payload")
ATTRIBUTE_VALUE["members"]["M"] = map_of(string(), ATTRIBUTE_VALUE)
ATTRIBUTE_VALUE["members"]["L"] = list_of(ATTRIBUTE_VALUE)
ATTRIBUTE_MAP = map_of(string(), ATTRIBUTE_VALUE)

# An attribute value the in-process API has already converted to an engine
# value (``engine.types``): the type pass takes it as it is, and its
# well-formedness is checked where DynamoDB checks it (phase 5).
ENGINE_VALUE = {"type": "Value"}
# One where an attribute value stands (a legacy ``Value``, an ``AttributeValueList`` element): there None
# is DynamoDB's NULL, a value that is present, not an absent member (recorded-2026-11 A3).
ENGINE_ATTRIBUTE_VALUE = {"type": "Value", "nullable": True}

# Item-operation TableName (§2.2): a name must match the pattern and be 3..255.
TABLE_NAME = string(required=True, pattern=NAME_PATTERN, min_len=3, max_len=255)


# ========================================================== constraint pass (§2.2)

def render_value(value, shape: dict | None = None) -> str:
    """Java ``toString()``-style rendering inside ``Value '<v>'`` (strings raw).

    A structure whose shape has ``to_string="class"`` prints as its model class
    does: ``KeySchemaElement(attributeName=pk, keyType=HASH)`` (recorded against
    DynamoDB 2026-04, issue #14); other maps and structures as ``{k=v, ...}``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        element = shape.get("member") if shape else None
        return "[" + ", ".join(render_value(member, element) for member in value) + "]"
    if isinstance(value, dict):
        if shape and shape.get("to_string") == "class":
            return _class_string(value, shape)
        # INF: maps/structures as {k=v, ...}; the spec calls this non-contractual.
        element = shape.get("value") if shape and shape["type"] == "Map" else None
        return "{" + ", ".join(f"{key}={render_value(member, element)}" for key, member in value.items()) + "}"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    return str(value)


def _class_string(value: dict, shape: dict) -> str:
    # R: the members present, in the shape's order, named as the envelope's paths name them
    members = shape["members"]
    fields = ", ".join(f"{CLASSIC.member(name)}={render_value(value[name], members[name])}"
                       for name in members if value.get(name) is not None)
    return f"{shape['name']}({fields})"


def java_length(value) -> int:
    """A string's length as Java counts it (UTF-16 code units); other sized values' len()."""
    if isinstance(value, str):
        # why: Java counts UTF-16 code units
        return len(value.encode("utf-16-le", "surrogatepass")) // 2
    return len(value)


def _is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _sized(value) -> bool:
    return isinstance(value, (str, list, tuple, dict, bytes, bytearray))


# (shape key, violated?(value, limit), constraint text(limit)) — checked in this
# order for one member (§2.2 prints the pattern before a too-short length).
CONSTRAINTS = (
    ("pattern", lambda v, p: isinstance(v, str) and re.fullmatch(p, v) is None,
     lambda p: f"Member must satisfy regular expression pattern: {p}"),
    ("min_len", lambda v, n: _sized(v) and java_length(v) < n,
     lambda n: f"Member must have length greater than or equal to {n}"),
    ("max_len", lambda v, n: _sized(v) and java_length(v) > n,
     lambda n: f"Member must have length less than or equal to {n}"),
    ("min", lambda v, n: _is_number(v) and v < n,
     lambda n: f"Member must have value greater than or equal to {n}"),
    ("max", lambda v, n: _is_number(v) and v > n,
     lambda n: f"Member must have value less than or equal to {n}"),
    ("enum", lambda v, e: v not in e,
     lambda e: f"Member must satisfy enum value set: [{', '.join(e)}]"),
)
_CONSTRAINT = {key: (failed, text) for key, failed, text in CONSTRAINTS}
# Inside "Map keys/value must satisfy constraint: [...]" the whole constraint set
# is listed, maxima first (DL test/batchWriteItem.js).
_BRACKET_ORDER = ("max_len", "min_len", "max", "min", "pattern", "enum")


class Bare(str):
    """An envelope item DynamoDB words without the envelope (a message of its own)."""


@dataclass(frozen=True)
class Style:
    """How an envelope item reads: member names in paths, whether (and how) the value is shown.

    ``keys``: the style of a Map's ``Map keys must satisfy`` item, when it differs; ``text``: the whole
    item, whatever the constraint (recorded quirks), given without the envelope.
    """

    member: Callable[[str], str]
    shows_value: bool
    render: Callable | None = None
    keys: Style | None = None
    text: str | None = None

    def path(self, parent: str, name: str) -> str:
        """``keySchema`` / ``provisionedThroughput.readCapacityUnits`` (classic); ``Limit`` (modern)."""
        named = self.member(name)
        return f"{parent}.{named}" if parent else named

    def item(self, value, path: str, constraint: str, shape: dict | None = None) -> str:
        """One envelope item: ``Value <v> at '<path>' failed to satisfy constraint: <c>``."""
        if self.text is not None:
            return Bare(self.text)
        shown = ""
        if self.shows_value:
            shown = " null" if value is None else f" '{(self.render or render_value)(value, shape)}'"
        return f"Value{shown} at '{path}' failed to satisfy constraint: {constraint}"


# §2.2: ``Value '0' at 'limit'``: the value, the member's first letter lower-cased.
CLASSIC = Style(member=lambda name: name[:1].lower() + name[1:], shows_value=True)
# why (recorded against DynamoDB 2026-04 and 2026-09/10): DynamoDB is moving its checks to a newer
# framework, whose items read ``Value at 'Limit'``: no value, the member as the model spells it. Which
# members answer so is data (``requests.check_order``).
MODERN = Style(member=lambda name: name, shows_value=False)


def json_echo(value, shape: dict | None = None) -> str:
    """A value shown as the compact JSON the client sent (recorded-2026-11 B6: BatchGetItem's RequestItems)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=_json_default)


def _json_default(value):
    # an in-process request's engine values (the wire's are JSON already)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    return str(value)


def violation(value, path: str, constraint: str) -> str:
    """One classic envelope item: ``Value <v> at '<path>' failed to satisfy constraint: <c>``."""
    return CLASSIC.item(value, path, constraint)


def _own(value, shape: dict) -> list[str]:
    """Constraint texts that ``value`` itself violates."""
    return [text(shape[key]) for key, failed, text in CONSTRAINTS
            if key in shape and failed(value, shape[key])]


def _bracket(shape: dict) -> str:
    texts = [_CONSTRAINT[key][1](shape[key]) for key in _BRACKET_ORDER if key in shape]
    return "[" + ", ".join(texts) + "]"


def member_path(parent: str, name: str) -> str:
    """``keySchema`` / ``provisionedThroughput.readCapacityUnits``: first letter lower-cased."""
    return CLASSIC.path(parent, name)


def _walk(value, shape: dict, path: str, style: Style):
    if value is None and not shape.get("nullable"):  # (an attribute value None is NULL: present, A3)
        if shape.get("required"):
            yield style.item(None, path, "Member must not be null")
        return
    for text in _own(value, shape):
        yield style.item(value, path, text, shape)
    children = _CHILDREN.get(shape["type"])
    if children is not None:
        yield from children(value, shape, path, style)


def _list_children(value, shape, path, style):
    if not isinstance(value, (list, tuple)):
        return
    element_shape = dict(shape["member"], required=True)  # INF: a null element is "not null"
    for number, element in enumerate(value, 1):
        yield from _walk(element, element_shape, f"{path}.{number}.member", style)


def _map_children(value, shape, path, style):
    if not isinstance(value, dict):
        return
    key_shape, value_shape = shape["key"], shape["value"]
    # INF: one item per map for its keys and one for its values, whatever the
    # number of offending entries.
    if any(_own(key, key_shape) for key in value):
        keys = style.keys or style
        # (a member's own name, in the keys' style: ``requestItems`` where the entries say ``RequestItems``)
        named = path if "." in path else keys.member(path)
        yield keys.item(value, named, f"Map keys must satisfy constraint: {_bracket(key_shape)}", shape)
    if any(element is not None and _own(element, value_shape) for element in value.values()):
        yield style.item(value, path, f"Map value must satisfy constraint: {_bracket(value_shape)}", shape)
    nested = _CHILDREN.get(value_shape["type"])
    if nested is None:
        return
    for key, element in value.items():
        if element is None:  # INF: a null collection value reads as a null list element does
            yield style.item(None, f"{path}.{key}.member", "Member must not be null")
        else:
            yield from nested(element, value_shape, f"{path}.{key}.member", style)


def _structure_children(value, shape, path, style, styles=None):
    if not isinstance(value, dict):
        return
    for name, member_shape in shape["members"].items():
        own = styles.get(name, style) if styles else style
        yield from _walk(value.get(name), member_shape, own.path(path, name), own)


_CHILDREN = {"List": _list_children, "Map": _map_children, "Structure": _structure_children}


def violations(request: dict, shape: dict, style: Style = CLASSIC, styles: dict | None = None) -> list[str]:
    """Every envelope item for ``request`` (a Structure), in the shape's member order; ``styles`` names the
    top-level members that answer in another style than ``style``."""
    return list(_structure_children(request, shape, "", style, styles))


# ------------------------------------------------- is anything wrong? (fast)
# why: nearly every request is valid, and walking every member of the shape
# (present or not) building a path string for each was most of the cost of a
# request. This pass looks only at what is present and builds no text; the
# ordered walk above runs only when it finds something.

_COMPILED: dict[int, tuple] = {}


def _own_checks(shape: dict) -> tuple:
    """(shape, ((violated?, limit), ...), required member names) for ``shape``, compiled once."""
    entry = _COMPILED.get(id(shape))
    if entry is None or entry[0] is not shape:
        checks = tuple((failed, shape[key]) for key, failed, _ in CONSTRAINTS if key in shape)
        required = tuple(name for name, member in shape.get("members", {}).items() if member.get("required"))
        entry = _COMPILED[id(shape)] = (shape, checks, required)
    return entry


def faulty(value, shape: dict) -> bool:
    """Whether ``value`` violates ``shape`` anywhere (``violations`` would list something)."""
    _, checks, required = _own_checks(shape)
    for failed, limit in checks:
        if failed(value, limit):
            return True
    children = _FAULTY_CHILDREN.get(shape["type"])
    return children is not None and children(value, shape, required)


def _faulty_members(value, shape, required) -> bool:
    # loops, not any(): this runs for every member of every request
    if not isinstance(value, dict):
        return False
    for name in required:
        if value.get(name) is None:
            return True
    members = shape["members"]
    for name, member in value.items():
        member_shape = members.get(name)
        if member is not None and member_shape is not None and faulty(member, member_shape):
            return True
    return False


def _faulty_elements(value, shape, required) -> bool:
    if not isinstance(value, (list, tuple)):
        return False
    element = shape["member"]
    for member in value:
        if (member is None and not element.get("nullable")) or faulty(member, element):
            return True
    return False


def _faulty_entries(value, shape, required) -> bool:
    if not isinstance(value, dict):
        return False
    key_shape, value_shape = shape["key"], shape["value"]
    nested = value_shape["type"] in _CHILDREN  # a null collection value is a violation (_map_children)
    for key, member in value.items():
        if faulty(key, key_shape) or (nested if member is None else faulty(member, value_shape)):
            return True
    return False


_FAULTY_CHILDREN = {"Structure": _faulty_members, "List": _faulty_elements, "Map": _faulty_entries}


def envelope_message(items: list[str]) -> str:
    """``1 validation error detected: a`` / ``N validation errors detected: a; b`` (first ten); a ``Bare``
    item alone is its own message."""
    if len(items) == 1 and isinstance(items[0], Bare):
        return str(items[0])
    shown = items[:MAX_REPORTED]
    noun = "error" if len(shown) == 1 else "errors"
    return f"{len(shown)} validation {noun} detected: " + "; ".join(shown)


def validate(request: dict, shape: dict, style: Style = CLASSIC, styles: dict | None = None,
             first_only: bool = False) -> None:
    """Phase 4: raise one ValidationException listing the violations (only the first: ``first_only``)."""
    if not faulty(request, shape):
        return
    items = violations(request, shape, style, styles)
    if items:
        raise ValidationException(envelope_message(items[:1] if first_only else items))


def check_request(request, shape: dict) -> dict:
    """Phases 2 and 4 together: the normalised request, or the first failing phase's error."""
    normalised = check_types(request, shape)
    validate(normalised, shape)
    return normalised
