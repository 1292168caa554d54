"""The catalog and statement tools of ``partiql mcp``: list_tables, describe_table, schema, explain, execute,
search_vectors, create_table, import_items (``registry.tool``; ``design_tools`` has the design-time ones).

Each answers an ``Answer``: the text the shell would print, and the same as data — items in DynamoDB JSON
(lossless: sets, binary and numbers keep their types), capacity as numbers. ``desk.Desk`` calls them.
"""

from __future__ import annotations

import json

from partiql.arguments import exact
from partiql.engine.errors import DynamoDBError
from partiql.engine.limits import TRANSACT_MAX_ITEMS
from partiql.engine.wire_values import item_to_wire

from .answers import Answer, ToolError, error_words, plain
from .registry import tool

MAX_ITEMS = 100            # items a result shows unless the call asks for more ...
MAX_ITEMS_ASKED = 1_000    # ... up to this
MAX_STATEMENTS = TRANSACT_MAX_ITEMS  # a transaction's most; a batch's (25) is DynamoDB's own check, its words
MAX_IMPORT_ITEMS = 1_000   # items one import_items call carries inline
MAX_IMPORT_BYTES = 64 * 1024 * 1024  # the largest file import_items reads


# ----------------------------------------------------------------------------------------- the catalog

def _table_summary(description: dict) -> dict:
    return {"name": description["TableName"], "status": description.get("TableStatus"),
            "key": description["KeySchema"], "attributes": description.get("AttributeDefinitions", []),
            "indexes": [index["IndexName"] for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes")
                        for index in description.get(member) or []],
            "items": description.get("ItemCount", 0)}


@tool("list_tables", "The tables of the database: each one's key, indexes and item count.")
def list_tables(desk, arguments: dict) -> Answer:
    from partiql.shell.explain import render_tables

    descriptions = [desk.db.describe(name) for name in desk.db.table_names()]
    return Answer(render_tables(descriptions) if descriptions else "(no tables)",
                  {"tables": [_table_summary(d) for d in descriptions]})


TABLE = {"type": "string", "minLength": 1, "description": "the table's name"}


@tool("describe_table", "A table as DynamoDB describes it, with what partiql-ddb adds: its partitions (hash "
      "ranges, items, size), how its items spread over partition-key values (skewed ones flagged), and design "
      "advice.", {"table": TABLE}, ("table",))
def describe_table(desk, arguments: dict) -> Answer:
    from partiql.shell.explain import render_description, spread_lines

    name = arguments["table"]
    description, layout = desk.db.describe(name), desk.db.layout(name)
    public = {member: value for member, value in description.items() if member != "Partitions"}
    partitions = [{"partition": p["Partition"], "key_hash_range": [str(bound) for bound in p["KeyHashRange"]],
                   "items": p["ItemCount"], "bytes": p["SizeBytes"]} for p in layout["partitions"]]
    spread = [{"index": index, "values": values, "items": items, "largest": plain(largest), "largest_items": most}
              for index, (values, items, largest, most) in layout["key_spread"].items()]
    return Answer(render_description(description, layout),
                  plain({"table": public, "partitions": partitions, "key_spread": spread,
                         "key_spread_notes": spread_lines(layout["key_spread"]), "advice": layout["advice"]}))


SCHEMA_FORMATS = ("ddl", "json", "workbench")


@tool("schema", "The statements that recreate the tables (ddl: CREATE TABLE in partiql-ddb's DDL), or "
      "DynamoDB's CreateTable requests (json), or a NoSQL Workbench model (workbench).",
      {"table": dict(TABLE, description="one table (default: every table)"),
       "format": {"enum": list(SCHEMA_FORMATS), "default": "ddl"}})
def schema(desk, arguments: dict) -> Answer:
    from partiql.schema import create_request, create_statement

    names = [arguments["table"]] if "table" in arguments else desk.db.table_names()
    shape = arguments.get("format", "ddl")
    if shape == "workbench":
        from partiql.shell.model import export_model

        document, notes = export_model(desk.db, names, 0, names[0] if len(names) == 1 else "schema")
        return Answer(json.dumps(document, indent=2, ensure_ascii=False), {"model": document, "notes": notes})
    descriptions = [desk.db.describe(name) for name in names]
    if shape == "json":
        requests = [create_request(d) for d in descriptions]
        return Answer(json.dumps(requests, indent=2), {"create_table_requests": requests})
    statements = [create_statement(d) for d in descriptions]
    return Answer("\n\n".join(statements) or "(no tables)", {"statements": statements})


# ---------------------------------------------------------------------------------------- statements

STATEMENT = {"type": "string", "minLength": 1, "description": "one PartiQL statement (DynamoDB's dialect; ? marks "
             "a parameter)"}
PARAMETERS = {"type": "array", "description": "values for the ? marks, in order, as JSON: text is a string (S), "
              "numbers N, true/false BOOL, null NULL, arrays L, objects M (sets and binary: write literals)"}


@tool("explain", "How a statement would run, without running it: the DynamoDB request(s) it lowers to (GetItem, "
      "Query, or a flagged full Scan), the access path, the capacity estimate, what DynamoDB's PartiQL would "
      "refuse, and hints (an index that would serve it, a key it nearly pins).",
      {"statement": STATEMENT, "parameters": PARAMETERS}, ("statement",))
def explain(desk, arguments: dict) -> Answer:
    from partiql import hints
    from partiql.shell.explain import render_plan

    statement, parameters = arguments["statement"], exact(arguments.get("parameters"))
    plan = desk.db.explain(statement, parameters)
    found = hints.for_plan(desk.db, statement, parameters or [], plan)
    text = render_plan(plan) + "".join(f"\nhint: {hint}" for hint in found)
    return Answer(text, plain({"access_path": plan.access_path, "kind": plan.kind, "table": plan.table,
                               "index": plan.index, "full_table_scan": plan.full_table_scan,
                               "capacity_estimate": plan.capacity_estimate, "refused": plan.refused,
                               "realism": list(plan.realism), "requests": plan.requests, "hints": found}))


@tool("execute", "Run a statement (one page of its result: next_token reads on), or a batch of statements "
      "(BatchExecuteStatement), or with transaction true an ExecuteTransaction. Every result says its access "
      "path and the capacity it consumed. Full Scans follow the server's scan policy (deny unless its starter "
      "chose otherwise); a read-only server runs only reads.",
      {"statement": STATEMENT, "parameters": PARAMETERS,
       "statements": {"type": "array", "minItems": 1, "maxItems": MAX_STATEMENTS, "items": {
           "type": "object", "properties": {"statement": STATEMENT, "parameters": PARAMETERS},
           "required": ["statement"], "additionalProperties": False}},
       "transaction": {"type": "boolean", "description": "run statements as one transaction"},
       "limit": {"type": "integer", "minimum": 1, "description": "DynamoDB's Limit: items evaluated per page"},
       "next_token": {"type": "string", "minLength": 1},
       "consistent_read": {"type": "boolean"},
       "max_items": {"type": "integer", "minimum": 1, "maximum": MAX_ITEMS_ASKED,
                     "description": f"items shown at most (default {MAX_ITEMS})"}}, destructive=True)
def execute(desk, arguments: dict) -> Answer:
    if ("statement" in arguments) == ("statements" in arguments):
        raise ToolError("execute: give statement (one), or statements (a batch; with transaction true, a "
                        "transaction) — one of the two")
    if "statement" not in arguments:
        return _several(desk, arguments)
    for member in ("transaction",):
        if member in arguments:
            raise ToolError(f"execute: {member} goes with statements, not with one statement")
    desk.refuse_writes([arguments["statement"]])
    result = desk.db.execute(arguments["statement"], exact(arguments.get("parameters")),
                             limit=arguments.get("limit"),
                             next_token=arguments.get("next_token"),
                             consistent_read=arguments.get("consistent_read", False))
    return _result_answer(result, arguments.get("max_items", MAX_ITEMS))


def _several(desk, arguments: dict) -> Answer:
    for member in ("parameters", "limit", "next_token", "consistent_read"):
        if member in arguments:
            raise ToolError(f"execute: {member} goes with one statement; in statements each has its parameters")
    entries = arguments["statements"]
    desk.refuse_writes([entry["statement"] for entry in entries])
    pairs = [(entry["statement"], exact(entry.get("parameters"))) for entry in entries]
    shown = arguments.get("max_items", MAX_ITEMS)
    if arguments.get("transaction"):
        try:
            results = desk.db.execute_transaction(pairs)
        except DynamoDBError as error:
            raise ToolError(f"execute: the transaction was not run: {error_words(error, scan=desk.scan)}"
                            + "".join(f"\n  statement {n}: {reason.code}: {reason.message}"
                                      for n, reason in enumerate(getattr(error, "reasons", None) or [], 1)
                                      if reason.code != "None")) from None
        answers = [_result_answer(result, shown) for result in results]
    else:
        answers = [_result_answer(result, shown) if not isinstance(result, DynamoDBError)
                   else Answer(f"error: {error_words(result, entry[0], desk.scan)}", {"error": {"code": result.code,
                                                                          "message": result.message}})
                   for result, entry in zip(desk.db.execute_batch(pairs), pairs)]
    kind = "transaction" if arguments.get("transaction") else "batch"
    text = "\n\n".join(f"statement {n}: {answer.text}" for n, answer in enumerate(answers, 1))
    return Answer(f"{kind} of {len(answers)} statements\n{text}", {kind: [answer.data for answer in answers]})


def _result_answer(result, shown: int) -> Answer:
    from partiql.shell.formatting import render_items
    from partiql.shell.status import capacity_text

    plan = result.plan
    items = result.items[:shown]
    lines = []
    if items:
        lines.append(render_items(items, "jsonl", []))
    if len(result.items) > shown:
        lines.append(f"… {len(result.items) - shown:,} more items not shown (max_items {shown}; a key condition, "
                     "a projection or a Limit narrows the result)")
    what = plan.access_path if plan is not None else "done"
    status = f"{len(result.items):,} item{'s' * (len(result.items) != 1)} · {what} · " \
             f"{capacity_text(result.consumed_capacity)}"
    if result.next_token:
        status += " · more: call again with next_token"
    lines += [status] + [f"warning: {warning}" for warning in result.warnings]
    if result.message:
        lines.insert(0, result.message)
    capacity = result.consumed_capacity
    return Answer("\n".join(lines), plain({
        "items": [item_to_wire(item) for item in items], "count": len(result.items), "shown": len(items),
        "access_path": what, "full_table_scan": bool(plan and plan.full_table_scan),
        "consumed_capacity": {"total": capacity.total, "read_units": capacity.read_units,
                              "write_units": capacity.write_units, "table": capacity.table,
                              "indexes": capacity.indexes},
        "next_token": result.next_token, "warnings": list(result.warnings), "message": result.message}))


@tool("search_vectors", "SearchVectors on a vector index: the top items nearest a query vector (or the vector of "
      "the item whose key is like), inside one HASH value and filtered by the SearchSchema values of where; "
      "scores (COSINE and EUCLIDEAN: lower is closer; DOT_PRODUCT: higher) and the bytes examined. With explain "
      "true, what it would score and cost, without searching.",
      {"table": TABLE, "index": {"type": "string", "minLength": 1, "description": "a vector index of the table"},
       "vector": {"type": "array", "minItems": 1, "maxItems": 4096, "items": {"type": "number"}},
       "like": {"description": "an item's key: its partition-key value, or an object of its key attributes"},
       "top": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
       "where": {"type": "object", "description": "SearchSchema attribute -> the value it must equal"},
       "project": {"type": "array", "items": {"type": "string", "minLength": 1}},
       "explain": {"type": "boolean"}}, ("table", "index"))
def search_vectors(desk, arguments: dict) -> Answer:
    from partiql.vector_search import preview, preview_text, search, search_request

    engine = _local_engine(desk, "search_vectors")
    request = search_request(engine, arguments["table"], arguments["index"], arguments.get("vector"),
                             like=arguments.get("like"), top=arguments.get("top", 10), where=arguments.get("where"),
                             project=arguments.get("project"))
    if arguments.get("explain"):
        found = preview(engine, request)
        return Answer(preview_text(found), plain(found))
    results, examined = search(engine, request)
    lines = [json.dumps(plain(result), ensure_ascii=False) for result in results]
    lines.append(f"{len(results)} result{'s' * (len(results) != 1)} · SearchVectors on {arguments['table']}."
                 f"{arguments['index']} · {examined:,.0f} bytes examined (VectorSearchRequestBytes)")
    return Answer("\n".join(lines), plain({"results": results, "vector_search_request_bytes": examined}))


def _local_engine(desk, name: str):
    if desk.db.remote:
        raise ToolError(f"{name}: works on a local database (this server runs on {desk.db.where})")
    return desk.db.engine


# ------------------------------------------------------------------------------------------ writing

@tool("create_table", "Create a table from partiql-ddb's DDL (CREATE TABLE name PRIMARY KEY (…) [BILLING MODE …] "
      "[GSI (…)] [LSI (…)]; the dialect resource has the syntax). Answers the new table's description.",
      {"statement": dict(STATEMENT, description="a CREATE TABLE statement")}, ("statement",), writes=True)
def create_table(desk, arguments: dict) -> Answer:
    statement = arguments["statement"]
    if statement.split(None, 1)[0].upper() != "CREATE":
        raise ToolError("create_table: the statement must be a CREATE TABLE (execute runs the others)")
    result = desk.db.execute(statement)
    name = result.plan.table if result.plan is not None and result.plan.table else None
    found = describe_table(desk, {"table": name}) if name in desk.db.table_names() else None
    text = (result.message or "created") + ("\n" + found.text if found else "")
    return Answer(text, {"message": result.message, **(found.data if found else {})})


@tool("import_items", f"Load items into a table: up to {MAX_IMPORT_ITEMS:,} given inline (plain JSON objects, or "
      "DynamoDB JSON with dynamodb_json true), or a local file (JSON lines, DynamoDB JSON lines or CSV; format "
      "from its name unless given). Bad rows are named with their line; nothing is half-written unless "
      "continue_on_error skips them.",
      {"table": TABLE,
       "items": {"type": "array", "minItems": 1, "maxItems": MAX_IMPORT_ITEMS, "items": {"type": "object"}},
       "dynamodb_json": {"type": "boolean"},
       "path": {"type": "string", "minLength": 1, "description": "a local file to read"},
       "format": {"enum": ["jsonl", "json", "ddb-json", "csv"]},
       "continue_on_error": {"type": "boolean"}}, ("table",), writes=True)
def import_items(desk, arguments: dict) -> Answer:
    import os
    import tempfile

    if ("items" in arguments) == ("path" in arguments):
        raise ToolError("import_items: give items (inline) or path (a file) — one of the two")
    options = {"continue_on_error": arguments.get("continue_on_error", False)}
    if "path" in arguments:
        if "dynamodb_json" in arguments:
            raise ToolError("import_items: dynamodb_json goes with items; a file's format says it")
        size = os.path.getsize(arguments["path"])
        if size > MAX_IMPORT_BYTES:
            raise ToolError(f"import_items: {arguments['path']} is {size:,} bytes; this tool reads files up to "
                            f"{MAX_IMPORT_BYTES:,} (partiql DATABASE import FILE TABLE reads any size)")
        report = desk.db.import_items(arguments["table"], arguments["path"], arguments.get("format"), **options)
    else:
        if "format" in arguments:
            raise ToolError("import_items: format goes with path; inline items are JSON (dynamodb_json true: "
                            "DynamoDB JSON)")
        lossless = arguments.get("dynamodb_json", False)
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "items.jsonl")
            with open(path, "w", encoding="utf-8") as file:
                for item in arguments["items"]:
                    file.write(json.dumps({"Item": item} if lossless else item) + "\n")
            try:
                report = desk.db.import_items(arguments["table"], path, "ddb-json" if lossless else "json", **options)
            except ValueError as error:  # (TransferError: its rows' lines are the items' numbers)
                raise ToolError(f"import_items: {str(error).replace(path, 'the items given')}") from None
            report.path = "the items given"
    return Answer(str(report), {"table": report.table, "rows": report.rows, "imported": report.imported,
                                "replaced": report.replaced, "write_units": report.write_units,
                                "errors": [{"line": line, "reason": reason} for line, reason in report.errors]})


