"""The catalog-free rejections DynamoDB's translator makes after parsing (spec §1, §8.2).

``check_statement`` runs every check that needs no table: unsupported
clauses and projections, aliases, FROM shapes, writes aimed at an index,
RETURNING forms, function names/arity/arguments, operators out of place,
list subscripts, and the conversion of every literal (numbers, bags, tuples,
nesting). It raises ``StatementError`` (a ValidationException) with the
service's exact text, adding ` at L:C:N` where the service does. What needs
the catalog (keys, indexes, ORDER BY on keys) is the planner's.
"""

from __future__ import annotations

from typing import Callable, Optional

from partiql.engine.limits import IN_MAX_OPERANDS

from . import ast, ast_walk, shell_ast
from .errors import StatementError
from .literals import anchor, is_literal, map_pairs, to_value, unsupported

_MAX_INDEX = 2**31 - 1

_CONDITION_FUNCTIONS = {  # name -> number of operands; the first must be a path
    "attribute_exists": 1,
    "attribute_not_exists": 1,
    "attribute_type": 2,
    "begins_with": 2,
    "contains": 2,
    "size": 1,
}
_BOOLEAN_NODES = (ast.Comparison, ast.Between, ast.In, ast.Like, ast.Is, ast.And, ast.Or, ast.Not)
_IS_TYPES = frozenset("MISSING NULL BOOL BOOLEAN BLOB STRING NUMERIC STRUCT TUPLE LIST".split())
_IS_SUPPORTED = "[MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]"
_UPDATE_OPERATORS = frozenset("+-")


TOO_DEEP = "Statement is nested too deeply"
# INF: thousands of nested operators fit in 8,192 characters; the service's
# recursive parser cannot take them either (its limit and text are unknown).
# 300 levels is DynamoDB's expression limit (300 operators); every later stage
# (checks, planner, binding, the engine's compiled conditions) recurses about
# twice per level, well inside Python's 1,000 frames.
MAX_STATEMENT_DEPTH = 300


def check_statement(stmt: ast.Statement) -> None:
    """Raise DynamoDB's ValidationException for anything refused without a catalog."""
    if ast_walk.depth(stmt) > MAX_STATEMENT_DEPTH:
        raise StatementError(TOO_DEEP)
    _STATEMENT_CHECKS.get(type(stmt), _nothing)(stmt)


def projected_name(path: ast.Path) -> str:
    """The top-level name DynamoDB returns a projected path under: its last named
    component plus any list subscripts after it (`m.k[1]` -> `k[1]`)."""
    steps = path.steps
    if type(steps[-1]) is ast.Attr:  # (the usual projection: a name)
        return steps[-1].name
    last = max(i for i, step in enumerate(steps) if isinstance(step, ast.Attr))
    return steps[last].name + "".join(f"[{s.value}]" for s in steps[last + 1:])


def _nothing(stmt) -> None:
    """Statements with no catalog-free rule (the shell's DDL)."""


# ---------------------------------------------------------------- paths and tables

_WILDCARDS = {
    ".*": "Unpivot path component like a.*.b are not supported",
    "[*]": "Wildcard path component like a[*].b are not supported",
}


def _step(step: ast.Step) -> None:
    # INF: a subscript that is no integer (`l[1.5]`) gets the range message too.
    if isinstance(step, ast.Index):
        if step.value is None or not 0 <= step.value <= _MAX_INDEX:
            raise StatementError.at(f"List index is not within the allowable range; index: [{step.text}]",
                                    step.span)
    elif isinstance(step, ast.Wildcard):
        raise StatementError.near(_WILDCARDS[step.kind], step.span)
    elif step.name == "":
        # INF: DynamoDB has no empty attribute names; reuse its FROM-clause wording.
        raise StatementError.near("Path component cannot be an empty string", step.span)


def _path(path: ast.Path) -> None:
    for step in path.steps:
        _step(step)


def _table(ref: ast.TableRef, index_message: str) -> None:
    if len(ref.names) > 2:
        raise StatementError.near("A path may contain at most 2 components in the FROM clause", ref.span)
    if "" in ref.names:
        raise StatementError.near("Path component cannot be an empty string", ref.span)
    if ref.index is not None and index_message:
        raise StatementError.near(index_message, ref.span)


def _returning(returning: Optional[ast.Returning]) -> None:
    if returning is None:
        return
    if len(returning.elems) > 1:
        raise StatementError.near("Invalid syntax with multiple returning elements in RETURNING clause",
                                  returning.span)
    if not isinstance(returning.elems[0].target, ast.Star):
        raise StatementError.near("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause",
                                  returning.span)


# ---------------------------------------------------------------- conditions (WHERE)

def _is_boolean(node: ast.Node) -> bool:
    # why: any call but size() may be a boolean function; unknown names are
    # then reported as `Unrecognized function` rather than as a non-boolean.
    if isinstance(node, ast.Call):
        return node.name.lower() != "size"
    return isinstance(node, _BOOLEAN_NODES)


def _where(where: Optional[ast.Expr]) -> None:
    if where is None:
        return
    if not _is_boolean(where):
        raise StatementError.near("WHERE clause must contain an expression that resolves to a boolean",
                                  where.span)
    _condition(where)


def _condition(node: ast.Expr) -> None:
    check = _CONDITION_CHECKS.get(type(node))
    if check is None:
        raise unsupported(node, "root")  # INF: e.g. a `*` argument where a value is due
    check(node)


def _logical(node) -> None:
    for side in (node.left, node.right):
        if not _is_boolean(side):
            raise StatementError.near("The arguments to AND/OR must be Expressions", side.span)
        _condition(side)


def _not(node: ast.Not) -> None:
    if not _is_boolean(node.operand):
        raise StatementError.near("The argument to NOT must be a Type or Expression", node.operand.span)
    _condition(node.operand)


def _comparison(node: ast.Comparison) -> None:
    _operand(node.left)
    _operand(node.right)


def _between(node: ast.Between) -> None:
    for operand in (node.operand, node.low, node.high):
        _operand(operand)


def _in(node: ast.In) -> None:
    _operand(node.operand)
    if not node.items:
        raise StatementError.near(
            "IN operator must have a left hand argument of type Variable Reference and right hand "
            "argument of type Seq with at least one member", node.span)
    if len(node.items) > IN_MAX_OPERANDS:
        raise StatementError.near(
            f"The IN operator is provided with too many operands; number of operands: {len(node.items)}",
            node.span)
    for item in node.items:
        _operand(item)


def _unsupported_condition_operator(op: str, span: ast.Span) -> StatementError:
    return StatementError.near(f"Unsupported operator in Condition Expression. Operator: {op}", span)


def _like(node: ast.Like) -> None:
    # INF: LIKE parses in PartiQL but is no DynamoDB condition operator.
    raise _unsupported_condition_operator("like", node.span)


def _is(node: ast.Is) -> None:
    if not isinstance(node.operand, ast.Path) and not is_literal(node.operand) \
            and not isinstance(node.operand, ast.Parameter):
        raise StatementError.near(
            "The left hand side argument to IS must be a Variable Reference, Literal, or Path",
            node.operand.span)
    if node.type_name not in _IS_TYPES:
        # INF: <T> is the type name as written, upper-cased (`IS int` -> INT).
        raise StatementError.near(
            f"Unsupported data type for IS operator: {node.type_name}. Supported data types are "
            f"{_IS_SUPPORTED}", node.type_span)
    _operand(node.operand)


def _condition_call(call: ast.Call) -> None:
    name = call.name.lower()
    arity = _CONDITION_FUNCTIONS.get(name)
    if arity is None:
        # why: exists(), set_add(), list_append(), if_not_exists() ... are no condition functions (A13).
        raise StatementError.at(f"Unrecognized function: {name}", call.name_span)
    if len(call.args) != arity:
        raise StatementError.near("Incorrect number of operands for operator or function; operator or "
                                  f"function: {name}, number of operands: {len(call.args)}", call.span)
    if not isinstance(call.args[0], ast.Path):
        raise StatementError.near(
            f"Operator or function requires a document path; operator or function: {name}", call.span)
    _path(call.args[0])
    for arg in call.args[1:]:
        _operand(arg)


def _operand(node: ast.Node) -> None:
    """A value position of a condition: path, literal, `?`, function call or predicate."""
    check = _OPERAND_CHECKS.get(type(node))
    if check is not None:
        check(node)
    elif is_literal(node):
        to_value(node)
    else:
        _condition(node)


def _unary_in_condition(node: ast.Unary) -> None:
    # INF: a sign on a path or `?` is refused (FL order 13); the wording is the translator's.
    raise _unsupported_condition_operator(node.op, node.span)


def _binary_in_condition(node: ast.Binary) -> None:
    raise _unsupported_condition_operator(node.op, node.op_span)


_OPERAND_CHECKS: dict[type, Callable] = {
    ast.Path: _path,
    ast.Parameter: lambda node: None,
    ast.Call: _condition_call,
    ast.Unary: _unary_in_condition,
    ast.Binary: _binary_in_condition,
}

_CONDITION_CHECKS: dict[type, Callable] = {
    ast.And: _logical,
    ast.Or: _logical,
    ast.Not: _not,
    ast.Comparison: _comparison,
    ast.Between: _between,
    ast.In: _in,
    ast.Like: _like,
    ast.Is: _is,
    ast.Call: _condition_call,
    # a non-boolean where a predicate is due is reported by its parent; as an
    # operand of a predicate it is a value again:
    **{t: _operand for t in (ast.Path, ast.Parameter, ast.Unary, ast.Binary)},
}


# ---------------------------------------------------------------- SET right-hand sides

def _unsupported_update_operator(op: str, span: ast.Span) -> StatementError:
    return StatementError.near(f"Unsupported operator in Update Expression. Operator: {op}", span)


def _path_key(path: ast.Path) -> tuple:
    """A path's identity, spans aside."""
    return tuple((type(s), getattr(s, "name", None), getattr(s, "value", None)) for s in path.steps)


def _set_function(call: ast.Call, target: ast.Path) -> None:
    label = call.name.upper()
    if len(call.args) != 2:
        raise StatementError.at(f"{label} must have exactly two arguments", call.name_span)
    first, second = call.args
    if not isinstance(first, ast.Path) or _path_key(first) != _path_key(target):
        raise StatementError.at(f"The first argument to {label} must equal the assignment value",
                                call.name_span)
    if not isinstance(second, (ast.BagLit, ast.Parameter)):
        # why: DynamoDB points at the first argument here, not the second.
        raise StatementError.at(f"The second argument to {label} must be a value with type SET",
                                anchor(first))
    _update_operand(second)


def _list_append(call: ast.Call, target: ast.Path) -> None:
    if len(call.args) != 2:
        raise StatementError.near("Incorrect number of operands for operator or function; operator or "
                                  f"function: list_append, number of operands: {len(call.args)}", call.span)
    for arg in call.args:
        _update_operand(arg)


_UPDATE_FUNCTIONS = {"set_add": _set_function, "set_delete": _set_function, "list_append": _list_append}


def _assignment(action: ast.SetAction) -> None:
    _path(action.target)
    value = action.value
    if isinstance(value, ast.Call):
        check = _UPDATE_FUNCTIONS.get(value.name.lower())
        if check is None:
            raise StatementError.at(f"Unrecognized function: {value.name.lower()}", value.name_span)
        check(value, action.target)
    else:
        _update_operand(value)


def _update_operand(node: ast.Node) -> None:
    """An operand of a SET right-hand side (after any top-level function)."""
    if isinstance(node, ast.Binary):
        if node.op not in _UPDATE_OPERATORS:
            raise _unsupported_update_operator(node.op, node.op_span)
        _update_operand(node.left)
        _update_operand(node.right)
    elif isinstance(node, ast.Path):
        _path(node)
    elif isinstance(node, ast.Call):
        if node.name.lower() != "list_append":
            # INF: set_add/set_delete only make a whole right-hand side.
            raise StatementError.at(f"Unrecognized function: {node.name.lower()}", node.name_span)
        _list_append(node, None)
    elif isinstance(node, ast.Is):
        raise StatementError.near("IS operator is not supported in update expressions", node.span)
    elif is_literal(node):
        to_value(node)
    elif not isinstance(node, ast.Parameter):
        raise _unsupported_update_operator(_operator_name(node), anchor(node))


def _operator_name(node: ast.Node) -> str:
    """INF: the operator named when a predicate or sign appears in a SET right-hand side."""
    return getattr(node, "op", None) or type(node).__name__.upper()


def _remove(action: ast.RemoveAction) -> None:
    _path(action.path)


_ACTION_CHECKS = {ast.SetAction: _assignment, ast.RemoveAction: _remove}


# ---------------------------------------------------------------- statements

def _projection(select: ast.Select) -> None:
    projection = select.projection
    if not isinstance(projection, ast.ProjectList):
        raise StatementError.near("Select projection doesn't support value or pivot keywords",
                                  projection.span)
    if select.quantifier == "DISTINCT":
        raise StatementError.near("Unsupported token in expression: DISTINCT", select.quantifier_span)


def _projection_items(items: tuple) -> None:
    if len(items) > 1 and any(isinstance(i, ast.ProjectStar) for i in items):
        raise StatementError.near("Other attributes should not be present in the projection when '*' is "
                                  "used.", items[0].span)
    seen = set()
    for item in items:
        if isinstance(item, ast.ProjectStar):
            continue
        _projection_item(item)
        name = projected_name(item.expr)
        if name in seen:
            raise StatementError.near(f"Duplicate identifiers in select clause: {name}", item.span)
        seen.add(name)


def _projection_item(item: ast.ProjectItem) -> None:
    if item.alias is not None:
        raise StatementError.near("Aliasing is not supported", item.alias.span)
    expr = item.expr
    if not isinstance(expr, ast.Path):
        raise StatementError.at("Unexpected path component", anchor(expr))
    last = expr.steps[-1]
    if isinstance(last, ast.Wildcard) and last.kind == ".*":
        raise StatementError.near("Changing item's hierarchy while reading isn't supported", last.span)
    _path(expr)


def _source(source: ast.FromSource) -> None:
    alias = source.alias or source.at_alias or source.by_alias
    if alias is not None:
        raise StatementError.near("Aliasing is not supported", alias.span)
    target = source.target
    if isinstance(target, ast.ListLit):
        raise StatementError.near("Invalid list expression in source.", target.span)
    if not isinstance(target, ast.TableRef):
        raise StatementError.near("Unexpected from source", target.span)
    _table(target, "")


def _select(select: ast.Select) -> None:
    _projection(select)
    # INF: the spec allows a position suffix here ("possibly"); we give the keyword's.
    for clause in select.clauses:
        raise StatementError.at(f"Unsupported clause: {clause.name}", clause.keyword_span)
    if len(select.sources) > 1:
        raise StatementError.near("Only select from a single table or index is supported.",
                                  select.sources[1].span)
    _source(select.sources[0])
    _projection_items(select.projection.items)
    _where(select.where)


def _insert(insert: ast.Insert) -> None:
    if not insert.value_keyword:
        # INF: of the two texts known (§2.4), the shared one; DynamoDB Local says `InsertOp`.
        raise StatementError.near(
            'Unsupported operation: Inserting multiple items in a single statement is not supported, '
            'use "INSERT INTO tableName VALUE item" instead', insert.value.span)
    _table(insert.table, "FROM clause may only contain a single table name in data manipulation statements")
    if insert.on_conflict is not None:
        raise StatementError.at("Unsupported clause: ON CONFLICT", insert.on_conflict.keyword_span)
    if insert.returning is not None:
        raise StatementError.near("RETURNING is not supported in INSERT", insert.returning.span)
    if not isinstance(insert.value, ast.TupleLit):
        raise StatementError.near("Unsupported format in item expression. Please use struct format {...} "
                                  "to express item values for insert statement.", insert.value.span)
    for _, pair in map_pairs(insert.value):
        if is_literal(pair.value):
            to_value(pair.value)
        elif not isinstance(pair.value, ast.Parameter):
            raise unsupported(pair.value, "root")


_ON_INDEX = "This operation is not supported on an index"


def _update(update: ast.Update) -> None:
    _table(update.table, _ON_INDEX)
    for action in update.actions:
        _ACTION_CHECKS[type(action)](action)
    _where(update.where)
    _returning(update.returning)


def _delete(delete: ast.Delete) -> None:
    _table(delete.table, _ON_INDEX)
    _where(delete.where)
    _returning(delete.returning)
    if delete.returning is not None:
        elem = delete.returning.elems[0]
        if (elem.status, elem.age) != ("ALL", "OLD"):
            raise StatementError.near(f"Invalid returning clause: RETURNING {elem.status} {elem.age} *. "
                                      "Only RETURNING ALL OLD * is allowed in DELETE statements.",
                                      delete.returning.span)


_STATEMENT_CHECKS: dict[type, Callable] = {
    ast.Select: _select,
    ast.Insert: _insert,
    ast.Update: _update,
    ast.Delete: _delete,
    ast.Exists: lambda stmt: _select(stmt.select),
    shell_ast.Explain: lambda stmt: check_statement(stmt.statement),
}
