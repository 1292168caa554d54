"""What the shell knows of the database's tables, cached between statements.

Table names, key schemas, index names and attribute names feed column
ordering (key attributes first) and completion. Everything is read lazily
from the connection and kept until ``forget`` — the session calls it after
any statement that is not a read, since writes add attributes and DDL adds
tables and indexes.
"""

from __future__ import annotations

from partiql.engine.errors import DynamoDBError


class Catalog:
    """A lazily filled cache over ``db.table_names``, ``db.describe`` and ``db.attribute_names``."""

    def __init__(self, db):
        self.db = db
        self.forget()

    def forget(self) -> None:
        """Drop everything cached."""
        self._tables: list | None = None
        self._descriptions: dict = {}
        self._attributes: dict = {}

    def tables(self) -> list:
        """Table names."""
        if self._tables is None:
            self._tables = list(self.db.table_names())
        return self._tables

    def description(self, table: str) -> dict:
        """The table's TableDescription, or {} when there is no such table."""
        if table not in self._descriptions:
            try:
                self._descriptions[table] = self.db.describe(table)
            except DynamoDBError:
                self._descriptions[table] = {}
        return self._descriptions[table]

    def indexes(self, table: str) -> list:
        """Names of the table's GSIs and LSIs."""
        found = self.description(table)
        return [index["IndexName"] for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes")
                for index in found.get(member) or []]

    def keys(self, table: str | None, index: str | None = None) -> list:
        """Key attribute names: the table's key, then the index's (when given)."""
        if table is None:
            return []
        found = self.description(table)
        schemas = [found.get("KeySchema") or []]
        schemas += [i["KeySchema"] for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes")
                    for i in found.get(member) or [] if i["IndexName"] == index]
        names = [key["AttributeName"] for schema in schemas for key in schema]
        return list(dict.fromkeys(names))

    def attributes(self, table: str, path: tuple = ()) -> list:
        """Attribute names: keys first, then names seen in a sample of items; with ``path`` the keys of
        the maps at that path (``("Ship",)``: what follows ``Ship.``)."""
        if (table, path) not in self._attributes:
            try:
                self._attributes[(table, path)] = list(self.db.attribute_names(table, path=path))
            except DynamoDBError:
                self._attributes[(table, path)] = []
        return self._attributes[(table, path)]

    def key_roles(self, table: str) -> dict:
        """Each key attribute's role: ``partition key``, ``sort key``, or an index's (``ByYear key``)."""
        found = self.description(table)
        roles = {key["AttributeName"]: "partition key" if key["KeyType"] == "HASH" else "sort key"
                 for key in found.get("KeySchema") or []}
        for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
            for index in found.get(member) or []:
                for key in index["KeySchema"]:
                    roles.setdefault(key["AttributeName"], f"{index['IndexName']} key")
        return roles
