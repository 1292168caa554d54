"""DynamoDB's expression language, text → engine expression model (item-api §3).

Public API::

    ctx = ExpressionContext(names, values)          # ExpressionAttributeNames / Values
    parse_condition(text, ctx, param)               # Condition- / FilterExpression → Condition
    parse_key_condition(text, ctx)                  # KeyConditionExpression → Condition
    parse_update(text, ctx)                         # UpdateExpression → Update
    parse_projection(text, ctx)                     # ProjectionExpression → tuple[Path, ...]
    ctx.check_unused()                              # after every expression of the request

Every problem is a ``ValidationException`` whose message is DynamoDB's, without
the modern ``1 validation error detected: `` prefix (the request layer adds
it per operation, item-api §2.3).

How it works. Text is parsed once (``grammar/expressions.lark``, Lark LALR) and
*compiled*: a static analysis records every text-only problem with its
category, strips parentheses and produces a *template* — the model with
``NameRef`` / ``ValueRef`` markers where the placeholders are — plus the
checks that depend on the placeholders' substitutes (operand types, distinct
operands, overlapping paths…). The compiled form is cached on the text, so
a request that reuses its expression with new values costs one cache lookup,
a few dict lookups and the construction of the nodes that hold placeholders.

Error precedence. When one expression has several problems DynamoDB reports
one, chosen by category in a fixed order and, within a category, the first
in source order (item-api §3.7, last paragraph: dynalite's ``checkErrors``).
Each problem is recorded as (category rank, sequence number) and the smallest
wins. Categories ranked before the placeholder check are text-only and are
decided at compile time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .. import limits
from ..errors import ValidationException
from ..types import checked_text, type_of
from .model import (
    FUNCTIONS,
    ORDERING_COMPARATORS,
    Add,
    And,
    Arithmetic,
    Between,
    Call,
    Comparison,
    Delete,
    In,
    Not,
    Or,
    Path,
    Remove,
    Set,
    Update,
    Value,
)

__all__ = [
    "ExpressionContext",
    "parse_condition",
    "parse_key_condition",
    "check_key_condition",
    "parse_update",
    "parse_projection",
    "reserved_words",
]

# ------------------------------------------------------------------ messages
# Exact texts, item-api §3.5–§3.9.

EMPTY = "The expression can not be empty;"
TOO_LONG = "Expression size has exceeded the maximum allowed size; expression size: {0}"
SYNTAX = 'Syntax error; token: "{0}", near: "{1}"'
INDEX_RANGE = "List index is not within the allowable range; index: {0}"
TOO_MANY_OPERATORS = "The expression contains too many operators; operator count: {0}"
TOO_MANY_IN = "The IN operator is provided with too many operands; number of operands: {0}"
TOO_DEEP = "The document path has too many nesting levels; nesting levels: {0}"
PARENS = "The expression has redundant parentheses;"
UNKNOWN_FUNCTION = "Invalid function name; function: {0}"
NOT_IN_CONDITION = "The function is not allowed in a condition expression; function: {0}"
NOT_IN_UPDATE = "The function is not allowed in an update expression; function: {0}"
MISUSED = "The function is not allowed to be used this way in an expression; function: {0}"
RESERVED = "Attribute name is a reserved keyword; reserved keyword: {0}"
VALUE_IN_PATH = "The document path cannot contain attribute value parameters; attribute value: {0}"
UNDEFINED_NAME = "An expression attribute name used in the document path is not defined; attribute name: {0}"
UNDEFINED_VALUE = "An expression attribute value used in expression is not defined; attribute value: {0}"
OPERAND_COUNT = ("Incorrect number of operands for operator or function; "
                 "operator or function: {0}, number of operands: {1}")
OPERAND_TYPE = "Incorrect operand type for operator or function; operator or function: {0}, operand type: {1}"
ACTION_TYPE = "Incorrect operand type for operator or function; operator: {0}, operand type: {1}"
NEEDS_PATH = "Operator or function requires a document path; operator or function: {0}"
DISTINCT = ("The first operand must be distinct from the remaining operands for this operator or function; "
            "operator: {0}, first operand: {1}")
TYPE_NAME = "Invalid attribute type name found; type: {0}, valid types: {{B,NULL,SS,BOOL,L,BS,N,NS,S,M}}"
BETWEEN_TYPES = ("The BETWEEN operator requires same data type for lower and upper bounds; "
                 "lower bound operand: AttributeValue: {{{0}}}, upper bound operand: AttributeValue: {{{1}}}")
BETWEEN_ORDER = ("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
                 "lower bound operand: AttributeValue: {{{0}}}, upper bound operand: AttributeValue: {{{1}}}")
SECTION_TWICE = 'The "{0}" section can only be used once in an update expression;'
OVERLAP = ("Two document paths overlap with each other; must remove or rewrite one of these paths; "
           "path one: {0}, path two: {1}")
CONFLICT = ("Two document paths conflict with each other; must remove or rewrite one of these paths; "
            "path one: {0}, path two: {1}")
UNUSED = "Value provided in {0} unused in expressions: keys: {{{1}}}"

# KeyConditionExpression structure (item-api §3.9).
KEY_OPERATOR = "Invalid operator used in KeyConditionExpression: {0}"
KEY_NESTED_OPERATION = "KeyConditionExpressions cannot contain nested operations"
KEY_FIRST_OPERAND = "Invalid condition in KeyConditionExpression: {0} operator must have the key attribute as its first operand"
KEY_MULTIPLE_NAMES = "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"
KEY_NESTED_PATH = "KeyConditionExpressions cannot have conditions on nested attributes"
KEY_NO_ATTRIBUTE = "Invalid condition in KeyConditionExpression: No key attribute specified"
KEY_TWICE = "KeyConditionExpressions must only contain one condition per key"

# ExpressionAttributeNames / Values keys (item-api §3.5 steps 4–5).
MAP_EMPTY = "{0} must not be empty"
MAP_BAD_KEY = '{0} contains invalid key: Syntax error; key: "{1}"'
MAP_LONG_KEY = "The expression attribute map contains a key that is too long"

# Limits not in engine.limits (LOCAL LocalDBEnv / ASTListener).
MAX_PATH_DEPTH = 32
MAX_LIST_INDEX = 2 ** 31 - 1  # INF: LOCAL parses indexes with Integer.parseInt
MAX_PLACEHOLDER_BYTES = 255

VALID_TYPE_NAMES = frozenset(("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"))
ORDERED_TYPES = frozenset(("N", "S", "B"))
SET_TYPES = frozenset(("SS", "NS", "BS"))
SIZED_TYPES = VALID_TYPE_NAMES - {"N", "BOOL", "NULL"}
# ADD/DELETE name the operand type in long form (DL test/updateItem.js).
LONG_TYPE_NAMES = {"S": "STRING", "N": "NUMBER", "B": "BINARY", "BOOL": "BOOLEAN", "NULL": "NULL",
                   "L": "LIST", "M": "MAP", "SS": "STRING_SET", "NS": "NUMBER_SET", "BS": "BINARY_SET"}
ACTION_TYPES = {"ADD": SET_TYPES | {"N"}, "DELETE": SET_TYPES}

# What a nested call evaluates to, for operand-type checks of its caller.
RESULT_TYPES = {"size": "N", "list_append": "L"}


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

_NO_ENTRIES: dict = {}


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


# ----------------------------------------------------------------- public API

def parse_condition(text: str, ctx: ExpressionContext, param: str = "ConditionExpression"):
    """Parse a ConditionExpression (or ``param`` = 'FilterExpression' / 'KeyConditionExpression').

    Returns a model condition: Comparison, Between, In, And, Or, Not or a
    boolean ``Call``. Raises ValidationException with ``Invalid <param>: …``.
    """
    return _substitute(_compiled("condition", text), ctx, param)


def parse_key_condition(text: str, ctx: ExpressionContext, *, defer: bool = False):
    """Parse a KeyConditionExpression and apply the structural rules of item-api §3.9.

    Nested ANDs are flattened: the result is one condition or an ``And`` of
    them. With ``defer=True`` the structural rules run at the end of
    ``ctx.check_unused()`` instead, which is where DynamoDB reports them
    (item-api §2.1 step 5: after unused names and values).
    """
    condition = _flatten_and(_substitute(_compiled("condition", text), ctx, "KeyConditionExpression"))
    if defer:
        ctx._deferred.append(lambda: check_key_condition(condition))
    else:
        check_key_condition(condition)
    return condition


def parse_update(text: str, ctx: ExpressionContext) -> Update:
    """Parse an UpdateExpression into an ``Update`` (actions in text order)."""
    return _substitute(_compiled("update", text), ctx, "UpdateExpression")


def parse_projection(text: str, ctx: ExpressionContext) -> tuple[Path, ...]:
    """Parse a ProjectionExpression into its paths, in text order."""
    return _substitute(_compiled("projection", text), ctx, "ProjectionExpression")


def _substitute(compiled: _Compiled, ctx: ExpressionContext, param: str):
    if compiled.error is not None:
        raise ValidationException(f"Invalid {param}: {compiled.error}")
    names = ctx.names or _NO_ENTRIES
    values = ctx.values or _NO_ENTRIES
    for is_name, key in compiled.refs:
        if key not in (names if is_name else values):
            message = (UNDEFINED_NAME if is_name else UNDEFINED_VALUE).format(key)
            raise ValidationException(f"Invalid {param}: {message}")
    for check in compiled.checks:
        message = check if type(check) is str else check(names, values)
        if message:
            raise ValidationException(f"Invalid {param}: {message}")
    ctx.used_names.update(compiled.name_keys)
    ctx.used_values.update(compiled.value_keys)
    return compiled.build(names, values)


# --------------------------------------------------------------- the grammar

_KINDS = {"condition": "condition_", "update": "update_", "projection": "projection_"}


@dataclass(frozen=True, slots=True)
class NameRef:
    """``#name`` in a template path, substituted at parse time."""

    key: str


@dataclass(frozen=True, slots=True)
class ValueRef:
    """``:value`` in a template, substituted (as ``Value``) at parse time."""

    key: str


@dataclass(frozen=True, slots=True)
class Paren:
    """Parentheses in the raw tree, kept until the redundant-parentheses check."""

    inner: object


@dataclass(frozen=True, slots=True)
class Section:
    keyword: str  # SET, REMOVE, ADD, DELETE (upper case)
    actions: tuple


def _chain(node, cls) -> tuple:
    # An unparenthesised a AND b AND c is one And; (a AND b) AND c keeps its nesting.
    return node.operands if type(node) is cls else (node,)


class _Tree(Transformer):
    """Lark callbacks, run at each reduction: grammar rules → raw template nodes."""

    def projection_(self, c):
        return tuple(c)

    def condition_(self, c):
        return c[0]

    def update_(self, c):
        return tuple(c)

    def or_cond(self, c):
        return Or(_chain(c[0], Or) + (c[2],))

    def and_cond(self, c):
        return And(_chain(c[0], And) + (c[2],))

    def not_cond(self, c):
        return Not(c[1])

    def comparison(self, c):
        return Comparison(c[1], c[0], c[2])

    def comparator(self, c):
        return str(c[0])

    def in_cond(self, c):
        return In(c[0], tuple(c[2:]))

    def between(self, c):
        return Between(c[0], c[2], c[4])

    def paren_condition(self, c):
        return Paren(c[0])

    paren_operand = paren_function = paren_arithmetic = paren_condition

    def function(self, c):
        return Call(str(c[0]), tuple(c[1:]))

    def path(self, c):
        return Path(tuple(int(e) if isinstance(e, Token) else e for e in c))

    def name(self, c):
        token = c[0]
        return NameRef(str(token)) if token.type == "NAME" else str(token)

    def value(self, c):
        return ValueRef(str(c[0]))

    def arithmetic(self, c):
        return c[0] if len(c) == 1 else Arithmetic(str(c[1]), c[0], c[2])

    def set_action(self, c):
        return Set(c[0], c[1])

    def set_section(self, c):
        return Section("SET", tuple(c[1:]))

    def remove_section(self, c):
        return Section("REMOVE", tuple(Remove(path) for path in c[1:]))

    def add_section(self, c):
        return Section("ADD", tuple(Add(c[i], c[i + 1]) for i in range(1, len(c), 2)))

    def delete_section(self, c):
        return Section("DELETE", tuple(Delete(c[i], c[i + 1]) for i in range(1, len(c), 2)))


@functools.cache
def _lark() -> Lark:
    grammar = resources.files("partiql.grammar").joinpath("expressions.lark").read_text("utf-8")
    # A context-free ('basic') lexer, like DynamoDB's ANTLR lexer: "set" is SET everywhere.
    return Lark(grammar, parser="lalr", lexer="basic", start=list(_KINDS.values()),
                transformer=_Tree(), maybe_placeholders=False, cache=True)


def _tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) of every token, an unknown character being a token of its own (ANTLR's view)."""
    lark, out, offset = _lark(), [], 0
    while offset < len(text):
        try:
            for token in lark.lex(text[offset:]):
                out.append((offset + token.start_pos, offset + token.end_pos))
            break
        except UnexpectedCharacters as error:
            position = offset + error.pos_in_stream
            out.append((position, position + 1))
            offset = position + 1
    return out


def _syntax_message(text: str, error: UnexpectedInput) -> str:
    """DynamoDB's text: the offending token, and the text from the token before it to the one after."""
    tokens = _tokens(text)
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        index, shown = len(tokens), "<EOF>"
    else:
        start = error.token.start_pos if isinstance(error, UnexpectedToken) else error.pos_in_stream
        index = next(i for i, (s, _) in enumerate(tokens) if s == start)
        shown = text[tokens[index][0]:tokens[index][1]]
    begin = tokens[index - 1][0] if index > 0 else (tokens[index][0] if index < len(tokens) else len(text))
    # The "next" token may be EOF, whose text ends where the input ends (trailing blanks included).
    end = tokens[index + 1][1] if index + 1 < len(tokens) else len(text)
    return SYNTAX.format(shown, text[begin:end])


# -------------------------------------------------------------- compilation

@dataclass(frozen=True, slots=True)
class _Compiled:
    """One expression text, analysed: what substitution needs, per request."""

    error: str | None  # a text-only problem that outranks every placeholder problem
    refs: tuple = ()  # (is_name, key) in the order undefined placeholders are reported
    checks: tuple = ()  # messages and callables (names, values) -> message|None, best first
    build: object = None  # (names, values) -> model
    name_keys: frozenset = frozenset()
    value_keys: frozenset = frozenset()


@functools.lru_cache(maxsize=4096)
def _compiled(kind: str, text: str) -> _Compiled:
    """Parse and analyse ``text`` once; the result is shared by every request using it."""
    if not text:
        return _Compiled(EMPTY)
    size = len(checked_text(text).encode("utf-8"))
    if size > limits.MAX_EXPRESSION_BYTES:
        return _Compiled(TOO_LONG.format(size))
    try:
        raw = _lark().parse(text, start=_KINDS[kind])
    except UnexpectedInput as error:
        return _Compiled(_syntax_message(text, error))
    operators = _operator_count(raw)
    if operators > limits.MAX_EXPRESSION_OPERATORS:  # before the walks, which recurse once per nesting level
        return _Compiled(TOO_MANY_OPERATORS.format(operators))
    analysis = _Analysis(kind)
    template = _ANALYSERS[kind](analysis, raw)
    return analysis.result(template)


_OPERATORS = {And: lambda node: len(node.operands) - 1, Or: lambda node: len(node.operands) - 1}
_ONE_OPERATOR = (Not, Comparison, Between, In, Call, Arithmetic)
_OPERATORS.update((kind, lambda node: 1) for kind in _ONE_OPERATOR)
_LEAVES = (Path, ValueRef, str)


def _operator_count(raw) -> int:
    """Comparisons, BETWEEN, IN, AND, OR, NOT, functions, + and - (DG-ServiceQuotas), iteratively."""
    count, stack = 0, [raw]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is tuple:
            stack.extend(node)
        elif kind not in _LEAVES:
            count += _OPERATORS.get(kind, _no_operator)(node)
            stack.extend(getattr(node, slot) for slot in kind.__slots__)
    return count


def _no_operator(node) -> int:
    return 0


# Problem categories in the order DynamoDB reports them (item-api §3.7 last
# paragraph, dynalite's checkErrors). "undefined" is the placeholder check done
# per request; "operands" holds operand counts and "requires a document path"
# (§9.4 case 47 shows the latter beating distinct operands); "paths" reports any
# overlapping pair before any conflicting one. A tuple shares one rank.
# INF: the limits (LOCAL only) come right after syntax, where LOCAL's tree walk
# meets them; value parameters in paths (LOCAL only) right after reserved words;
# redundant parentheses come first in updates as in conditions.
_ORDERS = {
    "condition": ("limit", "parens", "function_name", "misused", "reserved", "value_in_path",
                  "undefined", "operands", "distinct", "function"),
    "update": ("limit", "parens", "reserved", "value_in_path", "function_name", "section",
               "undefined", "paths", "action_operand", ("operands", "function")),
    "projection": ("limit", "reserved", "value_in_path", "undefined", "paths"),
}


def _ranks(order) -> dict[str, int]:
    ranks = {}
    for rank, categories in enumerate(order):
        for category in (categories,) if isinstance(categories, str) else categories:
            ranks[category] = rank
    return ranks


_RANKS = {kind: _ranks(order) for kind, order in _ORDERS.items()}


class _Analysis:
    """The static walk over one raw tree: problems, placeholders, deferred checks, template."""

    def __init__(self, kind: str):
        self.kind = kind
        self.ranks = _RANKS[kind]
        self.problems: list[tuple[int, int, object]] = []  # (rank, sequence, message | check)
        self.refs: list[tuple[bool, str]] = []

    # ---- recording

    def flag(self, category: str, message: str) -> None:
        self.problems.append((self.ranks[category], len(self.problems), message))

    def defer(self, category: str, check, static: bool = False) -> None:
        """Record a check of the substitutes; a check that needs none runs now."""
        if static:
            message = check(_NO_ENTRIES, _NO_ENTRIES)
            if message:
                self.flag(category, message)
        else:
            self.problems.append((self.ranks[category], len(self.problems), check))

    def result(self, template) -> _Compiled:
        undefined = self.ranks["undefined"]
        problems = sorted(self.problems, key=lambda p: p[:2])
        if problems and problems[0][0] < undefined:
            return _Compiled(problems[0][2])
        refs = list(dict.fromkeys(self.refs))
        if self.kind == "update":  # every undefined name is reported before any value (DL)
            refs.sort(key=lambda ref: not ref[0])
        build = _builder(template)
        return _Compiled(None, tuple(refs), tuple(p[2] for p in problems), build,
                         frozenset(k for is_name, k in refs if is_name),
                         frozenset(k for is_name, k in refs if not is_name))

    # ---- paths and operands

    def path(self, path: Path) -> Path:
        reserved = reserved_words()
        for element in path.elements:
            kind = type(element)
            if kind is str:
                if element.upper() in reserved:
                    self.flag("reserved", RESERVED.format(element))
            elif kind is NameRef:
                self.refs.append((True, element.key))
            elif kind is ValueRef:
                self.flag("value_in_path", VALUE_IN_PATH.format(element.key))
            elif element > MAX_LIST_INDEX:
                self.flag("limit", INDEX_RANGE.format(element))
        if len(path.elements) > MAX_PATH_DEPTH:
            self.flag("limit", TOO_DEEP.format(len(path.elements)))
        return path

    def unparen(self, node):
        """The node inside parentheses; doubled parentheses are redundant."""
        while type(node) is Paren:
            if type(node.inner) is Paren:
                self.flag("parens", PARENS)
            node = node.inner
        return node

    def operand(self, node):
        node = self.unparen(node)
        kind = type(node)
        if kind is Path:
            return self.path(node)
        if kind is ValueRef:
            self.refs.append((False, node.key))
            return node
        return self.call(node, as_condition=False)

    def call(self, node: Call, as_condition: bool) -> Call:
        args = []
        for arg in node.args:  # a loop, not a generator: one frame less per nesting level
            args.append(self.operand(arg))
        args = tuple(args)
        call = Call(node.name, args)
        spec = FUNCTIONS.get(node.name)
        if spec is None:
            self.flag("function_name", UNKNOWN_FUNCTION.format(node.name))
            return call
        self._check_role(spec, as_condition)
        if len(args) != spec.arity:
            self.flag("operands", OPERAND_COUNT.format(node.name, len(args)))
            return call
        if self.kind == "condition" and len(args) > 1:
            self.distinct(node.name, args)
        for index in spec.path_args:
            if type(args[index]) is not Path:
                # DL: reported with the operand counts, before distinct operands (item-api §9.4 case 47).
                self.flag("operands", NEEDS_PATH.format(node.name))
        _FUNCTION_CHECKS.get(node.name, _no_check)(self, node.name, args)
        return call

    def _check_role(self, spec, as_condition: bool) -> None:
        """Where a known function may appear (item-api §3.7)."""
        if self.kind == "update":
            if spec.kind != "update":
                self.flag("function_name", NOT_IN_UPDATE.format(spec.name))
        elif spec.kind == "update":
            self.flag("function_name", NOT_IN_CONDITION.format(spec.name))
        elif (spec.kind == "value") == as_condition:  # size() as a condition, a boolean as an operand
            self.flag("misused", MISUSED.format(spec.name))

    # ---- operand checks

    def require(self, operator: str, operands, allowed, category: str = "function",
                message: str = OPERAND_TYPE, type_names=None) -> None:
        """Each value placeholder / nested call among ``operands`` must be of an ``allowed`` type."""
        for operand in operands:
            if type(operand) is ValueRef:
                self.defer(category, _type_check(operand.key, operator, allowed, message, type_names))
            elif type(operand) is Call:
                produced = RESULT_TYPES.get(operand.name)
                if produced is not None and produced not in allowed:
                    self.flag(category, message.format(operator, produced))

    def distinct(self, operator: str, operands) -> None:
        first = operands[0]
        others = [o for o in operands[1:] if type(o) is Path]
        if type(first) is Path and others:
            static = not any(type(e) is NameRef for p in (first, *others) for e in p.elements)
            self.defer("distinct", _distinct_check(operator, first, others), static)

    def clashes(self, paths) -> None:
        """Overlapping / conflicting paths of an update or a projection."""
        if len(paths) > 1:
            static = not any(type(e) is NameRef for p in paths for e in p.elements)
            self.defer("paths", _clash_check(paths), static)

    # ---- conditions

    def condition(self, node):
        node = self.unparen(node)
        return _CONDITIONS[type(node)](self, node)

    def logical(self, node):
        operands = []
        for operand in node.operands:
            operands.append(self.condition(operand))
        return type(node)(tuple(operands))

    def negation(self, node: Not) -> Not:
        return Not(self.condition(node.operand))

    def comparison(self, node: Comparison) -> Comparison:
        left, right = self.operand(node.left), self.operand(node.right)
        self.distinct(node.op, (left, right))
        if node.op in ORDERING_COMPARATORS:
            self.require(node.op, (left, right), ORDERED_TYPES)
        return Comparison(node.op, left, right)

    def between(self, node: Between) -> Between:
        subject, low, high = self.operand(node.subject), self.operand(node.low), self.operand(node.high)
        self.distinct("BETWEEN", (subject, low, high))  # INF: as for comparisons
        self.require("BETWEEN", (subject, low, high), ORDERED_TYPES)
        if type(low) is ValueRef and type(high) is ValueRef:
            self.defer("function", _bounds_check(low.key, high.key))
        return Between(subject, low, high)

    def in_(self, node: In) -> In:
        subject = self.operand(node.subject)
        candidates = tuple([self.operand(o) for o in node.candidates])
        if len(candidates) > limits.IN_MAX_OPERANDS:
            self.flag("limit", TOO_MANY_IN.format(len(candidates)))
        self.distinct("IN", (subject, *candidates))  # INF: as for comparisons
        return In(subject, candidates)

    def function_condition(self, node: Call) -> Call:
        return self.call(node, as_condition=True)

    # ---- updates

    def update(self, sections) -> Update:
        seen, actions = set(), []
        for section in sections:
            if section.keyword in seen:
                self.flag("section", SECTION_TWICE.format(section.keyword))
            seen.add(section.keyword)
            actions.extend(_ACTIONS[type(action)](self, action) for action in section.actions)
        self.clashes([action.path for action in actions])
        return Update(tuple(actions))

    def set_action(self, action: Set) -> Set:
        path = self.path(action.path)
        value = self.unparen(action.value)
        if type(value) is Arithmetic:
            value = self.arithmetic(value)
        else:
            value = self.operand(value)
        return Set(path, value)

    def arithmetic(self, node: Arithmetic) -> Arithmetic:
        left, right = self.operand(node.left), self.operand(node.right)
        self.require(node.op, (left, right), frozenset(("N",)))
        return Arithmetic(node.op, left, right)

    def remove_action(self, action: Remove) -> Remove:
        return Remove(self.path(action.path))

    def value_action(self, action):
        path = self.path(action.path)
        keyword = type(action).__name__.upper()
        self.refs.append((False, action.value.key))
        self.require(keyword, (action.value,), ACTION_TYPES[keyword], "action_operand", ACTION_TYPE,
                     LONG_TYPE_NAMES)
        return type(action)(path, action.value)

    # ---- projections

    def projection(self, paths) -> tuple:
        paths = tuple(self.path(path) for path in paths)
        self.clashes(paths)
        return paths


_CONDITIONS = {
    And: _Analysis.logical,
    Or: _Analysis.logical,
    Not: _Analysis.negation,
    Comparison: _Analysis.comparison,
    Between: _Analysis.between,
    In: _Analysis.in_,
    Call: _Analysis.function_condition,
}
_ACTIONS = {Set: _Analysis.set_action, Remove: _Analysis.remove_action,
            Add: _Analysis.value_action, Delete: _Analysis.value_action}
_ANALYSERS = {"condition": _Analysis.condition, "update": _Analysis.update,
              "projection": _Analysis.projection}


# ------------------------------------------------------ function-specific checks

def _no_check(analysis, name, args) -> None:
    pass


def _begins_with(analysis, name, args) -> None:
    analysis.require(name, args, frozenset(("S", "B")))


def _size(analysis, name, args) -> None:
    analysis.require(name, args, SIZED_TYPES)


def _attribute_type(analysis, name, args) -> None:
    # INF: a path as the type operand is left to run time (no static type to check).
    analysis.require(name, args[1:], frozenset(("S",)))
    if type(args[1]) is ValueRef:
        analysis.defer("function", _type_name_check(args[1].key))


def _list_append(analysis, name, args) -> None:
    analysis.require(name, args, frozenset(("L",)))


_FUNCTION_CHECKS = {"begins_with": _begins_with, "size": _size, "attribute_type": _attribute_type,
                    "list_append": _list_append}


# --------------------------------------------------- checks of the substitutes

def _type_check(key, operator, allowed, message, type_names=None):
    def check(names, values):
        type_ = type_of(values[key])
        if type_ not in allowed:
            return message.format(operator, type_names[type_] if type_names else type_)
        return None
    return check


def _type_name_check(key):
    def check(names, values):
        value = values[key]
        if type(value) is str and value not in VALID_TYPE_NAMES:
            return TYPE_NAME.format(value)
        return None
    return check


def _attribute_value(value) -> str:
    """``S:a`` as DynamoDB prints a bound in BETWEEN messages."""
    from ..types import to_wire  # wire text: numbers plain, binaries base64

    (tag, text), = to_wire(value).items()
    return f"{tag}:{text}"


def _bounds_check(low_key, high_key):
    def check(names, values):
        low, high = values[low_key], values[high_key]
        if type_of(low) != type_of(high):
            return BETWEEN_TYPES.format(_attribute_value(low), _attribute_value(high))
        if low > high:  # S, N, B only here: the type checks ran first
            return BETWEEN_ORDER.format(_attribute_value(low), _attribute_value(high))
        return None
    return check


def _resolve(path: Path, names) -> tuple:
    return tuple(names[e.key] if type(e) is NameRef else e for e in path.elements)


def render_path(elements) -> str:
    """``[a, [1], b]``: a path as DynamoDB prints it in messages."""
    return "[" + ", ".join(f"[{e}]" if type(e) is int else e for e in elements) + "]"


def _distinct_check(operator, first, others):
    def check(names, values):
        resolved = _resolve(first, names)
        if any(_resolve(other, names) == resolved for other in others):
            return DISTINCT.format(operator, render_path(resolved))
        return None
    return check


def _clash(one: tuple, two: tuple) -> str | None:
    """'overlap' when one path is a prefix of the other, 'conflict' on a key/index mismatch."""
    for a, b in zip(one, two):
        if a != b:
            return "conflict" if type(a) is not type(b) else None
    return "overlap"


def _clash_check(paths):
    """Any overlapping pair first, then any conflicting pair (DL: two categories, in that order)."""
    def check(names, values):
        resolved = [_resolve(path, names) for path in paths]
        if len({p[0] for p in resolved}) == len(resolved):  # all top-level names differ
            return None
        pairs = [(one, two) for i, one in enumerate(resolved) for two in resolved[i + 1:]]
        for wanted, message in (("overlap", OVERLAP), ("conflict", CONFLICT)):
            for one, two in pairs:
                if _clash(one, two) == wanted:
                    return message.format(render_path(one), render_path(two))
        return None
    return check


# ------------------------------------------------------------------ builders
# A template compiles into one Python function (names, values) -> model that
# builds, line by line, only the nodes holding placeholders; subtrees without
# placeholders are built once and shared (the model is immutable). Straight-line
# code, one node per line, so deep expressions need no deep recursion at run time.

class _Emitter:
    def __init__(self):
        self.lines: list[str] = []
        self.env: dict[str, object] = {"Path": Path, "Value": Value}

    def constant(self, obj) -> str:
        name = f"c{len(self.env)}"
        self.env[name] = obj
        return name

    def emit(self, expression: str) -> str:
        name = f"t{len(self.lines)}"
        self.lines.append(f"    {name} = {expression}")
        return name

    def node(self, node) -> tuple[str, bool]:
        """(Python name of the rebuilt node, whether it is a shared constant)."""
        kind = type(node)
        if kind is ValueRef:
            return self.emit(f"Value(values[{node.key!r}])"), False
        if kind is Path:
            if not any(type(e) is NameRef for e in node.elements):
                return self.constant(node), True
            elements = "".join(f"names[{e.key!r}], " if type(e) is NameRef else f"{e!r}, "
                               for e in node.elements)
            return self.emit(f"Path(({elements}))"), False
        if kind is tuple:
            parts = []
            for item in node:  # loops, not comprehensions: one frame less per nesting level
                parts.append(self.node(item))
            if all(constant for _, constant in parts):
                return self.constant(node), True
            return self.emit("(" + "".join(f"{name}, " for name, _ in parts) + ")"), False
        parts = []
        for slot in kind.__slots__:
            field = getattr(node, slot)
            parts.append((repr(field), True) if type(field) is str else self.node(field))
        if all(constant for _, constant in parts):
            return self.constant(node), True
        arguments = ", ".join(name for name, _ in parts)
        return self.emit(f"{self.constant(kind)}({arguments})"), False


def _builder(template):
    """The function (names, values) -> model node that substitutes ``template``'s placeholders."""
    emitter = _Emitter()
    result, constant = emitter.node(template)
    if constant:
        value = emitter.env[result]
        return lambda names, values: value
    source = "def build(names, values):\n" + "\n".join(emitter.lines) + f"\n    return {result}\n"
    exec(compile(source, "<expression builder>", "exec"), emitter.env)
    return emitter.env["build"]


# ------------------------------------------------------ KeyConditionExpression

def _flatten_and(condition):
    if type(condition) is not And:
        return condition
    flat = []
    for operand in condition.operands:
        operand = _flatten_and(operand)
        flat.extend(operand.operands if type(operand) is And else (operand,))
    return And(tuple(flat))


_KEY_OPERATORS = {Or: "OR", Not: "NOT", In: "IN"}


def check_key_condition(condition) -> None:
    """The structural rules of item-api §3.9 that need no table (prefixed ``Invalid KeyConditionExpression: ``).

    INF: checks run in passes — operators (pre-order), then size() anywhere,
    then each condition's operands, then keys used twice.
    """
    atoms = []
    _key_operators(condition, atoms)
    if any(_has_size(atom) for atom in atoms):
        _key_error(KEY_NESTED_OPERATION)
    seen = set()
    for atom in atoms:
        name = _key_attribute(atom)
        if name in seen:
            _key_error(KEY_TWICE)
        seen.add(name)


def _key_error(message: str):
    raise ValidationException(f"Invalid KeyConditionExpression: {message}")


def _key_operators(node, atoms: list) -> None:
    kind = type(node)
    if kind is And:
        for operand in node.operands:
            _key_operators(operand, atoms)
        return
    if kind in _KEY_OPERATORS:
        _key_error(KEY_OPERATOR.format(_KEY_OPERATORS[kind]))
    if kind is Comparison and node.op == "<>":
        _key_error(KEY_OPERATOR.format("<>"))
    if kind is Call and node.name != "begins_with":
        _key_error(KEY_OPERATOR.format(node.name))
    atoms.append(node)


def _has_size(node) -> bool:
    if type(node) is Call:
        return node.name == "size" or any(_has_size(arg) for arg in node.args)
    if type(node) is Comparison:
        return _has_size(node.left) or _has_size(node.right)
    if type(node) is Between:
        return any(_has_size(o) for o in (node.subject, node.low, node.high))
    return False


def _key_attribute(atom) -> str:
    """The key attribute one condition is on, after its structural checks."""
    operands = {Comparison: lambda n: (n.left, n.right),
                Between: lambda n: (n.subject, n.low, n.high),
                Call: lambda n: n.args}[type(atom)](atom)
    if type(atom) is not Comparison and type(operands[0]) is not Path:
        _key_error(KEY_FIRST_OPERAND.format("BETWEEN" if type(atom) is Between else atom.name))
    paths = [o for o in operands if type(o) is Path]
    if len(paths) > 1:
        _key_error(KEY_MULTIPLE_NAMES)
    if not paths:
        _key_error(KEY_NO_ATTRIBUTE)
    if not paths[0].is_top_level:
        _key_error(KEY_NESTED_PATH)
    return paths[0].name
