"""SearchVectors from Python values: the request a search makes, its preview, and its results (vector-search.md
§5). The shell's ``.search``, the agent's ``search_vectors`` tool and ``Connection.search`` share it.

A search names its query vector as numbers, or ``like``: the key of an item whose own vector is the query
(its partition-key value, or a dict of its key). ``where`` maps SearchSchema attributes to the values they
must equal; ``project`` names the attributes returned. Mistakes are ValueErrors whose words say what to
change; DynamoDB's own refusals are its errors (``DynamoDBError``).
"""

from __future__ import annotations

from decimal import Decimal

from partiql.engine.requests.wire import wire_call
from partiql.engine.types import from_python
from partiql.engine.wire_values import from_wire, to_wire

from .arguments import exact


def search_request(engine, table: str, index: str, vector=None, *, like=None, top: int = 10, where=None,
                   project=None) -> dict:
    """The SearchVectors request (wire JSON) of a search, asking for the bytes it examines."""
    if (vector is None) == (like is None):
        raise ValueError("give the query vector (numbers) or like (an item's key), one of the two")
    if like is not None:
        vector = _vector_of(engine, table, index, like)
    if not isinstance(vector, (list, tuple)) or not vector:
        raise ValueError("the query vector is a list of numbers, as [0.1, 0.2, 0.3]")
    request = {"TableName": table, "IndexName": index, "TopK": top,
               "SearchVector": [to_wire(from_python(exact(x))) for x in vector]}
    if where:
        if not isinstance(where, dict):
            raise ValueError('where maps SearchSchema attributes to values, as {"Category": "shoes"}')
        request["SearchConditionExpression"] = " AND ".join(f"#w{n} = :w{n}" for n in range(len(where)))
        request["ExpressionAttributeNames"] = {f"#w{n}": name for n, name in enumerate(where)}
        request["ExpressionAttributeValues"] = {f":w{n}": to_wire(from_python(exact(value)))
                                                for n, value in enumerate(where.values())}
    if project:
        request["ProjectionExpression"] = ", ".join(f"#p{n}" for n in range(len(project)))
        request.setdefault("ExpressionAttributeNames", {}).update({f"#p{n}": name for n, name in enumerate(project)})
    request["ReturnConsumedCapacity"] = "TOTAL"
    return request


def _vector_of(engine, table: str, index: str, like) -> list:
    """The vector of the item ``like`` names (the index's vector attribute)."""
    found_spec = engine.table(table).spec
    spec = found_spec.vector(index)
    if spec is None:
        raise ValueError(f"{table} has no vector index {index}")
    key = like if isinstance(like, dict) else {found_spec.key.hash_name: like}
    found = wire_call(engine, "GetItem", {"TableName": table, "Key": {
        name: to_wire(from_python(exact(value))) for name, value in key.items()}}).get("Item")
    if found is None or spec.attribute not in found or "L" not in found[spec.attribute]:
        raise ValueError(f"no item of {table} has the key {like!r} and a {spec.attribute}")
    return [from_wire(value) for value in found[spec.attribute]["L"]]


def search(engine, request: dict) -> tuple:
    """(results, bytes examined) of ``request``: each result ``{"score": Decimal, **its item}`` in Python values,
    closest first."""
    answer = wire_call(engine, "SearchVectors", request)
    results = [{"score": Decimal(repr(result["Score"])), **{n: from_wire(v) for n, v in result["Item"].items()}}
               for result in answer["SearchResults"]]
    return results, answer["ConsumedCapacity"]["VectorSearchRequestBytes"]


def preview(engine, request: dict) -> dict:
    """What ``request`` would read and cost, without searching (the EXPLAIN of SearchVectors)."""
    table = engine.table(request["TableName"])
    spec = table.spec.vector(request["IndexName"])
    if spec is None:
        raise ValueError(f"{request['TableName']} has no vector index {request['IndexName']}")
    names = request.get("ExpressionAttributeNames", {})
    values = request.get("ExpressionAttributeValues", {})
    terms = {names[f"#w{n}"]: from_wire(values[f":w{n}"]) for n in range(len(values))}
    hash_value = terms.get(spec.hash[0]) if spec.hash else None
    index = table.vectors.index(spec.name)
    return {"table": table.name, "index": spec.name, "distance": spec.distance, "dimensions": spec.dimensions,
            "hash": None if spec.hash is None else [spec.hash[0], hash_value],
            "entries": len(index.partitions.get(hash_value, ())), "bytes": index.search_bytes(hash_value, 0),
            "per_vector_returned": 4 * spec.dimensions, "request": request}


def preview_text(found: dict) -> str:
    """A preview as lines: what it scores, what it costs, the request."""
    import json

    where = (f"the {found['entries']:,} entries of {found['hash'][0]} = {found['hash'][1]!r}" if found["hash"]
             else f"all {found['entries']:,} entries")
    return "\n".join([
        f"SearchVectors on {found['table']}.{found['index']} ({found['distance']}, {found['dimensions']} "
        f"dimensions): scores {where}, exactly",
        f"cost: about {found['bytes']:,} bytes examined (VectorSearchRequestBytes; no capacity units), more "
        f"{found['per_vector_returned']:,} a result when the vector is projected",
        "request:", json.dumps(found["request"], indent=2, default=str)])
