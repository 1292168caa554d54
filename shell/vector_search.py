""".search: SearchVectors from the shell (there is no PartiQL for it: vector-search.md §5.1 rule 4).

    .search TABLE INDEX [0.1, 0.2, …] [--top K] [--where JSON] [--project a,b] [--explain]
    .search TABLE INDEX --like KEY …

The query vector is a JSON array, or ``--like KEY`` the vector of the item whose key is KEY (JSON: ``"p1"``,
``5``, or ``{"pk": "p1", "sk": 3}``). ``--where`` takes the SearchSchema equalities as a JSON object
(``{"Category": "shoes", "Brand": "acme"}``), made into a SearchConditionExpression with placeholders.
``--explain`` prints the SearchVectors request and what it would examine and cost, without searching.
"""

from __future__ import annotations

import argparse
import json
import shlex
from decimal import Decimal

from partiql.engine.requests.wire import wire_call
from partiql.engine.types import from_python
from partiql.engine.wire_values import from_wire, to_wire

from .diagnostics import ShellError, local_only

USAGE = "TABLE INDEX VECTOR|--like KEY [--top K] [--where J] [--explain]"
SUMMARY = ("nearest items of a vector index (SearchVectors): results, scores and the bytes examined; "
           "--project A,B names the attributes returned")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ShellError(f".search: {message} (.search {USAGE})")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=".search", add_help=False)
    parser.add_argument("table")
    parser.add_argument("index")
    parser.add_argument("vector", nargs="*")
    parser.add_argument("--like")
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--where")
    parser.add_argument("--project")
    parser.add_argument("--explain", action="store_true")
    return parser


def _json(text: str, what: str):
    try:
        return json.loads(text, parse_float=Decimal, parse_int=Decimal)
    except ValueError as error:
        raise ShellError(f".search: {what} is not JSON: {error}") from None


def request_of(session, argument: str) -> dict:
    """The SearchVectors request (wire JSON) of ``.search``'s arguments."""
    try:
        args = _parser().parse_args(shlex.split(argument))
    except ValueError as error:
        raise ShellError(f".search: {error}") from None
    args.vector = " ".join(args.vector) or None  # (a JSON array with spaces arrives in pieces)
    if (args.vector is None) == (args.like is None):
        raise ShellError(f".search: give the query vector (a JSON array) or --like KEY, one of the two "
                         f"(.search {USAGE})")
    vector = _json(args.vector, "the vector") if args.vector is not None else _like(session, args)
    if not isinstance(vector, list):
        raise ShellError(".search: the vector is a JSON array of numbers, as [0.1, 0.2, 0.3]")
    request = {"TableName": args.table, "IndexName": args.index, "TopK": args.top,
               "SearchVector": [to_wire(from_python(x)) if not isinstance(x, dict) else x for x in vector]}
    if args.where is not None:
        terms = _json(args.where, "--where")
        if not isinstance(terms, dict) or not terms:
            raise ShellError('.search: --where takes a JSON object of attribute values, as {"Category": "shoes"}')
        request["SearchConditionExpression"] = " AND ".join(f"#w{n} = :w{n}" for n in range(len(terms)))
        request["ExpressionAttributeNames"] = {f"#w{n}": name for n, name in enumerate(terms)}
        request["ExpressionAttributeValues"] = {f":w{n}": to_wire(from_python(value))
                                                for n, value in enumerate(terms.values())}
    if args.project:
        names = [name.strip() for name in args.project.split(",") if name.strip()]
        request["ProjectionExpression"] = ", ".join(f"#p{n}" for n in range(len(names)))
        request.setdefault("ExpressionAttributeNames", {}).update({f"#p{n}": name for n, name in enumerate(names)})
    request["ReturnConsumedCapacity"] = "TOTAL"
    return request, args.explain


def _like(session, args) -> list:
    """The vector of the item ``--like`` names, read from the table (the index's vector attribute)."""
    key = _json(args.like, "--like")
    table = session.db.engine.table(args.table)
    spec = table.spec.vector(args.index)
    if spec is None:
        raise ShellError(f".search: {args.table} has no vector index {args.index}")
    if not isinstance(key, dict):
        key = {table.spec.key.hash_name: key}
    found = wire_call(session.db.engine, "GetItem", {"TableName": args.table, "Key": {
        n: to_wire(from_python(v)) for n, v in key.items()}}).get("Item")
    if found is None or spec.attribute not in found:
        raise ShellError(f".search: no item of {args.table} has the key {args.like} and a {spec.attribute}")
    return [from_wire(value) for value in found[spec.attribute]["L"]]


def run(session, argument: str) -> None:
    """``.search``: the results as the output format shows items, a score column first, then a status line."""
    from .formatting import render_items

    local_only(session, ".search")
    request, explain = request_of(session, argument)
    if explain:
        session.show(preview(session, request))
        return
    answer = wire_call(session.db.engine, "SearchVectors", request)
    results = answer["SearchResults"]
    items = [{"score": Decimal(repr(result["Score"])), **{n: from_wire(v) for n, v in result["Item"].items()}}
             for result in results]
    if items:
        session.show(render_items(items, session.settings.format, ["score"]))
    examined = answer["ConsumedCapacity"]["VectorSearchRequestBytes"]
    session.notice(f"{len(results)} result{'s' * (len(results) != 1)} · SearchVectors on {request['TableName']}."
                   f"{request['IndexName']} · {examined:,.0f} bytes examined (VectorSearchRequestBytes)")


def preview(session, request: dict) -> str:
    """What a search would send, read and cost, without running it (the EXPLAIN of SearchVectors)."""
    table = session.db.engine.table(request["TableName"])
    spec = table.spec.vector(request["IndexName"])
    if spec is None:
        raise ShellError(f".search: {request['TableName']} has no vector index {request['IndexName']}")
    index = table.vectors.index(spec.name)
    values = request.get("ExpressionAttributeValues", {})
    names = request.get("ExpressionAttributeNames", {})
    terms = {names[f"#w{n}"]: from_wire(values[f":w{n}"]) for n in range(len(values))}
    hash_value = terms.get(spec.hash[0]) if spec.hash else None
    entries = index.partitions.get(hash_value, {})
    examined = sum(entry.size for entry in entries.values())
    where = f"the {len(entries):,} entries of {spec.hash[0]} = {hash_value!r}" if spec.hash else \
        f"all {len(entries):,} entries"
    return "\n".join([
        f"SearchVectors on {request['TableName']}.{spec.name} ({spec.distance}, {spec.dimensions} dimensions): "
        f"scores {where}, exactly",
        f"cost: about {max(1024, examined):,} bytes examined (VectorSearchRequestBytes; no capacity units), more "
        f"{4 * spec.dimensions:,} a result when the vector is projected",
        "request:", json.dumps(request, indent=2, default=str)])
