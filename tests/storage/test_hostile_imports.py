"""Import files that once ended in a traceback, swallowed rows or took minutes (issue 39): each is a bad
row with its line, skippable with continue_on_error, or a clear refusal of the file; never anything else."""

from __future__ import annotations

import gzip

import pytest

import partiql
from partiql.transfer import TransferError

from .helpers import create_simple


def _gz(text: str, cut: int = 0) -> bytes:
    data = gzip.compress(text.encode("utf-8"))
    return data[:len(data) - cut] if cut else data


WIDE = 200_000
CASES = {  # file name, its bytes -> the bad rows (line, words), the sort keys continue_on_error imports
    "NaN in plain JSON": ("rows.jsonl", b'{"pk": "a", "sk": 1, "v": NaN}\n{"pk": "a", "sk": 2}\n',
                          [(1, "not valid JSON: NaN is not a JSON number")], [2]),
    "-Infinity in plain JSON": ("rows.jsonl", b'{"pk": "a", "sk": 1}\n{"pk": "a", "sk": 2, "v": [-Infinity]}\n',
                                [(2, "not valid JSON: -Infinity is not a JSON number")], [1]),
    "Infinity in DynamoDB JSON": ("rows.ddb.json", b'{"pk": {"S": "a"}, "sk": {"N": Infinity}}\n'
                                  b'{"pk": {"S": "a"}, "sk": {"N": "2"}}\n',
                                  [(1, "not valid JSON: Infinity is not a JSON number")], [2]),
    "a .gz cut short": ("rows.jsonl.gz", _gz('{"pk": "a", "sk": 1}\n{"pk": "a", "sk": 2}\n', cut=6),
                        [(3, "the compressed file is cut short or damaged here")], [1, 2]),
    "a .gz cut in its first block": ("rows.jsonl.gz", _gz('{"pk": "a", "sk": 1}\n' * 50)[:20],
                                     [(1, "the compressed file is cut short or damaged here")], []),
    "a .gz that is not gzip": ("rows.jsonl.gz", b"plain text, not gzip\n",
                               [(1, "the compressed file is cut short or damaged here (Not a gzipped file")], []),
    "invalid UTF-8 in a CSV row": ("rows.csv", b"pk,sk,v\na,1,x\na,2,\xff\xfe\na,3,z\n",
                                   [(3, "not UTF-8 text (byte 5 of the line: invalid start byte)")], [1, 3]),
    "an unbalanced CSV quote": ("rows.csv", b'pk,sk,v\na,1,"open\na,2,y\na,3,z\n',
                                [(2, "a quoted field opened on this line is not closed; the lines after it are "
                                     "read again")], [2, 3]),
    "a CSV quote closing where no field ends": (
        "rows.csv", b'pk,sk,v\na,1,"open\na,2,y\na,3,"two\nlines"\na,4,w\n',
        [(2, "a quoted field opened on this line closes where no field ends; the lines after it are read again")],
        [2, 3, 4]),
    "a CSV quote closing into a row of another width": (
        "rows.csv", b'pk,sk,v\na,1,"x\ny",extra\na,3,z\n',
        [(2, "a quoted field opened on this line closes into a row of 4 fields where 3 were expected"),
         (3, "a quoted field opened on this line is not closed")], [3]),
    "a CSV quote open past a megabyte": ("rows.csv", b'pk,sk,v\na,1,"open\n' + b"a,2,y\n" * 200_000,
                                         [(2, "a quoted field opened on this line is not closed")], [2]),
    "a CSV of 200,000 columns": ("rows.csv", ("pk,sk," + ",".join(f"c{n}" for n in range(WIDE)) + "\n"
                                              + "a,1,x" + "," * (WIDE - 1) + "\n").encode(), [], [1]),
}


@pytest.mark.parametrize("name, data, errors, kept", CASES.values(), ids=CASES)
def test_a_hostile_file_is_bad_rows_with_their_lines_or_imports(tmp_path, name, data, errors, kept):
    source = tmp_path / name
    source.write_bytes(data)
    with partiql.connect() as db:
        create_simple(db.engine, "Items")
        if errors:
            with pytest.raises(TransferError) as caught:
                db.import_items("Items", source)
            assert db.engine.scan(TableName="Items")["Count"] == 0  # (nothing half-applied)
            _match(caught.value.report.errors, errors)
        report = db.import_items("Items", source, continue_on_error=True)
        _match(report.errors, errors)
        assert sorted(int(item["sk"]) for item in db.engine.scan(TableName="Items")["Items"]) == kept


def _match(found: list, expected: list) -> None:
    assert [line for line, _ in found] == [line for line, _ in expected], found
    assert all(text.startswith(words) for (_, text), (_, words) in zip(found, expected)), found


def test_a_quoted_field_over_several_lines_still_reads_as_one_cell(tmp_path):
    source = tmp_path / "rows.csv"
    source.write_bytes(b'pk,sk,v\na,1,"one\r\ntwo, ""three"""\na,2,plain\n')
    with partiql.connect() as db:
        create_simple(db.engine, "Items")
        db.import_items("Items", source)
        assert [item.get("v") for item in db.engine.scan(TableName="Items")["Items"]] == ['one\r\ntwo, "three"', "plain"]


def test_a_header_that_is_not_utf8_refuses_the_file_naming_its_line(tmp_path):
    source = tmp_path / "rows.csv"
    source.write_bytes(b"pk,sk,\xff\na,1,x\n")
    with partiql.connect() as db:
        create_simple(db.engine, "Items")
        with pytest.raises(TransferError, match="line 1: unreadable header: not UTF-8 text"):
            db.import_items("Items", source, continue_on_error=True)
