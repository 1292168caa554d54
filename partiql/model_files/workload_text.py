"""A ``Model`` as a workload for ``partiql simulate``: TOML text and one DynamoDB-JSON data file a table
(design-time.md §3.1's output).

Each CreateTable request is checked by creating it (DynamoDB's validation
and messages) and written as the shell's DDL; auto-scaling policies become
``[[autoscaling]]``, items ``[[data]] file = "<Table>.ddb.jsonl"``, access
patterns item-API ``[[pattern]]`` s. What the workload cannot hold (TTL,
patterns served elsewhere) is said in comments at its head.
"""

from __future__ import annotations

import json
from pathlib import Path

from .model import Model, ModelError


def ddl(model: Model, source: str) -> list:
    """The model's tables as CREATE TABLE statements (each created first in a scratch database: a request
    DynamoDB would refuse is a ModelError with DynamoDB's message)."""
    import partiql
    from partiql.engine.errors import DynamoDBError
    from partiql.schema import create_statement

    scratch = partiql.connect()
    out = []
    for request in model.tables:
        name = request.get("TableName")
        try:
            scratch.control("CreateTable", request)
        except DynamoDBError as error:
            raise ModelError(f"{source}: table {name}: {error.message}") from None
        out.append(create_statement(scratch.describe(name)).rstrip(";").split("\n-- ")[0])
    return out


def workload_files(model: Model, path, source: str, duration: int = 60, starters: bool = True) -> list:
    """Write the workload ``path`` and its data files beside it; the paths written. A model without access
    patterns gets a starter Query a table (``starters``), so that the workload runs."""
    path = Path(path)
    statements = ddl(model, source)
    lines = [f"# {model.name}: imported from {Path(source).name} ({model.kind}) by partiql model import"]
    lines += [f"# note: {note}" for note in model.notes]
    lines += [f"# note: {table} expires items by {attribute} (TTL): not simulated" for table, attribute in
              model.ttl.items()]
    lines += [f"# pattern {p.name} ({p.description}): {p.why}" for p in model.patterns if p.operation is None]
    lines += [f"duration = {duration}", "tables = ["] + [f'  """{statement}""",' for statement in statements] + ["]"]
    written = [path]
    for table, items in model.items.items():
        if not items:
            continue
        data = path.with_name(f"{table}.ddb.jsonl")
        data.write_text("".join(json.dumps({"Item": item}, separators=(",", ":")) + "\n" for item in items),
                        encoding="utf-8")
        written.append(data)
        lines += ["", "[[data]]", f"table = {_text(table)}", f"file = {_text(data.name)}"]
    for policy in model.policies:
        lines += ["", "[[autoscaling]]", f"table = {_text(policy.table)}"]
        lines += [f"index = {_text(policy.index)}"] if policy.index else []
        lines += [f'dimension = "{policy.dimension}"', f"min = {policy.min}", f"max = {policy.max}",
                  f"target = {policy.target:g}"]
    if starters and not any(pattern.operation for pattern in model.patterns):
        lines += _starters(model)
    for pattern in model.patterns:
        if pattern.operation is None:
            continue
        lines += ["", "[[pattern]]", f"name = {_text(pattern.name)}"]
        lines += [f"# {pattern.description}"] if pattern.description else []
        lines += [f'operation = "{pattern.operation}"', f"request = {_inline(pattern.request)}",
                  f"params = [{', '.join(pattern.params)}]", f"rate = {pattern.rate:g}"]
        lines += ["scan = true"] if pattern.operation == "Scan" else []
    for resource, (count, size) in model.sizes.items():  # (tables first: TOML wants [cost.table.T] before its index)
        table, _, index = resource.partition(".")
        lines += ["", f"[cost.table.{_text(table)}" + (f".index.{_text(index)}]" if index else "]"),
                  f"items = {_inline(count)}", f"item_bytes = {_inline(size)}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


# a starter pattern's partition-key values when the table has no item to draw them from
UNSEEDED = {"S": '{ uniform = 1000, prefix = "key#" }', "N": "{ uniform = 1000 }"}


def _starters(model: Model) -> list:
    """A Query on each table's partition key at 1 a second: the model has no access pattern, and a workload
    needs one (the file says to write its own)."""
    from partiql.schema import name as quoted

    lines = ["", "# The model has no access pattern: a Query a second on each table's partition key is a starting",
             "# point. Write the application's patterns here (see examples/WORKLOADS.md)."]
    for table in model.tables:
        key = next(k["AttributeName"] for k in table["KeySchema"] if k["KeyType"] == "HASH")
        kind = next(d["AttributeType"] for d in table["AttributeDefinitions"] if d["AttributeName"] == key)
        held = any(key in item for item in model.items.get(table["TableName"], []))
        draw = f'{{ item = "{table["TableName"]}.{key}" }}' if held else UNSEEDED.get(kind)
        if draw is None:
            continue
        statement = f"SELECT * FROM {quoted(table['TableName'])} WHERE {quoted(key)} = ?"
        lines += ["", "[[pattern]]", f"name = {_text('query-' + table['TableName'])}",
                  f"statement = {_text(statement)}", f"params = [{draw}]", "rate = 1"]
    return lines


def _text(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def _inline(value) -> str:
    """A JSON value as a TOML inline value."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_text(key)} = {_inline(member)}" for key, member in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(member) for member in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(int(value)) if value == int(value) else repr(value)
    return _text(value)
