"""The AWS DynamoDB MCP server's ``dynamodb_data_model.json`` (and its cost input): read into a ``Model``
(design-time.md §3.2).

``tables`` are boto3 ``create_table`` arguments, taken as they are but for
``TimeToLiveSpecification`` (UpdateTimeToLive's, kept apart); ``items`` are
``PutRequest`` s; each access pattern's ``implementation`` — one AWS CLI command
— becomes an item-API request: ``aws dynamodb <op>`` names the operation, each
``--kebab-option`` its PascalCase member, JSON values parsed, ``--x`` /
``--no-x`` true / false. A literal key would replay one key at the pattern's
rate and make it hot, so every value of a key attribute (in ``Key``, ``Item``,
and the expression values the key condition binds to the table's or the
index's keys) becomes a ``?`` drawn from the imported items
(``{ item = "<Table>.<attr>" }``). Rates come from the cost input's ``rps``
for the same pattern id, else 1 a second (said). A pattern with a ``reason``
is served elsewhere: listed, not run.
"""

from __future__ import annotations

import json
import re
import shlex

from .model import Access, Model, ModelError, expect

OPERATIONS = {"get-item": "GetItem", "put-item": "PutItem", "update-item": "UpdateItem", "delete-item": "DeleteItem",
              "query": "Query", "scan": "Scan", "batch-get-item": "BatchGetItem", "batch-write-item": "BatchWriteItem",
              "transact-get-items": "TransactGetItems", "transact-write-items": "TransactWriteItems"}
# the AWS CLI's own options, not the operation's members
CLI_OPTIONS = {"output", "region", "endpoint-url", "profile", "no-paginate", "max-items", "page-size",
               "starting-token", "query", "debug", "no-cli-pager", "cli-binary-format", "color", "no-verify-ssl",
               "cli-read-timeout", "cli-connect-timeout", "generate-cli-skeleton", "cli-input-json",
               "cli-input-yaml"}
MEMBER_WORDS = {"sse": "SSE", "arn": "Arn", "gsi": "GSI"}


def read(document: dict, source: str, costs=None) -> Model:
    """The MCP server data model ``document``; ``costs`` (its cost input, parsed) gives the patterns' rates."""
    model = Model("dynamodb_data_model", "AWS DynamoDB MCP server")
    model.notes += [f"kept aside: {name} (not a member of the MCP server's data model)"
                    for name in document if name not in ("tables", "items", "access_patterns")]
    for n, table in enumerate(expect(document.get("tables", []), list, f"{source}: tables", "a list of tables")):
        _table(model, expect(table, dict, f"{source}: tables[{n}]", "a create_table argument"),
               f"{source}: tables[{n}]")
    _items(model, expect(document.get("items", {}), dict, f"{source}: items", "table name -> PutRequests"), source)
    rates = _rates(costs, source)
    _sizes(model, costs, source)
    keys = {table["TableName"]: table for table in model.tables}
    ids = set()
    for n, pattern in enumerate(expect(document.get("access_patterns", []), list, f"{source}: access_patterns",
                                       "a list of access patterns")):
        where = f"{source}: access_patterns[{n}]"
        pattern = expect(pattern, dict, where, "an access pattern")
        ident = str(pattern.get("pattern", n + 1))
        ids.add(ident)
        model.patterns.append(_pattern(pattern, ident, where, keys, model, rates))
    model.notes += [f"pattern {ident} ({entry.get('description', '')}): cost only (the cost input has it, the "
                    "model has no implementation)" for ident, entry in rates.items() if ident not in ids]
    return model


def _table(model: Model, table: dict, where: str) -> None:
    table = dict(table)
    name = expect(table.get("TableName"), str, f"{where}.TableName", "the table's name")
    ttl = table.pop("TimeToLiveSpecification", None)
    if isinstance(ttl, dict) and ttl.get("Enabled") and isinstance(ttl.get("AttributeName"), str):
        model.ttl[name] = ttl["AttributeName"]
    model.tables.append(table)


def _items(model: Model, items: dict, source: str) -> None:
    for table, requests in items.items():
        place = f"{source}: items.{table}"
        found = model.items.setdefault(table, [])
        for n, request in enumerate(expect(requests, list, place, "a list of PutRequests")):
            item = request.get("PutRequest", {}).get("Item") if isinstance(request, dict) else None
            if not isinstance(item, dict) or not isinstance(request.get("PutRequest"), dict):
                model.notes.append(f"{place}[{n}]: skipped, not a {{\"PutRequest\": {{\"Item\": …}}}}")
                continue
            found.append(item)


def _rates(costs, source: str) -> dict:
    """pattern id -> its cost-input entry (for ``rps``)."""
    if costs is None:
        return {}
    entries = expect(costs.get("access_pattern_list", []) if isinstance(costs, dict) else costs, list,
                     f"{source} (costs): access_pattern_list", "a list of access patterns")
    out = {}
    for n, entry in enumerate(entries):
        entry = expect(entry, dict, f"{source} (costs): access_pattern_list[{n}]", "an access pattern")
        rps = entry.get("rps")
        if isinstance(rps, bool) or not isinstance(rps, (int, float)) or rps <= 0:
            raise ModelError(f"{source} (costs): access_pattern_list[{n}].rps takes requests a second > 0, not "
                             f"{json.dumps(rps)}")
        out[str(entry.get("pattern"))] = entry
    return out


def _sizes(model: Model, costs, source: str) -> None:
    """The cost input's ``table_list``: production item counts and sizes, of each table and GSI."""
    if not isinstance(costs, dict):
        return
    for n, entry in enumerate(expect(costs.get("table_list", []), list, f"{source} (costs): table_list",
                                     "a list of tables")):
        where = f"{source} (costs): table_list[{n}]"
        entry = expect(entry, dict, where, "name, item_count, item_size_bytes")
        name = expect(entry.get("name"), str, f"{where}.name", "a table name")
        model.sizes[name] = _size(entry, where)
        for m, index in enumerate(expect(entry.get("gsi_list", []), list, f"{where}.gsi_list", "a list of GSIs")):
            index = expect(index, dict, f"{where}.gsi_list[{m}]", "name, item_count, item_size_bytes")
            model.sizes[f"{name}.{expect(index.get('name'), str, f'{where}.gsi_list[{m}].name', 'a GSI name')}"] = \
                _size(index, f"{where}.gsi_list[{m}]")


def _size(entry: dict, where: str) -> tuple:
    count, size = entry.get("item_count"), entry.get("item_size_bytes")
    for value, member in ((count, "item_count"), (size, "item_size_bytes")):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ModelError(f"{where}.{member} takes a number >= 0, not {json.dumps(value)}")
    return count, size


def _pattern(pattern: dict, ident: str, where: str, tables: dict, model: Model, rates: dict) -> Access:
    name, description = f"mcp-{ident}", str(pattern.get("description", ""))
    if "reason" in pattern and "implementation" not in pattern:
        return Access(name, description, None, why=f"served outside DynamoDB: {pattern['reason']}")
    line = expect(pattern.get("implementation"), str, f"{where}.implementation", "an AWS CLI command")
    operation, request = command(line, f"{where}.implementation")
    table = tables.get(request.get("TableName"))
    params: list = []
    if table is not None:
        _draw_keys(request, table, params, model)
    entry = rates.get(ident)
    if entry is None:
        model.notes.append(f"{name}: no rate in a cost input: 1 request a second")
    return Access(name, description, operation, request, params, 1.0 if entry is None else float(entry["rps"]))


def command(line: str, where: str) -> tuple:
    """(operation, request) of one ``aws dynamodb <op> --member value …`` line."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise ModelError(f"{where}: not one shell command ({error})") from None
    if words[:2] != ["aws", "dynamodb"] or len(words) < 3 or words[2] not in OPERATIONS:
        raise ModelError(f"{where} takes aws dynamodb {' | '.join(OPERATIONS)} with its options, not {line[:60]!r}")
    request: dict = {}
    rest = words[3:]
    while rest:
        option = rest.pop(0)
        if not option.startswith("--"):
            raise ModelError(f"{where}: {option!r} follows no --option")
        option = option[2:]
        takes_value = rest and not rest[0].startswith("--")
        if option in CLI_OPTIONS:
            if takes_value:
                rest.pop(0)
            continue
        if not takes_value:
            flag = not option.startswith("no-")
            request[_member(option if flag else option[3:])] = flag
            continue
        request[_member(option)] = _value(rest.pop(0))
    return OPERATIONS[words[2]], request


def _member(option: str) -> str:
    return "".join(MEMBER_WORDS.get(word, word.capitalize()) for word in option.split("-"))


def _value(text: str):
    """A CLI value: JSON when it is a JSON object, array, number or boolean, else the text."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, (dict, list, bool, int, float)) else text


def _draw_keys(request: dict, table: dict, params: list, model: Model) -> None:
    """Every key value of ``request`` becomes ``"?"``, drawn from the table's imported items (in the order a
    depth-first walk of the request meets them: the order its ``?`` are filled)."""
    name = table["TableName"]
    primary = [key["AttributeName"] for key in table.get("KeySchema", [])]
    indexed = {key["AttributeName"] for index in table.get("GlobalSecondaryIndexes", []) + table.get(
        "LocalSecondaryIndexes", []) for key in index.get("KeySchema", [])}
    queried = next((index for index in table.get("GlobalSecondaryIndexes", []) + table.get(
        "LocalSecondaryIndexes", []) if index.get("IndexName") == request.get("IndexName")), None)
    keyed = set(primary) | {key["AttributeName"] for key in (queried or {}).get("KeySchema", [])}
    held = {attribute for item in model.items.get(name, []) for attribute in item}
    bound = _bound(request.get("KeyConditionExpression", ""), request.get("ExpressionAttributeNames") or {})

    def drawn(attribute: str, value):
        if attribute not in held:
            model.notes.append(f"{name}: no imported item holds {attribute}: its literal value is replayed")
            return value
        return _Drawn(f'{{ item = "{name}.{attribute}" }}')

    for member, names in (("Key", set(primary)), ("Item", set(primary) | indexed),
                          ("ExpressionAttributeValues", None)):
        values = request.get(member)
        if isinstance(values, dict):
            for key in values:
                attribute = key if names is not None else bound.get(key)
                if attribute is not None and (names is None and attribute in keyed or names and attribute in names):
                    values[key] = drawn(attribute, values[key])
    _in_order(request, params)


class _Drawn:
    """A key value to draw (its generator), until ``_in_order`` makes it a ``?``."""

    def __init__(self, generator: str):
        self.generator = generator


def _in_order(value, params: list) -> None:
    """Each ``_Drawn`` in ``value`` becomes ``"?"`` and its generator joins ``params``, in the order a depth-first
    walk meets them (the order the simulator fills a request's ``?``)."""
    members = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, member in members:
        if isinstance(member, _Drawn):
            value[key] = "?"
            params.append(member.generator)
        else:
            _in_order(member, params)


def _bound(expression: str, names: dict) -> dict:
    """``:placeholder`` -> the attribute a key condition compares it with (the nearest name before it, else
    after it)."""
    tokens = re.findall(r"[#:]?[A-Za-z_][A-Za-z0-9_.\-]*", expression)
    words = {"and", "between", "begins_with"}
    out = {}
    for n, token in enumerate(tokens):
        if token.startswith(":"):
            around = [t for t in reversed(tokens[:n]) if not t.startswith(":") and t.lower() not in words] + \
                     [t for t in tokens[n + 1:] if not t.startswith(":") and t.lower() not in words]
            if around:
                out[token] = names.get(around[0], around[0])
    return out
