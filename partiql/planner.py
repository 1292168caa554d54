"""Statement → plan template: bind to the catalog, validate, choose the access path.

A template is built once per statement text and catalog version and holds
model trees whose ``?`` are still ``Param`` nodes; ``partiql.executor``
binds the parameter values and runs it. Everything that can be refused
without the values is refused here, before any effect, in DynamoDB's order
(spec §8.3): catalog-free checks, table and index resolution, key and
decomposition rules, ORDER BY, index projections.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from partiql.engine.errors import ResourceNotFoundException, ValidationException
from partiql.engine.expressions import model as m
from partiql.engine.schema import IndexSpec, KeySchema
from partiql.engine.vectors.messages import SCAN_REFUSED as VECTOR_INDEX_READ

from . import ast, ast_walk, shell_ast, vector_ddl
from .access import Analysis, analyse
from .api_only import multi_attribute_source, refused_select
from .checks import check_statement, projected_name
from .errors import StatementError
from .conditions import Param, action, condition, ordered_params, path
from .literals import is_literal, item_fields

NOT_FOUND = "Requested resource not found"
NO_KEY = "Where clause does not contain a mandatory equality on all key attributes"


# ------------------------------------------------------------------ templates

@dataclass
class SelectTemplate:
    table: str
    index: IndexSpec | None
    key: KeySchema  # the source's key schema (table or index)
    table_key: KeySchema
    where: object  # model condition with Params, or None
    analysis: Analysis
    projection: tuple | None  # ((flat name, model Path), …) or None for *
    order: tuple = ()  # ((attribute, descending), …)
    reach_back: bool = False
    ordered: tuple = ()  # ordering comparisons' `?` (conditions.ordered_params)
    # Refusals found while planning that DynamoDB reports only after the
    # value-dependent key checks (spec §3.1 step 10, §8.3 steps 5-6): the
    # executor raises the first of them once the keys have passed.
    deferred: tuple = ()

    @property
    def index_name(self) -> str | None:
        return None if self.index is None else self.index.name


@dataclass
class InsertTemplate:
    table: str
    key: KeySchema
    item: ast.TupleLit
    parameter_names: tuple = ()  # attributes whose value is a top-level `?`
    fields: tuple = ()  # (attribute, value or Param) in source order, literals converted once


@dataclass
class WriteTemplate:
    """UPDATE or DELETE of one item: key operands, actions, the residual condition."""

    kind: str  # 'Update' or 'Delete'
    table: str
    key: KeySchema
    key_operands: dict  # attribute -> tuple of operands (all must agree)
    update: object = None  # model Update with Params
    condition: object = None  # residual WHERE (model, with Params) or None
    returning: tuple | None = None  # (status, age): ('ALL'|'MODIFIED', 'OLD'|'NEW')
    ordered: tuple = ()  # the condition's ordering comparisons' `?` (conditions.ordered_params)


@dataclass
class ExistsTemplate:
    table: str
    key: KeySchema
    key_operands: dict
    condition: object


@dataclass
class TableTemplate:
    """A shell DDL statement: a control-plane operation and its request."""

    operation: str
    request: dict = field(default_factory=dict)
    if_exists: bool = False  # DROP TABLE IF EXISTS / CREATE TABLE IF NOT EXISTS


@dataclass
class ExplainTemplate:
    statement: object  # another template


# -------------------------------------------------------------------- entry

def plan(stmt: ast.Statement, catalog) -> object:
    """The template of a parsed statement; ``catalog`` maps table names to engine tables."""
    # DynamoDB refuses a read of a multi-attribute GSI ahead of the statement's WHERE, COUNT(*) and key
    # checks (multi-attribute-keys.md §10 rule 5)
    if multi_attribute_source(stmt, catalog) is not None:
        raise ValidationException(MULTI_ATTRIBUTE_INDEX)
    check_statement(stmt)
    builder = _BUILDERS.get(type(stmt))
    if builder is None:
        raise ValidationException(f"Unsupported operation: {type(stmt).__name__}")
    return builder(stmt, catalog)


def _table(catalog, name: str):
    table = catalog.get(name)
    if table is None:
        raise ResourceNotFoundException(NOT_FOUND)
    return table


def _walk_where(where, names) -> tuple:
    """One walk of a WHERE, before it is lowered: refuse a path into a key attribute (DynamoDB
    reports it before the lowering's errors), and find the `?` ordering operators compare."""
    ordered = []
    for node in ast_walk.walk(where) if where is not None else ():
        if isinstance(node, ast.Path):
            if len(node.steps) > 1 and node.root.name in names:
                raise ValidationException("Key attributes must be scalars; list random access '[]' and map "
                                          f"lookup '.' are not allowed: Key {node.root.name}")
        else:
            ordered.extend(ordered_params(node))
    return tuple(ordered)


# -------------------------------------------------------------------- SELECT

# DynamoDB refuses every PartiQL read of a multi-attribute GSI, whatever its table (multi-attribute-keys.md §10).
MULTI_ATTRIBUTE_INDEX = ("PartiQL statements cannot be executed on tables with multi-attribute HASH keys or "
                         "multi-attribute RANGE keys.")


def _select(stmt: ast.Select, catalog) -> SelectTemplate:
    ref = stmt.sources[0].target
    table = _table(catalog, ref.table)
    index = None
    if ref.index is not None:
        index = table.spec.index(ref.index)
        if index is None and table.spec.vector(ref.index) is not None:  # (vector-search.md §8: recorded)
            raise ValidationException(VECTOR_INDEX_READ)
        if index is None:
            raise ValidationException("The table does not have the specified index")
    key = table.spec.key if index is None else index.key
    ordered = _walk_where(stmt.where, set(key.names) | set(table.spec.key.names))
    where = condition(stmt.where) if stmt.where is not None else None
    analysis = analyse(where, key)
    projection = _projection(stmt.projection)
    template = SelectTemplate(table.name, index, key, table.spec.key, where, analysis, projection,
                              ordered=ordered)
    deferred = []
    for check in _LATE_CHECKS:
        try:
            check(stmt, template)
        except ValidationException as error:
            deferred.append(error.message)
    template.deferred = tuple(deferred)
    return template


def _projection(projection: ast.ProjectList):
    if any(isinstance(item, ast.ProjectStar) for item in projection.items):
        return None
    return tuple((projected_name(item.expr), path(item.expr)) for item in projection.items)


def _order_by(stmt: ast.Select, template: SelectTemplate) -> None:
    """ORDER BY rules that need no values (several partition values: the executor's)."""
    if not stmt.order_by:
        return
    if stmt.where is None:
        raise ValidationException("Must have WHERE clause in the statement when using ORDER BY clause.")
    if template.analysis.scan:
        raise ValidationException("Must have at least one non-optional hash key condition in WHERE clause "
                                  "when using ORDER BY clause.")
    order = []
    for item in stmt.order_by:
        expr = item.expr
        if not (isinstance(expr, ast.Path) and len(expr.steps) == 1):
            raise ValidationException(
                f"Argument to ORDER BY must be of type VariableReference. Type: {_ast_type(expr)}")
        name = expr.root.name
        if name not in template.key.names:
            raise ValidationException(
                f"Variable reference {name} in ORDER BY clause must be part of the primary key")
        order.append((name, item.direction == "DESC"))
    template.order = tuple(order)


# INF: the type names follow partiql-lang-kotlin's expression nodes.
_AST_TYPES = {ast.Path: "Path", ast.Call: "NAry", ast.Binary: "NAry", ast.Unary: "NAry",
              ast.Parameter: "Parameter"}


def _ast_type(expr) -> str:
    return "Literal" if is_literal(expr) else _AST_TYPES.get(type(expr), "NAry")


def _check_index_projection(stmt: ast.Select, template: SelectTemplate) -> None:
    index = template.index
    if index is None:
        return
    projected = index.projected_names(template.table_key)
    if projected is None:
        return
    if template.projection is not None:
        missing = [p.name for _, p in template.projection if p.name not in projected]
        if missing and index.is_global:
            raise ValidationException(
                "One or more parameter values were invalid: Global secondary index "
                f"{index.name} does not project [{', '.join(missing)}]")
        template.reach_back = bool(missing)
    if not template.analysis.scan and template.where is not None:
        outside = [name for name in _filter_names(template) if name not in projected]
        if outside:
            raise ValidationException(
                f"One or more parameter values were invalid: Secondary index {index.name} does not "
                f"project one or more filter attributes: [{', '.join(outside)}]")


# Checked in this order; their refusals are deferred (see SelectTemplate.deferred).
_LATE_CHECKS = (_order_by, _check_index_projection)


def _filter_names(template: SelectTemplate) -> list[str]:
    names = []
    for branch in template.analysis.branches:
        for atom in branch.residual:
            for name in _paths(atom):
                if name not in names:
                    names.append(name)
    return names


def _paths(node):
    if isinstance(node, m.Path):
        yield node.name
    elif isinstance(node, tuple):
        for child in node:
            yield from _paths(child)
    elif not isinstance(node, (m.Value, Param, str, int)) and node is not None:
        for slot in getattr(type(node), "__slots__", ()):
            yield from _paths(getattr(node, slot))


# ---------------------------------------------------------------- INSERT

def _insert(stmt: ast.Insert, catalog) -> InsertTemplate:
    table = _table(catalog, stmt.table.table)
    names = tuple(pair.key.value for pair in stmt.value.pairs if isinstance(pair.value, ast.Parameter))
    # Literals are converted once; a stored item may share them because the
    # engine never changes a value in place.
    fields = item_fields(stmt.value, lambda parameter: Param(parameter.index, parameter.span))
    return InsertTemplate(table.name, table.spec.key, stmt.value, names, fields)


# ---------------------------------------------------------- UPDATE / DELETE

def _key_equalities(where, key: KeySchema) -> tuple[dict, list]:
    """Key attribute → equality operands, and the other top-level conjuncts."""
    operands = {name: [] for name in key.names}
    rest = []
    for atom in m.conjuncts(where):
        name = _key_equality(atom, key)
        if name is None:
            rest.append(atom)
        else:
            operands[name[0]].append(name[1])
    if any(not found for found in operands.values()):
        raise ValidationException(NO_KEY)
    for name, found in operands.items():
        literals = [o for o in found if isinstance(o, m.Value)]
        if any(o != literals[0] for o in literals[1:]):
            raise ValidationException(f"Multiple conditions on same key {name}. Only single item "
                                      "Update/Insert/Delete are supported")
    return {name: tuple(found) for name, found in operands.items()}, rest


def _key_equality(atom, key: KeySchema):
    if not (isinstance(atom, m.Comparison) and atom.op == "="):
        return None
    for subject, value in ((atom.left, atom.right), (atom.right, atom.left)):
        if (isinstance(subject, m.Path) and subject.is_top_level and subject.name in key.names
                and isinstance(value, (m.Value, Param))):
            return subject.name, value
    return None


def _check_keys_not_updated(actions, key: KeySchema) -> None:
    for lowered in actions:
        if lowered.path.name in key.names:
            raise ValidationException("One or more parameter values were invalid: Cannot update attribute "
                                      f"{lowered.path.name}. This attribute is part of the key")


def _returning(returning) -> tuple | None:
    if returning is None:
        return None
    elem = returning.elems[0]
    return elem.status, elem.age


def _write(kind: str, stmt, catalog) -> WriteTemplate:
    table = _table(catalog, stmt.table.table)
    key = table.spec.key
    if stmt.where is None:
        raise ValidationException(NO_KEY)
    # why: key equalities compare with `=`, so all the WHERE's ordered `?` are the residual's
    ordered = _walk_where(stmt.where, key.names)
    where = condition(stmt.where)
    key_operands, rest = _key_equalities(where, key)
    residual = m.conjunction(rest)
    template = WriteTemplate(kind, table.name, key, key_operands, condition=residual,
                             returning=_returning(stmt.returning), ordered=ordered)
    if kind == "Update":
        actions = tuple(action(node) for node in stmt.actions)
        _check_keys_not_updated(actions, key)
        template.update = m.Update(actions)
    return template


def _update(stmt: ast.Update, catalog) -> WriteTemplate:
    return _write("Update", stmt, catalog)


def _delete(stmt: ast.Delete, catalog) -> WriteTemplate:
    return _write("Delete", stmt, catalog)


def _exists(stmt: ast.Exists, catalog) -> ExistsTemplate:
    select = stmt.select
    ref = select.sources[0].target
    if ref.index is not None:
        raise ValidationException("Operations on indices are not supported in transactions")
    table = _table(catalog, ref.table)
    key = table.spec.key
    if select.where is None:
        raise ValidationException("EXISTS() must contain a single item read with additional condition")
    where = condition(select.where)
    try:
        key_operands, rest = _key_equalities(where, key)
    except ValidationException:
        raise ValidationException("EXISTS() must contain a single item read with additional condition") from None
    if not rest:
        raise ValidationException("EXISTS() must contain a single item read with additional condition")
    return ExistsTemplate(table.name, key, key_operands, m.conjunction(rest))


# ------------------------------------------------------------------- DDL

def _key_schema(elements) -> list[dict]:
    return [{"AttributeName": e.name, "KeyType": e.key_type} for e in elements]


def _throughput(throughput) -> dict:
    return {"ReadCapacityUnits": throughput.read, "WriteCapacityUnits": throughput.write}


def _billing(request: dict, billing) -> None:
    if billing is None or billing.mode == "PAY_PER_REQUEST":
        request["BillingMode"] = "PAY_PER_REQUEST"
    else:
        request["BillingMode"] = "PROVISIONED"
        request["ProvisionedThroughput"] = _throughput(billing.throughput)


def _index_request(index: shell_ast.IndexDef) -> dict:
    projection = {"ProjectionType": index.projection.type}
    if index.projection.type == "INCLUDE":
        projection["NonKeyAttributes"] = list(index.projection.attributes)
    out = {"IndexName": index.name, "KeySchema": _key_schema(index.key), "Projection": projection}
    if index.throughput is not None:
        out["ProvisionedThroughput"] = _throughput(index.throughput)
    return out


TYPE_WORDS = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}


def _key_types(elements, known: dict, where: str) -> dict:
    """name -> type of key elements: the element's own type (``Total NUMBER RANGE``) or ``known``'s.

    Never guessed: an element with neither is refused, as is one typed two ways.
    """
    types = {}
    for element in elements:
        defined = known.get(element.name)
        if element.type is not None and defined is not None and element.type != defined:
            raise StatementError.near(f"{element.name} is {TYPE_WORDS[defined]} {where}; it cannot be keyed as "
                                      f"{TYPE_WORDS[element.type]}", element.span)
        kind = element.type or defined
        if kind is None:
            raise StatementError.near(
                f"{element.name} has no type: give it in the key, as in ({element.name} STRING "
                f"{element.key_type}) (STRING, NUMBER or BINARY), or among the table's attributes", element.span)
        types[element.name] = kind
    return types


def _create_table(stmt: shell_ast.CreateTable, catalog) -> TableTemplate:
    declared = {a.name: a.type for a in stmt.attributes}
    types = dict(declared)
    for elements in (stmt.key, *(index.key for index in stmt.indexes)):
        types.update(_key_types(elements, types, "in this table"))
    types.update((name, kind) for name, kind in vector_ddl.schema_types(stmt.vectors).items() if name not in types)
    request = {"TableName": stmt.name,
               "AttributeDefinitions": [{"AttributeName": name, "AttributeType": kind}
                                        for name, kind in types.items()],
               "KeySchema": _key_schema(stmt.key)}
    _billing(request, stmt.billing)
    if stmt.stream is not None:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stmt.stream.view_type}
    for kind, member in (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes")):
        indexes = [_index_request(i) for i in stmt.indexes if i.kind == kind]
        if indexes:
            request[member] = indexes
    if stmt.vectors:
        request["VectorIndexes"] = [vector_ddl.index_request(index) for index in stmt.vectors]
    return TableTemplate("CreateTable", request, if_exists=stmt.if_not_exists)


def _drop_table(stmt: shell_ast.DropTable, catalog) -> TableTemplate:
    return TableTemplate("DeleteTable", {"TableName": stmt.name}, if_exists=stmt.if_exists)


def _alter_billing(stmt: shell_ast.AlterBilling, catalog) -> TableTemplate:
    request = {"TableName": stmt.table}
    _billing(request, stmt.billing)
    return TableTemplate("UpdateTable", request)


def _alter_stream(stmt: shell_ast.AlterStream, catalog) -> TableTemplate:
    spec = ({"StreamEnabled": False} if stmt.stream is None
            else {"StreamEnabled": True, "StreamViewType": stmt.stream.view_type})
    return TableTemplate("UpdateTable", {"TableName": stmt.table, "StreamSpecification": spec})


def _create_index(stmt: shell_ast.CreateIndex, catalog) -> TableTemplate:
    table = _table(catalog, stmt.table)
    create = _index_request(stmt.index)
    types = _key_types(stmt.index.key, table.spec.attribute_types, f"in {stmt.table}")
    definitions = [{"AttributeName": name, "AttributeType": kind} for name, kind in types.items()]
    return TableTemplate("UpdateTable", {"TableName": stmt.table, "AttributeDefinitions": definitions,
                                         "GlobalSecondaryIndexUpdates": [{"Create": create}]})


def _drop_index(stmt: shell_ast.DropIndex, catalog) -> TableTemplate:
    return TableTemplate("UpdateTable", {"TableName": stmt.table,
                                         "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": stmt.index}}]})


def _describe(stmt: shell_ast.DescribeTable, catalog) -> TableTemplate:
    return TableTemplate("DescribeTable", {"TableName": stmt.name})


def _show(stmt: shell_ast.ShowTables, catalog) -> TableTemplate:
    return TableTemplate("ListTables", {})


def _explain(stmt: shell_ast.Explain, catalog) -> ExplainTemplate:
    refused = refused_select(stmt.statement, catalog, MULTI_ATTRIBUTE_INDEX)
    return ExplainTemplate(refused if refused is not None else plan(stmt.statement, catalog))


_BUILDERS = {
    ast.Select: _select, ast.Insert: _insert, ast.Update: _update, ast.Delete: _delete,
    ast.Exists: _exists, shell_ast.CreateTable: _create_table, shell_ast.DropTable: _drop_table,
    shell_ast.AlterBilling: _alter_billing, shell_ast.AlterStream: _alter_stream,
    shell_ast.CreateIndex: _create_index, shell_ast.DropIndex: _drop_index,
    shell_ast.CreateVectorIndex: lambda stmt, catalog: TableTemplate("UpdateTable", vector_ddl.create_request(stmt)),
    shell_ast.DropVectorIndex: lambda stmt, catalog: TableTemplate("UpdateTable", vector_ddl.drop_request(stmt)),
    shell_ast.DescribeTable: _describe, shell_ast.ShowTables: _show, shell_ast.Explain: _explain,
}
