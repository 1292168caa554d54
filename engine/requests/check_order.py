"""The order of each item operation's checks, as data: a recorded ordering is a one-line change here.

Every item operation runs DynamoDB's phases in one order (item-api §2.1; ``PHASES``): the JSON types, the
constraint envelope, the attribute values, the operation's own table-free rules, its expressions, the
table lookup, the key against the schema, then the write or read. What differs between operations is
declared per operation in ``ORDERS``:

* ``envelope`` — the members whose envelope items come first, in this order (the others follow in the
  service model's order, ``shapes``);
* ``first_only`` — DynamoDB's newer validation framework stops at the first item
  (``1 validation error detected: <first>``) where the older one listed up to ten;
* ``style`` and ``styles`` — the form of the operation's envelope items (§2.2's classic one, or the newer
  framework's), and the members that answer in another;
* ``rules`` — the operation's own table-free rules (names in ``shapes.RULES``), first failure wins.

``tests/engine/test_check_order.py`` lists every operation's sequence and checks each adjacent pair with a
request that fails both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..envelope import CLASSIC, MODERN, Style, json_echo

PHASES = ("types", "envelope", "values", "rules", "expressions", "table", "schema", "execution")


@dataclass(frozen=True)
class Order:
    """One operation's declared check order (see the module's docstring)."""

    rules: tuple[str, ...]
    envelope: tuple[str, ...] = ()
    first_only: bool = False
    style: Style = CLASSIC
    styles: dict[str, Style] = field(default_factory=dict)


# why (recorded-2026-11 B2): "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]" is
# the whole of Query's answer to a bad ConditionalOperator, ahead of every other member, no envelope, and
# with that value set (sic: the member accepts AND and OR).
QUERY_CONDITIONAL_OPERATOR = Style(member=CLASSIC.member, shows_value=False,
                                   text="Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]")
# why (recorded-2026-11 B6, 2026-09/10, every region but one): BatchGetItem's RequestItems answers in the
# newer form (``Value at 'RequestItems.T.member.Keys'``, ``Value at 'RequestItems'`` for an empty map) except
# for a bad table name, which is the classic item echoing the map as the JSON the client sent.
_BATCH_GET_ITEMS = Style(member=MODERN.member, shows_value=False,
                         keys=Style(member=CLASSIC.member, shows_value=True, render=json_echo))
# Query and BatchGetItem answered in the newer form throughout in 2026-04; where the newest recording
# (2026-09/10) speaks, it wins: Select and ReturnConsumedCapacity are classic again (B1).

# why (recorded-2026-11 B2): the writes list ``returnConsumedCapacity; tableName; returnValues; key`` and
# ``conditionalOperator; key``: the key (or item) after the enums.
_WRITE_ENVELOPE = ("ReturnConsumedCapacity", "TableName", "ConditionalOperator", "ReturnValues")

ORDERS = {
    "PutItem": Order(rules=("conditional_mixing", "item", "put_return_values", "expression_names"),
                     envelope=_WRITE_ENVELOPE),
    # why (recorded-2026-11 B2): a bad ReturnValues and a bad ReturnConsumedCapacity: one item, the first
    "UpdateItem": Order(rules=("update_mixing", "expression_names"), envelope=_WRITE_ENVELOPE, first_only=True),
    "DeleteItem": Order(rules=("conditional_mixing", "delete_return_values", "expression_names"),
                        envelope=_WRITE_ENVELOPE),
    "GetItem": Order(rules=("get_mixing", "attributes_to_get", "expression_names")),
    # why (recorded-2026-11 B1, B2): Limit is in the newer form, Select and ReturnConsumedCapacity keep the
    # classic one (ReturnConsumedCapacity first); one item, the first
    "Query": Order(rules=("query_mixing", "attributes_to_get", "expression_names"),
                   envelope=("ConditionalOperator",), first_only=True, style=MODERN,
                   styles={"Select": CLASSIC, "ReturnConsumedCapacity": CLASSIC,
                           "ConditionalOperator": QUERY_CONDITIONAL_OPERATOR}),
    "Scan": Order(rules=("scan_mixing", "attributes_to_get", "expression_names")),
    "BatchGetItem": Order(rules=("batch_get",), style=MODERN,
                          styles={"ReturnConsumedCapacity": CLASSIC, "RequestItems": _BATCH_GET_ITEMS}),
    # why (recorded-2026-11 B2): the ReturnConsumedCapacity enum alone, over a bad table name
    "BatchWriteItem": Order(rules=("batch_write",), first_only=True,
                            envelope=("ReturnConsumedCapacity", "ReturnItemCollectionMetrics")),
    "TransactGetItems": Order(rules=("transact_get",)),
    # recorded-2026-11 B3: action by action, in request order (each action's rules before the next's)
    "TransactWriteItems": Order(rules=("transact_write",)),
}
