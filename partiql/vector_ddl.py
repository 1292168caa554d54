"""The DDL's vector indexes as DynamoDB's requests (vector-search.md §2): ``VECTOR INDEX (…)`` in CREATE TABLE
becomes a ``VectorIndexes`` entry, ``ALTER TABLE t CREATE VECTOR INDEX (…)`` and ``… DROP VECTOR INDEX name``
an UpdateTable's ``VectorIndexUpdates``; a SearchSchema attribute's type goes into AttributeDefinitions, as a
key attribute's does."""

from __future__ import annotations


def index_request(index) -> dict:
    """The VectorIndex (or CreateVectorIndexAction) of a ``shell_ast.VectorIndexDef``."""
    projection = {"ProjectionType": index.projection.type}
    if index.projection.type == "INCLUDE":
        projection["NonKeyAttributes"] = list(index.projection.attributes)
    out = {"IndexName": index.name, "VectorAttribute": {"AttributeName": index.attribute},
           "Dimensions": index.dimensions, "DistanceFunction": index.distance, "Projection": projection}
    schema = ([(index.hash[0], "HASH")] if index.hash else []) + [(name, "INLINE_FILTER") for name, _ in index.filters]
    if schema:
        out["SearchSchema"] = [{"AttributeName": name, "SearchSchemaElementType": kind} for name, kind in schema]
    return out


def schema_types(indexes) -> dict:
    """name -> type of the SearchSchema attributes of ``indexes``."""
    return {name: kind for index in indexes for name, kind in ((index.hash,) if index.hash else ()) + index.filters}


def create_request(stmt) -> dict:
    """UpdateTable of ``ALTER TABLE t CREATE VECTOR INDEX (…)``."""
    request = {"TableName": stmt.table, "VectorIndexUpdates": [{"Create": index_request(stmt.index)}]}
    types = schema_types([stmt.index])
    if types:
        request["AttributeDefinitions"] = [{"AttributeName": n, "AttributeType": t} for n, t in types.items()]
    return request


def drop_request(stmt) -> dict:
    """UpdateTable of ``ALTER TABLE t DROP VECTOR INDEX name``."""
    return {"TableName": stmt.table, "VectorIndexUpdates": [{"Delete": {"IndexName": stmt.index}}]}
