"""The writer the kill test SIGKILLs: items, updates, deletes, transactions, batches and DDL.

    python kill_writer.py DATABASE SEED ROUND

It opens DATABASE (in odd rounds folding its write log every ~2 KB), prints ``ready``, then runs random operations forever.
Before each operation it prints ``B <operation>``; after the call returns
it prints ``A``. So every ``B`` followed by an ``A`` is acknowledged, and at
most one operation (the last ``B``) is in flight when the kill lands.

Operations (what the checker expects of each):

    put TABLE PK SK V       the item exists with v = V
    upd TABLE PK SK V       ADD v 1 on an existing item: v becomes V
    del TABLE PK SK         the item is gone
    txn ID K                K items (pk ID, sk 0..K-1) in Main and one in Side, all or none
    batch ID K              K items (pk ID, sk 0..K-1) in Main, all or none
    import ID K             the same, loaded from a JSON-lines file by import_items
    create TABLE            a table (pk S, sk N) exists
    drop TABLE              it does not
    gsi TABLE INDEX         the table has a GSI on attribute g
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from partiql.engine import Engine
from partiql.engine.storage import write_log
from partiql.engine.storage.sqlite import SqliteStorage
from partiql.transfer import import_items

KEYS = [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]
TYPES = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def create(engine: Engine, name: str) -> None:
    engine.create_table(TableName=name, KeySchema=KEYS, AttributeDefinitions=TYPES,
                        BillingMode="PAY_PER_REQUEST")


def setup(engine: Engine) -> None:
    """Main (with a sparse GSI on grp and a stream) and Side, created by the first round."""
    if "Main" not in engine.tables:
        engine.create_table(
            TableName="Main", KeySchema=KEYS, BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
            AttributeDefinitions=TYPES + [{"AttributeName": "grp", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "ByGroup", "Projection": {"ProjectionType": "ALL"},
                                     "KeySchema": [{"AttributeName": "grp", "KeyType": "HASH"}]}])
    if "Side" not in engine.tables:
        create(engine, "Side")


class Writer:
    def __init__(self, engine: Engine, path: str, seed: int, round_: int):
        self.engine = engine
        self.path = path
        self.rng = random.Random(seed)
        self.round = round_
        self.count = 0
        self.written: list = []  # (table, pk, sk, v) this writer put and did not delete
        self.created: list = [name for name in engine.tables if name.startswith("D")]

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.round}x{self.count}"

    def run(self) -> None:
        operations = [self.put] * 6 + [self.update] * 2 + [self.delete] * 2 + [self.txn] * 2 + \
                     [self.batch] * 2 + [self.ddl, self.load]
        while True:
            self.rng.choice(operations)()

    def tables(self) -> list:
        return ["Main"] + self.created

    def put(self) -> None:
        table = self.rng.choice(self.tables())
        pk, v = self.fresh("p"), self.rng.randrange(1000)
        item = {"pk": pk, "sk": 0, "v": v, "pad": "x" * self.rng.randrange(2000)}
        if self.rng.random() < 0.5:  # sparse index membership: Main's ByGroup, a D table's GSI on g
            item["grp" if table == "Main" else "g"] = f"g{v % 7}"
        say(f"B put {table} {pk} 0 {v}")
        self.engine.put_item(TableName=table, Item=item)
        say("A")
        self.written.append([table, pk, 0, v])

    def update(self) -> None:
        if not self.written:
            return self.put()
        entry = self.rng.choice(self.written)
        table, pk, sk, v = entry
        say(f"B upd {table} {pk} {sk} {v + 1}")
        self.engine.update_item(TableName=table, Key={"pk": pk, "sk": sk}, UpdateExpression="ADD v :one",
                                ExpressionAttributeValues={":one": 1})
        say("A")
        entry[3] = v + 1

    def delete(self) -> None:
        if not self.written:
            return self.put()
        entry = self.written.pop(self.rng.randrange(len(self.written)))
        table, pk, sk, _ = entry
        say(f"B del {table} {pk} {sk}")
        self.engine.delete_item(TableName=table, Key={"pk": pk, "sk": sk})
        say("A")

    def txn(self) -> None:
        pk, count = self.fresh("t"), self.rng.randrange(2, 60)
        actions = [{"Put": {"TableName": "Main", "Item": {"pk": pk, "sk": sk, "v": sk, "grp": "t"}}}
                   for sk in range(count)]
        actions.append({"Put": {"TableName": "Side", "Item": {"pk": pk, "sk": 0, "v": count}}})
        say(f"B txn {pk} {count}")
        self.engine.transact_write_items(TransactItems=actions)
        say("A")

    def batch(self) -> None:
        pk, count = self.fresh("b"), self.rng.randrange(2, 26)
        requests = [{"PutRequest": {"Item": {"pk": pk, "sk": sk, "v": sk}}} for sk in range(count)]
        say(f"B batch {pk} {count}")
        self.engine.batch_write_item(RequestItems={"Main": requests})
        say("A")

    def load(self) -> None:
        pk, count = self.fresh("i"), self.rng.randrange(100, 3000)
        source = Path(f"{self.path}-{pk}.jsonl")
        source.write_text("".join(f'{{"pk": "{pk}", "sk": {sk}, "v": {sk}}}\n' for sk in range(count)))
        say(f"B import {pk} {count}")
        import_items(self.engine, "Main", source)
        say("A")
        source.unlink()

    def ddl(self) -> None:
        choice = self.rng.random()
        if choice < 0.5 or not self.created:
            name = self.fresh("D")
            say(f"B create {name}")
            create(self.engine, name)
            say("A")
            self.created.append(name)
        elif choice < 0.75:
            name = self.created.pop(self.rng.randrange(len(self.created)))
            say(f"B drop {name}")
            self.engine.delete_table(TableName=name)
            say("A")
            self.written = [entry for entry in self.written if entry[0] != name]
        else:
            self.add_index(self.rng.choice(self.created))

    def add_index(self, name: str) -> None:
        table = self.engine.tables[name]
        if table.spec.gsis:
            return
        say(f"B gsi {name} G{name}")
        self.engine.update_table(
            TableName=name, AttributeDefinitions=[{"AttributeName": "g", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[{"Create": {
                "IndexName": f"G{name}", "Projection": {"ProjectionType": "KEYS_ONLY"},
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}}])
        say("A")


def main() -> None:
    path, seed, round_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if round_ % 2:  # why: a fold of the write log every few writes, so that kills land in folds too
        write_log.FOLD_BYTES = 2048
    engine = Engine(storage=SqliteStorage(path))
    setup(engine)
    say("ready")
    Writer(engine, path, seed, round_).run()


if __name__ == "__main__":
    main()
