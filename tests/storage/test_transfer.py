"""Import and export: DynamoDB JSON, plain JSON lines and CSV; bad rows; all or nothing."""

from __future__ import annotations

import csv
import gzip
import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import partiql
from partiql.engine.errors import DynamoDBError, ResourceNotFoundException
from partiql.engine.limits import Limits
from partiql.transfer import TransferError
from partiql.transfer_formats import (_INT_SCAN, _PLAIN_JSON, _PLAIN_SCAN, _load_json, _load_wire_json,
                                      from_plain)

from .helpers import attribute_types, create_simple, file_rows, key_schema

ITEMS = [
    {"pk": "a", "sk": Decimal(1), "name": "Ann", "age": Decimal(31), "score": Decimal("-1.25")},
    {"pk": "a", "sk": Decimal(2), "name": "Bob, \"the\" builder", "note": "line\nbreak"},
    {"pk": "b", "sk": Decimal(1), "zip": "007", "id": "123456789012345678901234567890123456789012"},
]
RICH = {"pk": "r", "sk": Decimal(9), "b": b"\x00\x01", "ok": True, "nothing": None, "list": [Decimal(1), "x"],
        "map": {"deep": {"er": [True]}}, "ss": frozenset({"x", "y"}), "ns": frozenset({Decimal(1), Decimal(2)}),
        "bs": frozenset({b"q"})}


@pytest.fixture
def db():
    with partiql.connect() as connection:
        create_simple(connection.engine, "Items")
        create_simple(connection.engine, "Copy")
        yield connection


def _items(db, table: str) -> list:
    return db.execute(f"SELECT * FROM {table}").items


def _load(db, table: str, items: list) -> None:
    for item in items:
        db.engine.put_item(TableName=table, Item=item)


# ---------------------------------------------------------------- round trips

@pytest.mark.parametrize("name", ["out.ddb.json", "out.json", "out.json.gz", "out.txt"])
def test_ddb_json_round_trips_every_type(db, tmp_path, name):
    _load(db, "Items", ITEMS + [RICH])
    report = db.export_items("Items", tmp_path / name)
    assert report.format == "ddb-json" and report.exported == 4
    imported = db.import_items("Copy", tmp_path / name)
    assert imported.format == "ddb-json" and imported.imported == 4 and imported.errors == []
    assert _items(db, "Copy") == _items(db, "Items")


def test_ddb_json_is_what_dynamodbs_export_to_s3_writes(db, tmp_path):
    _load(db, "Items", ITEMS[:1])
    db.export_items("Items", tmp_path / "out.json")
    assert json.loads((tmp_path / "out.json").read_text()) == {"Item": {
        "pk": {"S": "a"}, "sk": {"N": "1"}, "name": {"S": "Ann"}, "age": {"N": "31"}, "score": {"N": "-1.25"}}}
    s3_file = tmp_path / "export.json.gz"  # an S3 export's data file: gzipped, one {"Item": …} per line
    with gzip.open(s3_file, "wt") as file:
        file.write('{"Item":{"pk":{"S":"s3"},"sk":{"N":"7"},"tags":{"SS":["a"]}}}\n')
        file.write('{"pk":{"S":"bare"},"sk":{"N":"8"}}\n')  # bare wire items are read too
    assert db.import_items("Copy", s3_file).imported == 2
    assert sorted(_items(db, "Copy"), key=lambda item: item["pk"]) == [
        {"pk": "bare", "sk": Decimal(8)}, {"pk": "s3", "sk": Decimal(7), "tags": frozenset({"a"})}]


@pytest.mark.parametrize("name,asked,format", [
    ("out.jsonl", "json", "json"), ("out.csv", None, "csv"), ("out.csv.gz", None, "csv"),
    ("out.jsonl", None, "ddb-json"),  # a JSON-lines suffix alone gets the lossless format
])
def test_plain_json_and_csv_round_trip_strings_and_numbers(db, tmp_path, name, asked, format):
    _load(db, "Items", ITEMS)
    assert db.export_items("Items", tmp_path / name, asked).format == format
    assert db.import_items("Copy", tmp_path / name).imported == 3
    assert _items(db, "Copy") == _items(db, "Items")


def test_plain_json_writes_exact_numbers_and_reads_declared_types(db, tmp_path):
    _load(db, "Items", [RICH, {"pk": "n", "sk": Decimal(1), "big": Decimal("12345678901234567890.123456789")}])
    report = db.export_items("Items", tmp_path / "out.jsonl", "json")
    assert report.warnings == [
        "1 item hold sets (SS, NS, BS): json writes them as lists, which an import reads back as lists unless "
        "it declares their types (ddb-json keeps them)",
        "1 item hold binary values (B): json writes them as base64 strings, which an import reads back as "
        "base64 strings unless it declares their types (ddb-json keeps them)"]
    assert db.export_items("Items", tmp_path / "all.jsonl").warnings == []  # ddb-json loses nothing
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert '"big":12345678901234567890.123456789' in lines[0] + lines[1]
    types = {"b": "B", "ss": "SS", "ns": "NS", "bs": "BS"}
    db.import_items("Copy", tmp_path / "out.jsonl", format="json", types=types)
    assert _items(db, "Copy") == _items(db, "Items")


def test_csv_export_puts_keys_first_and_renders_other_types_as_json(db, tmp_path):
    _load(db, "Items", [RICH])
    db.export_items("Items", tmp_path / "out.csv")
    header, row = (tmp_path / "out.csv").read_text().splitlines()
    assert header.split(",")[:2] == ["pk", "sk"]
    cells = dict(zip(header.split(","), next(csv.reader([row]))))
    assert cells["b"] == "AAE=" and cells["ok"] == "true" and cells["nothing"] == "null"
    assert json.loads(cells["map"]) == {"deep": {"er": [True]}} and json.loads(cells["ss"]) == ["x", "y"]
    types = {"b": "B", "ok": "BOOL", "nothing": "NULL", "list": "L", "map": "M", "ss": "SS", "ns": "NS",
             "bs": "BS"}
    db.import_items("Copy", tmp_path / "out.csv", types=types)
    assert _items(db, "Copy") == _items(db, "Items")


# --------------------------------------------------------------------- CSV

def test_csv_infers_numbers_and_strings_and_follows_the_key_types(db, tmp_path):
    db.engine.create_table(TableName="Codes", KeySchema=key_schema("code"), BillingMode="PAY_PER_REQUEST",
                           AttributeDefinitions=attribute_types(code="S"))
    source = tmp_path / "codes.csv"
    source.write_text("code,n,zip,big,e,neg,text,empty\n"
                      "123,42,007,123456789012345678901234567890123456789012,2e3,-0.5,12abc,\n")
    db.import_items("Codes", source)
    assert _items(db, "Codes") == [{"code": "123", "n": Decimal(42), "zip": "007",
                                    "big": "123456789012345678901234567890123456789012",
                                    "e": Decimal(2000), "neg": Decimal("-0.5"), "text": "12abc"}]


def test_csv_declared_types_win_and_problems_name_the_column(db, tmp_path):
    source = tmp_path / "typed.csv"
    source.write_text("pk,sk,age,flag\nx,1,42,true\ny,2,old,maybe\nz,3\n")
    with pytest.raises(TransferError) as caught:
        db.import_items("Items", source, types={"age": "S", "flag": "BOOL"})
    assert caught.value.report.errors == [(3, "flag: expected true or false, found 'maybe'"),
                                          (4, "expected 4 fields, found 2")]
    report = db.import_items("Items", source, types={"age": "N"}, continue_on_error=True)
    assert report.imported == 1 and [line for line, _ in report.errors] == [3, 4]
    assert "age: " in report.errors[0][1]
    assert _items(db, "Items") == [{"pk": "x", "sk": Decimal(1), "age": Decimal(42), "flag": "true"}]


@pytest.mark.parametrize("header,types,problem", [
    ("pk,sk,pk", None, "repeats pk"),
    ("pk,,sk", None, "empty column name"),
    ("pk,sk", {"age": "N"}, "lacks: age"),
])
def test_csv_header_problems_stop_the_import(db, tmp_path, header, types, problem):
    source = tmp_path / "bad.csv"
    source.write_text(header + "\na,1,2\n")
    with pytest.raises(TransferError, match=problem):
        db.import_items("Items", source, types=types, continue_on_error=True)


# --------------------------------------------------------------- bad rows

BAD_JSON = (
    '{"pk": "a", "sk": 1}\n'
    "\n"
    '{"pk": 1, "sk": 2}\n'
    "not json\n"
    "[1, 2]\n"
    '{"pk": "b"}\n'
    '{"pk": "c", "sk": 1e400}\n'
    '{"pk": "d", "sk": 4}\n'
)


def test_bad_rows_are_reported_with_line_numbers_and_nothing_is_imported(db, tmp_path):
    source = tmp_path / "bad.jsonl"
    source.write_text(BAD_JSON)
    with pytest.raises(TransferError) as caught:
        db.import_items("Items", source)
    errors = caught.value.report.errors
    assert [line for line, _ in errors] == [3, 4, 5, 6, 7]
    assert errors[0][1] == "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"
    assert errors[1][1].startswith("not valid JSON: Expecting value at column 1")
    assert errors[2][1] == "expected a JSON object, found list"
    assert errors[3][1] == "One or more parameter values were invalid: Missing the key sk in the item"
    assert "Number overflow" in errors[4][1]
    message = str(caught.value)
    assert "5 bad rows" in message and "nothing was imported" in message and "line 3:" in message
    assert _items(db, "Items") == []


def test_continue_on_error_imports_the_good_rows(db, tmp_path):
    source = tmp_path / "bad.jsonl"
    source.write_text(BAD_JSON)
    report = db.import_items("Items", source, continue_on_error=True)
    assert report.imported == 2 and report.rows == 7 and len(report.errors) == 5
    assert str(report).startswith("imported 2 items into Items from") and "5 bad rows skipped" in str(report)
    assert [item["pk"] for item in _items(db, "Items")] in (["a", "d"], ["d", "a"])


def test_ddb_json_rows_get_dynamodbs_messages(db, tmp_path):
    source = tmp_path / "bad.json"
    source.write_text('{"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}\n'
                      '{"Item": {"pk": {"S": "a"}, "sk": {"N": "x"}}}\n'
                      '{"Item": {"pk": {"S": "a"}, "sk": {"N": "2"}, "s": {"SS": []}}}\n')
    with pytest.raises(TransferError) as caught:
        db.import_items("Items", source, format="ddb-json")
    assert caught.value.report.errors == [
        (2, "The parameter cannot be converted to a numeric value: x"),
        (3, "One or more parameter values were invalid: An string set  may not be empty")]


def _create_indexed(engine) -> None:
    engine.create_table(
        TableName="Indexed", KeySchema=key_schema("pk"), BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=attribute_types(pk="S", g="N"),
        GlobalSecondaryIndexes=[{"IndexName": "ByG", "KeySchema": key_schema("g"),
                                 "Projection": {"ProjectionType": "ALL"}}])


def test_an_item_too_large_or_with_a_bad_index_key_is_a_bad_row(db, tmp_path):
    _create_indexed(db.engine)
    source = tmp_path / "rows.jsonl"
    source.write_text('{"pk": "big", "pad": "' + "x" * 410_000 + '"}\n{"pk": "g", "g": "text"}\n')
    with pytest.raises(TransferError) as caught:
        db.import_items("Indexed", source)
    assert caught.value.report.errors[0] == (1, "Item size has exceeded the maximum allowed size")
    assert "Type mismatch for Index Key g" in caught.value.report.errors[1][1]


@pytest.mark.parametrize("name, text", [
    ("rows.jsonl", '{"pk": "a", "sk": 1}\n'),
    ("rows.ddb.jsonl", '{"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}\n'),
    ("rows.csv", "pk,sk\na,1\n"),
], ids=["json", "ddb-json", "csv"])
def test_a_byte_order_mark_that_begins_a_file_is_not_part_of_its_first_row(db, tmp_path, name, text):
    source = tmp_path / name
    source.write_bytes("\ufeff".encode("utf-8") + text.encode("utf-8"))
    assert db.import_items("Items", source).imported == 1
    assert _items(db, "Items") == [{"pk": "a", "sk": Decimal(1)}]


def test_a_later_row_with_the_same_key_replaces_the_earlier(db, tmp_path):
    source = tmp_path / "dupes.jsonl"
    source.write_text('{"pk": "a", "sk": 1, "v": 1}\n{"pk": "a", "sk": 1, "v": 2}\n')
    report = db.import_items("Items", source)
    assert report.imported == 1 and report.replaced == 1
    assert _items(db, "Items") == [{"pk": "a", "sk": Decimal(1), "v": Decimal(2)}]


# (plain JSON reads integers as int and converts them itself: each must be what the Decimal reading gave)
@pytest.mark.parametrize("text, stored", [
    ("0", "0"), ("-0", "0"), ("7", "7"), ("-12", "-12"), ("9" * 38, "9" * 38), ("-" + "9" * 38, "-" + "9" * 38),
    ("1" + "0" * 40, "1" + "0" * 40), ("-" + "1" + "0" * 125, "-1" + "0" * 125), ("1.50", "1.5"), ("1e2", "100"),
    ("true", True), ("false", False), ("[1, 2.0]", ["1", "2"]), ('{"n": -3}', {"n": "-3"}),
    ("1" * 39, "error: Attempting to store more than 38 significant digits in a Number"),
    ("1" + "0" * 126, "error: Number overflow. Attempting to store a number with magnitude larger than supported range"),
    ("1" * 4400, "error: Number overflow. Attempting to store a number with magnitude larger than supported range"),
], ids=["zero", "negative-zero", "small", "negative", "38-digits", "negative-38-digits", "one-digit-of-41",
        "negative-126-digits", "trailing-zero", "exponent", "true", "false", "list", "map", "39-digits",
        "past-the-range", "past-ints-digit-limit"])
def test_plain_json_numbers_are_stored_as_dynamodb_stores_them(db, tmp_path, text, stored):
    source = tmp_path / "numbers.jsonl"
    source.write_text('{"pk": "a", "sk": 1, "v": %s}\n' % text)
    if isinstance(stored, str) and stored.startswith("error: "):
        with pytest.raises(TransferError) as caught:
            db.import_items("Items", source)
        assert caught.value.report.errors == [(1, stored[len("error: "):])]
        return
    db.import_items("Items", source)
    [item] = _items(db, "Items")
    assert _as_text(item["v"]) == stored and type(item["v"]) is type(_as_value(stored))


def _as_text(value):
    if type(value) is Decimal:
        return str(value)
    if type(value) is list:
        return [_as_text(member) for member in value]
    if type(value) is dict:
        return {name: _as_text(member) for name, member in value.items()}
    return value


def _as_value(stored):
    return Decimal(stored) if type(stored) is str else stored


def test_an_imports_write_units_are_those_of_the_rows_it_wrote(db, tmp_path):
    """One Consumed gathers every write's units: the table's and each index's, none of a bad row's."""
    _create_indexed(db.engine)
    rows = ['{"pk": "a", "g": 1}', '{"pk": "b", "g": 2, "pad": "%s"}' % ("x" * 1500), '{"pk": "c"}',
            '{"pk": "bad", "g": "text"}']
    source = tmp_path / "rows.jsonl"
    source.write_text("\n".join(rows) + "\n")
    report = db.import_items("Indexed", source, continue_on_error=True)
    assert report.imported == 3 and [line for line, _ in report.errors] == [4]
    assert report.write_units == (1 + 1) + (2 + 2) + 1  # each row's table units, and the GSI's where it has g
    with partiql.connect() as other:  # the same writes, one PutItem each
        _create_indexed(other.engine)
        units = [other.engine.put_item(TableName="Indexed", Item=json.loads(row, parse_int=Decimal),
                                       ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]["CapacityUnits"]
                 for row in rows[:3]]
    assert sum(units) == report.write_units


def test_an_item_collection_too_large_is_a_bad_row_that_costs_nothing(tmp_path):
    with partiql.connect(limits=Limits(lsi_collection_bytes=1000)) as db:  # (one item of 300 B: 620 B)
        db.engine.create_table(
            TableName="Local", KeySchema=key_schema("pk", "sk"), BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=attribute_types(pk="S", sk="N", l="S"),
            LocalSecondaryIndexes=[{"IndexName": "ByL", "KeySchema": key_schema("pk", "l"),
                                    "Projection": {"ProjectionType": "ALL"}}])
        db.engine.put_item(TableName="Local", Item={"pk": "full", "sk": Decimal(0), "l": "x" * 300})
        source = tmp_path / "rows.jsonl"
        source.write_text('{"pk": "full", "sk": 1, "l": "%s"}\n{"pk": "room", "sk": 1}\n' % ("y" * 300))
        report = db.import_items("Local", source, continue_on_error=True)
        assert report.errors == [(1, "Collection size exceeded.")]
        assert report.imported == 1 and report.write_units == 1


DEEP = 100_000  # levels: past Python's stack, as a file can be


@pytest.mark.parametrize("name, text, format, types, problem", [
    ("deep.jsonl", '{"pk": "a", "sk": 1, "x": ' + "[" * DEEP + "1" + "]" * DEEP + "}\n", None, None,
     "Nesting Levels have exceeded supported limits"),
    ("deeper-than-convert.jsonl", '{"pk": "a", "sk": 1, "x": ' + "[" * 990 + "1" + "]" * 990 + "}\n", "json",
     None, "Nesting Levels have exceeded supported limits"),
    ("deep.ddb.jsonl", '{"pk": {"S": "a"}, "sk": {"N": "1"}, "x": ' + '{"L": [' * DEEP + '{"N": "1"}'
     + "]}" * DEEP + "}\n", "ddb-json", None, "Nesting Levels have exceeded supported limits"),
    ("deep.csv", "pk,sk,x\na,1," + "[" * 30_000 + "1" + "]" * 30_000 + "\n", "csv", {"x": "L"},  # (< a field's limit)
     "x: expected JSON text for type L: Nesting Levels have exceeded supported limits"),
], ids=["json", "json-deeper-than-conversion", "ddb-json", "csv-declared-list"])
def test_a_value_nested_past_pythons_stack_is_a_bad_row(db, tmp_path, name, text, format, types, problem):
    source = tmp_path / name
    source.write_text(text)
    with pytest.raises(TransferError) as caught:
        db.import_items("Items", source, format, types=types)
    assert caught.value.report.errors == [(2 if format == "csv" else 1, problem)]


# ------------------------------------------------------------ the caller's mistakes

def test_unknown_table_format_types_or_file(db, tmp_path):
    source = tmp_path / "rows.jsonl"
    source.write_text('{"pk": "a", "sk": 1}\n')
    with pytest.raises(ResourceNotFoundException):
        db.import_items("Nope", source)
    with pytest.raises(ValueError, match="unknown format 'xml'"):
        db.import_items("Items", source, format="xml")
    with pytest.raises(ValueError, match="unknown types"):
        db.import_items("Items", source, types={"sk": "INT"})
    with pytest.raises(ValueError, match="types do not apply to ddb-json"):
        db.import_items("Items", source, format="ddb-json", types={"sk": "N"})
    with pytest.raises(FileNotFoundError):
        db.import_items("Items", tmp_path / "missing.jsonl")
    with pytest.raises(ResourceNotFoundException):
        db.export_items("Nope", tmp_path / "out.csv")


# ------------------------------------------------------------ progress, files

def test_an_import_reports_its_time_rate_and_the_write_units_dynamodb_would_charge(db, tmp_path):
    source = tmp_path / "rows.jsonl"
    source.write_text('{"pk": "a", "sk": 1}\n{"pk": "b", "sk": 2, "pad": "%s"}\n' % ("x" * 1500))
    report = db.import_items("Items", source)
    assert report.write_units == 1 + 2  # W(b) of each item as a PutItem: 1 KB units
    assert report.seconds > 0
    text = str(report)
    assert text.startswith(f"imported 2 items into Items from {source} in ")
    assert " items/s); as PutItems DynamoDB would charge 3 WCU" in text


def test_progress_is_reported_while_reading_and_writing(db, tmp_path):
    source = tmp_path / "many.jsonl"
    source.write_text("".join(f'{{"pk": "p{n}", "sk": {n}}}\n' for n in range(2500)))
    calls = []
    db.import_items("Items", source, progress=lambda *call: calls.append(call))
    stages = [stage for stage, _, _ in calls]
    assert stages == ["read", "read", "write", "write", "commit", "write"]  # says so before it commits
    assert calls[-2:] == [("commit", 2500, 2500), ("write", 2500, 2500)]
    read = [call for call in calls if call[0] == "read"]
    assert all(0 < done <= total == source.stat().st_size for _, done, total in read)
    calls.clear()
    db.export_items("Items", tmp_path / "out.csv", progress=lambda *call: calls.append(call))
    assert calls == [("write", 1000, 2500), ("write", 2000, 2500)]


def test_an_export_that_fails_leaves_no_file(db, tmp_path):
    _load(db, "Items", [{"pk": f"p{n}", "sk": n} for n in range(1500)])
    target = tmp_path / "out.csv"

    def stop(*_):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        db.export_items("Items", target, progress=stop)
    assert list(tmp_path.iterdir()) == []


def test_an_import_into_a_file_database_is_one_storage_transaction(path, tmp_path):
    source = tmp_path / "rows.jsonl"
    source.write_text("".join(f'{{"pk": "p{n}", "sk": {n}}}\n' for n in range(300)) + "oops\n")
    with partiql.connect(path) as db:
        create_simple(db.engine)
        with pytest.raises(TransferError):
            db.import_items("Items", source)
        assert file_rows(path) == 0
        db.import_items("Items", source, continue_on_error=True)
        assert file_rows(path) == 300
    with partiql.connect(path) as db:
        assert db.engine.tables["Items"].item_count == 300


def _json_containers(inner):
    """JSON arrays and objects of ``inner`` (a named function: hypothesis reads an extend lambda's source to
    check it recurses, and misreads it among its neighbours' lambdas)."""
    return st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5)
                 | st.decimals(allow_nan=False, allow_infinity=False).map(lambda d: float(d) if d.is_finite() else 0),
                 _json_containers,
                 max_leaves=8).map(json.dumps),
    st.text(alphabet=' \t\n\r{}[]":,0123456789.eE-+truefalsnx\u00a0', max_size=30)),
    st.sampled_from(["", "\n", " \n", "\r\n", "\u00a0", " x"]), st.sampled_from(["", " ", "\t"]))
def test_a_json_line_reads_as_the_decoder_reads_it(body, tail, head):
    """``_load_json`` reads a line through the decoder's scanner: the same value, or the decoder's own error."""
    text = head + body + tail
    try:
        expected = ("value", _PLAIN_JSON(text))
    except ValueError as error:
        expected = ("error", type(error), str(error))
    try:
        found = ("value", _load_json(text))
    except ValueError as error:
        found = ("error", type(error), str(error))
    assert found == expected


@settings(max_examples=400, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.integers(10 ** 36, 10 ** 130).map(lambda n: -n)
                    | st.integers(10 ** 36, 10 ** 130) | st.decimals(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=3),
                    _json_containers,
                    max_leaves=8))
def test_integers_read_as_int_become_the_values_their_decimal_reading_gives(value):
    """The plain-JSON import reads integers as int (``_INT_SCAN``): ``from_plain`` of that is the
    value, or the error, of the Decimal reading."""
    text = json.dumps(value, default=str).replace('"', "") if isinstance(value, Decimal) else json.dumps(
        value, default=lambda number: float(number))
    outcomes = []
    for scan in (_PLAIN_SCAN, _INT_SCAN):
        try:
            read = from_plain(_load_json(text, scan))
            outcomes.append(("value", _typed(read)))
        except (ValueError, DynamoDBError) as error:
            outcomes.append(("error", type(error), str(error)))
    assert outcomes[0] == outcomes[1]


def _typed(value):
    """A value with each member's type beside it (True == Decimal(1), but they are different values)."""
    if type(value) is list:
        return [_typed(member) for member in value]
    if type(value) is dict:
        return {name: _typed(member) for name, member in value.items()}
    return type(value).__name__, str(value)


@settings(max_examples=400, deadline=None)
@given(st.one_of(
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                 _json_containers,
                 max_leaves=8).map(lambda value: json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")),
    st.binary(max_size=12)),
    st.sampled_from([b"", b"\n", b" \n", b"\r\n", b"\xa0", b" x"]),
    st.sampled_from([b"", b" ", b"\xef\xbb\xbf", b"\xff", b"\xed\xa0\x80"]),
    st.sampled_from(["utf-8", "utf-16"]))
def test_a_ddb_json_line_reads_as_json_loads_reads_it(body, tail, head, encoding):
    """``_load_wire_json`` reads UTF-8 lines through the scanner: the value ``json.loads`` gives the
    bytes, or its error — with a byte-order mark, UTF-16, bad UTF-8 or an encoded surrogate too."""
    data = head + body + tail
    if encoding == "utf-16":
        data = data.decode("utf-8", "surrogatepass").encode("utf-16", "surrogatepass") if _decodes(data) else data
    outcomes = []
    for load in (json.loads, _load_wire_json):
        try:
            outcomes.append(("value", load(data)))
        except ValueError as error:
            outcomes.append(("error", type(error), str(error)))
    assert outcomes[0] == outcomes[1]


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8", "surrogatepass")
        return True
    except UnicodeDecodeError:
        return False


FILE_PIECES = ['{"pk": "a", "sk": 1}', '{"pk": {"S": "a"}, "sk": {"N": "1"}}', '{"Item": {"pk": {"S": "b"}}}',
               "pk,sk,x", "a,1,[1]", '"', "\n", ",", "{", "}", "[", "]", ":", '"N"', '"S"', '"L"', '"M"',
               '"BS"', '"B"', '"NULL": true', "1e400", "-0", "\u00e9", "\ud800", "\x00", "\r\n", " ", "\ufeff",
               "NaN", "-Infinity", "\xff"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FILE_PIECES), max_size=30).map("".join), st.sampled_from([None, "json", "ddb-json",
                                                                                        "csv"]),
       st.booleans())
def test_any_file_imports_or_fails_with_a_transfer_error(tmp_path_factory, text, format, continue_on_error):
    """No file content ends an import in another exception: rows are imported or reported bad."""
    source = tmp_path_factory.mktemp("fuzz") / ("rows.csv" if format == "csv" else "rows.jsonl")
    data = text.encode("utf-8", "surrogatepass").replace("\xff".encode(), b"\xff")  # (a byte that is not UTF-8)
    if len(text) % 3 == 0:  # (a third of them gzipped, cut short at a place the text picks)
        source = source.with_name(source.name + ".gz")
        data = gzip.compress(data)[:max(1, len(data) * 7 % 40)] if len(text) % 2 else gzip.compress(data)
    source.write_bytes(data)
    with partiql.connect() as db:
        create_simple(db.engine, "Items")
        try:
            report = db.import_items("Items", source, format, continue_on_error=continue_on_error,
                                     types={"x": "L"} if format == "csv" and text.startswith("pk,sk,x") else None)
        except TransferError as error:
            assert error.report is not None and (error.report.errors or "cannot import" in str(error))
            assert _items(db, "Items") == []  # (nothing half-applied)
        else:
            assert report.imported == len(_items(db, "Items"))
