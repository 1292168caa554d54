"""A stateful model check (#12.5): every write, checked against a plain dict after every step.

A table keyed (pk S, sk N) with an LSI on ``l`` (KEYS_ONLY) and two GSIs —
``ByG`` (g) and ``ByG2`` (g2, n), projecting ALL — takes random PutItem,
UpdateItem (ADD, SET and REMOVE of index keys), DeleteItem (with and without
conditions), TransactWriteItems (sometimes failing as a whole; two actions on
one item always refused) and BatchWriteItem through the boto3-shaped client.
The model is ``{(pk, sk): item}``; PutItem's ALL_OLD must be the model's old
item, and a refused write changes nothing. After every step: a Scan equals
the model, and each index — scanned, and queried per partition — holds
exactly the model items that carry its key attributes (sparse), with its
projection. The same machine runs on a file database, reopened now and then
and once more at the end.
"""

from __future__ import annotations

import tempfile
from decimal import Decimal
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import partiql

TABLE = "Model"
SCHEMA = {
    "TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
    "AttributeDefinitions": [{"AttributeName": n, "AttributeType": t}
                             for n, t in (("pk", "S"), ("sk", "N"), ("l", "N"), ("g", "S"), ("g2", "S"), ("n", "N"))],
    "LocalSecondaryIndexes": [{"IndexName": "ByL", "Projection": {"ProjectionType": "KEYS_ONLY"},
                               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                                             {"AttributeName": "l", "KeyType": "RANGE"}]}],
    "GlobalSecondaryIndexes": [
        {"IndexName": "ByG", "Projection": {"ProjectionType": "ALL"},
         "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]},
        {"IndexName": "ByG2", "Projection": {"ProjectionType": "ALL"},
         "KeySchema": [{"AttributeName": "g2", "KeyType": "HASH"}, {"AttributeName": "n", "KeyType": "RANGE"}]}],
}
# index -> (key attributes, projected: None = all)
INDEXES = {"ByL": (("pk", "sk", "l"), ("pk", "sk", "l")), "ByG": (("g",), None), "ByG2": (("g2", "n"), None)}

PKS = st.sampled_from(["a", "b", "c"])
SKS = st.integers(0, 4)
ATTRIBUTES = st.fixed_dictionaries({}, optional={
    "l": st.integers(0, 3), "g": st.sampled_from(["x", "y"]), "g2": st.sampled_from(["x", "z"]),
    "n": st.integers(0, 3), "v": st.text(max_size=3), "tags": st.frozensets(st.sampled_from("abc"), min_size=1)})


def wire(value):
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, frozenset):
        return {"SS": sorted(value)}
    return {"N": str(value)}  # int or Decimal


def plain(attribute: dict):
    (kind, value), = attribute.items()
    return {"S": lambda v: v, "N": Decimal, "SS": frozenset}[kind](value)


def key(pk, sk) -> dict:
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}}


class ModelCheck(RuleBasedStateMachine):
    def database_path(self):
        """Where the database lives: None in memory (the file subclass gives a path)."""
        return None

    @initialize()
    def create(self):
        self.db = partiql.connect(self.database_path())
        self.client = partiql.client(self.db)
        self.client.create_table(**SCHEMA)
        self.model: dict = {}

    def teardown(self):
        if hasattr(self, "db"):
            self.db.close()

    # ------------------------------------------------------------ writes
    def _expect_condition(self, call, holds: bool):
        """``call()``'s answer; refused with ConditionalCheckFailedException exactly when not ``holds``."""
        try:
            answer = call()
        except self.client.exceptions.ConditionalCheckFailedException:
            assert not holds, "a condition that holds was refused"
            return None
        assert holds, "a condition that fails was accepted"
        return answer

    @rule(pk=PKS, sk=SKS, attributes=ATTRIBUTES, conditional=st.booleans())
    def put(self, pk, sk, attributes, conditional):
        item = {"pk": pk, "sk": Decimal(sk), **{k: Decimal(v) if isinstance(v, int) else v
                                               for k, v in attributes.items()}}
        request = {"TableName": TABLE, "Item": {k: wire(v) for k, v in item.items()}}
        holds = True
        if conditional:
            request["ConditionExpression"] = "attribute_not_exists(pk)"
            holds = (pk, sk) not in self.model
        request["ReturnValues"] = "ALL_OLD"
        answer = self._expect_condition(lambda: self.client.put_item(**request), holds)
        if holds:
            old = {k: plain(v) for k, v in answer.get("Attributes", {}).items()}
            assert old == self.model.get((pk, sk), {}), "ALL_OLD is not the item replaced"
            self.model[(pk, sk)] = item

    @rule(pk=PKS, sk=SKS, name=st.sampled_from(["g", "g2", "l"]), choice=st.sampled_from([0, 1, None]),
          add=st.integers(-2, 2), conditional=st.booleans())
    def update(self, pk, sk, name, choice, add, conditional):
        """ADD n, and SET (choice 0 or 1) or REMOVE (None) an index key: a number for l, a string for g and g2."""
        value = None if choice is None else Decimal(choice) if name == "l" else "xz"[choice]
        change = f"SET {name} = :x" if value is not None else f"REMOVE {name}"
        values = {":n": {"N": str(add)}, **({":x": wire(value)} if value is not None else {})}
        request = {"TableName": TABLE, "Key": key(pk, sk), "UpdateExpression": f"ADD n :n {change}",
                   "ExpressionAttributeValues": values}
        current = self.model.get((pk, sk))
        holds = True
        if conditional:
            request["ConditionExpression"] = "attribute_exists(v)"
            holds = current is not None and "v" in current
        self._expect_condition(lambda: self.client.update_item(**request), holds)
        if holds:
            item = dict(current) if current is not None else {"pk": pk, "sk": Decimal(sk)}
            item["n"] = item.get("n", Decimal(0)) + add
            item.pop(name, None)
            if value is not None:
                item[name] = value
            self.model[(pk, sk)] = item

    @rule(pk=PKS, sk=SKS, conditional=st.booleans())
    def delete(self, pk, sk, conditional):
        request = {"TableName": TABLE, "Key": key(pk, sk)}
        holds = True
        if conditional:
            request.update(ConditionExpression="n >= :zero", ExpressionAttributeValues={":zero": {"N": "0"}})
            current = self.model.get((pk, sk))
            holds = current is not None and "n" in current and current["n"] >= 0
        self._expect_condition(lambda: self.client.delete_item(**request), holds)
        if holds:
            self.model.pop((pk, sk), None)

    @rule(writes=st.lists(st.tuples(PKS, SKS, st.sampled_from(["put", "delete", "check"])), min_size=1, max_size=4,
                          unique_by=lambda w: w[:2]))
    def transact(self, writes):
        actions, holds = [], True
        for pk, sk, kind in writes:
            if kind == "put":
                actions.append({"Put": {"TableName": TABLE, "Item": {**key(pk, sk), "v": {"S": "t"}}}})
            elif kind == "delete":
                actions.append({"Delete": {"TableName": TABLE, "Key": key(pk, sk)}})
            else:
                actions.append({"ConditionCheck": {"TableName": TABLE, "Key": key(pk, sk),
                                                   "ConditionExpression": "attribute_exists(pk)"}})
                holds = holds and (pk, sk) in self.model
        try:
            self.client.transact_write_items(TransactItems=actions)
        except self.client.exceptions.TransactionCanceledException:
            assert not holds, "a transaction whose checks hold was cancelled"
            return
        assert holds, "a transaction with a failing check was applied"
        for pk, sk, kind in writes:
            if kind == "put":
                self.model[(pk, sk)] = {"pk": pk, "sk": Decimal(sk), "v": "t"}
            elif kind == "delete":
                self.model.pop((pk, sk), None)

    @rule(pk=PKS, sk=SKS, other=st.tuples(PKS, SKS))
    def conflicting_transaction(self, pk, sk, other):
        """Two actions on one item: refused as a whole (ValidationException), the other write not applied."""
        actions = [{"Put": {"TableName": TABLE, "Item": {**key(*other), "v": {"S": "lost"}}}},
                   {"Put": {"TableName": TABLE, "Item": {**key(pk, sk), "v": {"S": "lost"}}}},
                   {"Delete": {"TableName": TABLE, "Key": key(pk, sk)}}]
        try:
            self.client.transact_write_items(TransactItems=actions)
        except self.client.exceptions.ClientError as error:
            assert error.response["Error"]["Code"] == "ValidationException", error.response
        else:
            raise AssertionError("a transaction with two actions on one item was applied")

    @rule(writes=st.lists(st.tuples(PKS, SKS, st.booleans()), min_size=1, max_size=5, unique_by=lambda w: w[:2]))
    def batch(self, writes):
        requests = [{"PutRequest": {"Item": {**key(pk, sk), "g2": {"S": "x"}, "n": {"N": "1"}}}} if put
                    else {"DeleteRequest": {"Key": key(pk, sk)}} for pk, sk, put in writes]
        assert self.client.batch_write_item(RequestItems={TABLE: requests})["UnprocessedItems"] == {}
        for pk, sk, put in writes:
            if put:
                self.model[(pk, sk)] = {"pk": pk, "sk": Decimal(sk), "g2": "x", "n": Decimal(1)}
            else:
                self.model.pop((pk, sk), None)

    @precondition(lambda self: self.database_path() is not None)
    @rule()
    def reopen(self):
        """Close the file and open it again: everything must survive."""
        self.db.close()
        self.db = partiql.connect(self.database_path())
        self.client = partiql.client(self.db)

    # ------------------------------------------------------------ checks
    def _scan(self, index=None) -> list:
        request = {"TableName": TABLE, **({"IndexName": index} if index else {})}
        items = self.client.scan(**request)["Items"]
        return sorted(({k: plain(v) for k, v in item.items()} for item in items), key=_order)

    @invariant()
    def table_equals_the_model(self):
        if hasattr(self, "model"):
            assert self._scan() == sorted(self.model.values(), key=_order)

    @invariant()
    def indexes_hold_exactly_the_items_with_their_keys(self):
        if not hasattr(self, "model"):
            return
        for index, (keys, projected) in INDEXES.items():
            expected = [item if projected is None else {k: item[k] for k in projected}
                        for item in self.model.values() if all(k in item for k in keys)]
            assert self._scan(index) == sorted(expected, key=_order), index


    @invariant()
    def queries_on_each_index_return_the_model_items_with_that_key(self):
        """A Query per partition of each index: the model items with that key value, with the projection."""
        if not hasattr(self, "model"):
            return
        for index, (keys, projected) in INDEXES.items():
            for value in {item[keys[0]] for item in self.model.values() if all(k in item for k in keys)} | {"x"}:
                expected = [item if projected is None else {k: item[k] for k in projected}
                            for item in self.model.values() if all(k in item for k in keys) and item[keys[0]] == value]
                assert self._query(index, keys[0], value) == sorted(expected, key=_order), (index, value)

    def _query(self, index, name, value) -> list:
        items = self.client.query(TableName=TABLE, IndexName=index, KeyConditionExpression="#k = :v",
                                  ExpressionAttributeNames={"#k": name},
                                  ExpressionAttributeValues={":v": wire(value)})["Items"]
        return sorted(({k: plain(v) for k, v in item.items()} for item in items), key=_order)


def _order(item: dict):
    return (item["pk"], item["sk"], repr(sorted(item.items(), key=lambda kv: kv[0])))


ModelCheck.TestCase.settings = settings(max_examples=80, stateful_step_count=30, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])
TestModelInMemory = ModelCheck.TestCase


class FileModelCheck(ModelCheck):
    """The same machine on a database file, reopened now and then (everything must survive)."""

    def __init__(self):
        super().__init__()
        self._directory = tempfile.TemporaryDirectory()

    def database_path(self):
        return Path(self._directory.name) / "model.db"

    def teardown(self):
        """At the end, the file reopened once more still holds exactly the model."""
        try:
            if hasattr(self, "model"):
                self.reopen()
                self.table_equals_the_model()
                self.indexes_hold_exactly_the_items_with_their_keys()
        finally:
            super().teardown()
            self._directory.cleanup()


FileModelCheck.TestCase.settings = settings(max_examples=25, stateful_step_count=25, deadline=None,
                                            suppress_health_check=[HealthCheck.too_slow])
TestModelOnFile = FileModelCheck.TestCase
