"""``partiql model import FILE [DATABASE] [--workload OUT] [--costs FILE]`` and ``partiql model export DATABASE
[--output FILE] [--items N]``: data models drawn elsewhere, in and out (design-time.md §3).

``import`` reads a NoSQL Workbench model or the AWS DynamoDB MCP server's
``dynamodb_data_model.json`` (``--costs``: the MCP server's cost input, for
the patterns' rates): into DATABASE it creates the tables (DynamoDB's
validation), writes the items and turns Time to Live on; ``--workload OUT``
writes a ``partiql simulate`` workload with one data file a table. Either or
both. Everything kept aside (facets, unknown members, skipped items, auto
scaling a database cannot hold) is listed. ``export`` writes DATABASE's
tables and up to N items each as a Workbench 3.0 model (JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from partiql.cli_help import WordWrap

PROGRAM = "partiql model"
BATCH = 25           # items a BatchWriteItem
EXPORTED_ITEMS = 25  # items of each table an export holds by default (a model's sample data)


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(prog=PROGRAM, formatter_class=WordWrap,
                                    description="Data models in and out: NoSQL Workbench models and the AWS "
                                    "DynamoDB MCP server's dynamodb_data_model.json.")
    verbs = found.add_subparsers(dest="verb", required=True, metavar="import | export")
    bring = verbs.add_parser("import", formatter_class=WordWrap, help="read a model into a database or a workload",
                             description="Read a NoSQL Workbench model or an MCP server data model: create its "
                             "tables and items in DATABASE, write it as a simulate workload, or both.")
    bring.add_argument("model", metavar="FILE", help="the model (JSON)")
    bring.add_argument("database", metavar="DATABASE", nargs="?", help="a database file to create the tables in")
    bring.add_argument("--workload", metavar="OUT", help="write a partiql simulate workload (TOML) and its data "
                       "files beside it")
    bring.add_argument("--costs", metavar="FILE", help="the MCP server's cost input: the patterns' rates")
    out = verbs.add_parser("export", formatter_class=WordWrap, help="write a database's tables as a Workbench model",
                           description="Write DATABASE's tables, and up to N items each, as a NoSQL Workbench "
                           "3.0 model.")
    out.add_argument("database", metavar="DATABASE", help="the database file")
    out.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    out.add_argument("--items", type=int, default=EXPORTED_ITEMS, metavar="N",
                     help=f"items of each table (default {EXPORTED_ITEMS}; 0 for none)")
    return found


def main(argv: list) -> int:
    from partiql.engine.errors import DynamoDBError
    from partiql.engine.storage import StorageError
    from partiql.model_files import ModelError

    args = parser().parse_args(argv)
    try:
        if args.verb == "import":
            return _import(args)
        return _export(args)
    except (ModelError, StorageError) as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
    except OSError as error:  # (a file not there: its name and why, not Python's tuple)
        said = f"{error.filename}: {error.strerror}" if error.filename and error.strerror else str(error)
        print(f"{PROGRAM}: {said}", file=sys.stderr)
    except DynamoDBError as error:
        print(f"{PROGRAM}: {error.code}: {error.message}", file=sys.stderr)
    return 1


def _import(args) -> int:
    from partiql.model_files import read_model
    from partiql.model_files.workload_text import workload_files

    if args.database is None and args.workload is None:
        print(f"{PROGRAM} import: say where: a DATABASE file, --workload OUT, or both", file=sys.stderr)
        return 2
    model = read_model(args.model, args.costs)
    said = [f"{args.model}: {model.kind} model {model.name}: {len(model.tables)} table(s), "
            f"{sum(len(items) for items in model.items.values()):,} item(s), "
            f"{sum(1 for p in model.patterns if p.operation):,} access pattern(s)"]
    if args.workload is not None:
        written = workload_files(model, args.workload, args.model)
        said.append("wrote " + ", ".join(str(path) for path in written))
    if args.database is not None:
        said += into_database(model, args.database, args.model)
    print("\n".join(said + [f"note: {note}" for note in model.notes]), file=sys.stderr)
    return 0


def into_database(model, database: str, source: str) -> list:
    """Create the model's tables in ``database``, write its items, turn its TTL on; what was done."""
    import partiql
    from partiql.engine.errors import DynamoDBError
    from partiql.engine.requests.wire import wire_call
    from partiql.model_files import ModelError
    from partiql.model_files.workload_text import ddl

    ddl(model, source)  # (every table checked before the database is touched: nothing half-made)
    db = partiql.connect(database)
    try:
        clash = sorted({t["TableName"] for t in model.tables} & set(db.table_names()))
        if clash:
            raise ModelError(f"{database} already has {', '.join(clash)}: nothing was imported")
        said = []
        for request in model.tables:
            db.control("CreateTable", request)
        for table, items in model.items.items():
            for start in range(0, len(items), BATCH):
                try:
                    wire_call(db.engine, "BatchWriteItem", {"RequestItems": {table: [
                        {"PutRequest": {"Item": item}} for item in items[start:start + BATCH]]}})
                except DynamoDBError as error:
                    raise ModelError(f"{source}: an item of {table} (among {start + 1}–"
                                     f"{min(start + BATCH, len(items))}) was refused: {error.message}") from None
            said.append(f"{table}: {len(items):,} item(s) written to {database}")
        for table, attribute in model.ttl.items():
            db.control("UpdateTimeToLive", {"TableName": table, "TimeToLiveSpecification": {
                "Enabled": True, "AttributeName": attribute}})
        if model.policies:
            said.append(f"{len(model.policies)} auto-scaling polic{'y' if len(model.policies) == 1 else 'ies'} kept "
                        "aside: a database holds none (--workload writes them as [[autoscaling]])")
        return said
    finally:
        db.close()


def _export(args) -> int:
    import partiql

    if args.items < 0:
        print(f"{PROGRAM} export: --items takes a number >= 0", file=sys.stderr)
        return 2
    db = partiql.connect(args.database, read_only=True)
    try:
        document, notes = export_model(db, db.table_names(), args.items, Path(args.database).stem)
    finally:
        db.close()
    text = json.dumps(document, indent=2, ensure_ascii=False)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    return 0


def export_model(db, tables: list, items: int, name: str) -> tuple:
    """(the Workbench model of ``tables`` with up to ``items`` items each, what it could not say)."""
    from partiql.engine.types import from_python
    from partiql.engine.wire_values import item_to_wire
    from partiql.model_files import workbench
    from partiql.schema import name as quoted

    held = {}
    for table in tables:
        found = []
        if items:
            for page in db.pages(f"SELECT * FROM {quoted(table)}"):
                found += [item_to_wire(from_python(item)) for item in page.items]
                if len(found) >= items:
                    break
        held[table] = found[:items]
    return workbench.export([db.describe(table) for table in tables], held, name)
