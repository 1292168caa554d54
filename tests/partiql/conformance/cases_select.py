"""§9.1 SELECT: access paths, results, capacity (C-001 … C-066), plus C-197 and C-206."""

from partiql.engine.errors import ResourceNotFoundException as RNF
from partiql.engine.errors import ValidationException as VE

from .fixtures import C1, C2, C3, C4, HA, HB
from .texts import KEY_TYPE, OVERLAP, TOO_MANY, WELL_FORMED, values
from .harness import RESUME, at, case, step

LIMIT_1 = "SELECT * FROM CCC WHERE pk = 'p' LIMIT 1"
COUNT_ERROR = "Unexpected path component at 1:8:5"
SK = lambda *values: [{"sk": v} for v in values]  # noqa: E731
U_ITEM = {"pk": "u", "s": "\U0001F600"}


def _first_page_is_one_megabyte(result, db) -> None:
    """C-197: the page stops at the item that crosses 1,048,576 evaluated bytes (it is included)."""
    from partiql.engine.types import item_size
    sizes = [item_size(db.engine.get("HHH", (item["pk"], None))[0].item) for item in result.items]
    assert sum(sizes[:-1]) < 1_048_576 <= sum(sizes)
    assert result.next_token is not None and result.scanned_count == len(sizes)


def _rest_of_the_table(db) -> None:
    pages = list(db.pages("SELECT pk FROM HHH"))
    assert sum(len(p.items) for p in pages) == 302 and pages[-1].next_token is None


BIG_ROWS = [("HHH", {"pk": f"r{i:03d}", "d": "x" * 3993}) for i in range(300)]  # 4,000 B each

CASES = [
    case("C-001", "F-H", "SELECT * FROM HHH WHERE pk = 'a'", items=[HA], path="GetItem", reads=1, capacity=0.5),
    case("C-002", "F-H", "SELECT * FROM HHH WHERE pk = 'a'", consistent=True, items=[HA], path="GetItem",
         capacity=1.0),
    case("C-003", "F-H", "SELECT * FROM HHH WHERE pk = 'zzz'", items=[], path="GetItem", capacity=0.5),
    case("C-004", "F-H", 'SELECT * FROM "HHH"', unordered=[HA, HB], next_token=False, path="Scan", capacity=0.5),
    case("C-005", "F-H", "select * from HHH", unordered=[HA, HB], path="Scan", capacity=0.5),
    case("C-006", "F-H", "SELECT unique_key FROM HHH", items=[{}, {}], path="Scan", capacity=0.5),
    case("C-007", "F-H", "SELECT pk FROM HHH WHERE s = 'other'", items=[{"pk": "b"}], path="Scan", capacity=0.5),
    case("C-008", "F-H", "SELECT * FROM HHH WHERE pk = ?", params=["a"], items=[HA], path="GetItem"),
    case("C-009", "F-H", "SELECT * FROM HHH WHERE pk = 'a' OR pk = 'b'", unordered=[HA, HB], path="GetItem",
         reads=2, capacity=1.0),
    case("C-010", "F-H", "SELECT * FROM HHH WHERE pk IN ['a','b','zzz']", unordered=[HA, HB], path="GetItem",
         reads=3, capacity=1.5),
    case("C-011", "F-H", f"SELECT * FROM HHH WHERE pk IN [{values(51)}]", error=(VE, TOO_MANY)),
    case("C-012", "F-H", "SELECT * FROM HHH WHERE pk IN ['a','a']", error=(VE, OVERLAP)),
    case("C-013", "F-H", "SELECT * FROM HHH WHERE pk = 'a' OR s = 'other'", unordered=[HA, HB], path="Scan",
         capacity=0.5),
    case("C-014", "F-H", "SELECT * FROM HHH WHERE pk > 'a'", items=[HB], path="Scan"),
    case("C-015", "F-H", "SELECT * FROM HHH WHERE pk <> 'a'", items=[HB], path="Scan"),
    case("C-016", "F-H", "SELECT * FROM HHH WHERE NOT pk = 'a'", items=[HB], path="Scan"),
    case("C-017", "F-H", "SELECT * FROM HHH WHERE pk > 1", items=[], path="Scan"),
    case("C-018", "F-H", "SELECT * FROM HHH WHERE pk = 1", error=(VE, KEY_TYPE.format("pk"))),
    case("C-019", "F-H", "SELECT * FROM HHH WHERE pk = 1 OR pk = 'a'", error=(VE, KEY_TYPE.format("pk"))),
    case("C-020", "F-C", "SELECT * FROM CCC WHERE pk = 'p'", items=[C1, C2, C3], path="Query", capacity=0.5),
    case("C-021", "F-C", "SELECT * FROM CCC WHERE pk = 'p' AND sk = '2'", items=[C2], path="GetItem",
         capacity=0.5),
    case("C-022", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND sk > '1'", items=SK("2", "3"), path="Query",
         capacity=0.5),
    case("C-023", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND sk BETWEEN '2' AND '3'", items=SK("2", "3"),
         path="Query"),
    case("C-024", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND begins_with(sk, '1')", items=SK("1"),
         path="Query"),
    case("C-025", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND sk <> '1'", items=SK("2", "3"), path="Query"),
    case("C-026", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND tag = 'x'", items=SK("1", "3"), path="Query",
         capacity=0.5),
    case("C-027", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND (sk = '1' OR sk = '3')",
         unordered=SK("1", "3"), path="GetItem", reads=2),
    case("C-028", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND sk IN ['1','3']", unordered=SK("1", "3"),
         path="GetItem", reads=2),
    case("C-029", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND (sk < '2' OR sk > '2' OR sk = '2')",
         unordered=SK("1", "2", "3"), reads=3),
    case("C-030", "F-C", "SELECT * FROM CCC WHERE pk = 'p' AND (sk > '0' OR sk < '5')", error=(VE, OVERLAP)),
    case("C-031", "F-C", "SELECT * FROM CCC WHERE pk = 'p' AND (sk = '1' OR tag = 'y')", error=(VE, OVERLAP)),
    case("C-032", "F-C", "SELECT * FROM CCC WHERE (pk = 'p' AND tag = 'x') OR (pk = 'p' AND tag = 'y')",
         error=(VE, OVERLAP)),
    case("C-033", "F-C", "SELECT sk FROM CCC WHERE pk = 'p' AND NOT sk = '1' OR pk = 'p' AND sk = '2'",
         unordered=SK("2", "3"), path="Query", reads=1),
    case("C-034", "F-C", "SELECT * FROM CCC WHERE pk = 'p' OR sk = '1'", unordered=[C1, C2, C3, C4],
         path="Scan"),
    case("C-035", "F-C", "SELECT * FROM CCC WHERE sk = '1'", unordered=[C1, C4], path="Scan"),
    case("C-036", "F-C", "SELECT * FROM CCC WHERE pk = 'p' AND sk IN ['1', 2]", error=(VE, KEY_TYPE.format("sk"))),
    case("C-037", "F-CN", "SELECT sk FROM CNN WHERE pk = 'o' ORDER BY sk DESC", items=SK(3, 2, 1), path="Query"),
    case("C-038", "F-CN", "SELECT sk FROM CNN WHERE pk = 'o' ORDER BY sk ASC", items=SK(1, 2, 3), path="Query"),
    case("C-039", "F-C", "SELECT * FROM CCC ORDER BY sk",
         error=(VE, "Must have WHERE clause in the statement when using ORDER BY clause.")),
    case("C-040", "F-C", "SELECT * FROM CCC WHERE tag = 'x' ORDER BY sk",
         error=(VE, "Must have at least one non-optional hash key condition in WHERE clause when using ORDER "
                    "BY clause.")),
    case("C-041", "F-C", "SELECT * FROM CCC WHERE pk = 'p' ORDER BY tag",
         error=(VE, "Variable reference tag in ORDER BY clause must be part of the primary key")),
    case("C-042", "F-C", "SELECT * FROM CCC ORDER BY pk WHERE pk = 'p'",
         error=(VE, WELL_FORMED + "Unexpected token after expression")),
    case("C-043", "F-C", None,
         step("SELECT * FROM CCC WHERE pk = 'p'", limit=2, items=[C1, C2], next_token=True, capacity=0.5),
         step("SELECT * FROM CCC WHERE pk = 'p'", limit=2, token=RESUME, items=[C3], next_token=False,
              capacity=0.5)),
    case("C-044", "F-C", "SELECT * FROM CCC WHERE pk = 'p' AND tag = 'y'", limit=1, items=[], next_token=True),
    case("C-045", "F-C", None,
         step("SELECT * FROM CCC WHERE pk = 'p'", limit=3, items=[C1, C2, C3], next_token=True),
         step("SELECT * FROM CCC WHERE pk = 'p'", limit=3, token=RESUME, items=[], next_token=False)),
    case("C-046", "F-C", "SELECT * FROM CCC WHERE pk = 'p'", limit=0,
         error=(VE, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member "
                    "must have value greater than or equal to 1")),
    case("C-047", "F-C", LIMIT_1, error=(VE, "Unsupported clause: LIMIT" + at(LIMIT_1, "LIMIT"))),
    case("C-048a", "F-C", "SELECT COUNT(*) FROM CCC", error=(VE, COUNT_ERROR)),
    case("C-048b", "F-C", "SELECT COUNT(*) FROM Nope", error=(VE, COUNT_ERROR)),
    case("C-049", "F-C", "SELECT DISTINCT pk FROM CCC", error=(VE, "Unsupported token in expression: DISTINCT")),
    case("C-050a", "F-C", "SELECT * FROM CCC t WHERE pk = 'p'", error=(VE, "Aliasing is not supported")),
    case("C-050b", "F-C", "SELECT * FROM CCC AS t WHERE pk = 'p'", error=(VE, "Aliasing is not supported")),
    case("C-051", "F-C", "SELECT pk AS k FROM CCC", error=(VE, "Aliasing is not supported")),
    case("C-052", "F-C", "SELECT * FROM my-table", error=(VE, "Unexpected from source")),
    case("C-053", "F-C", 'SELECT * FROM "Nope"', error=(RNF, "Requested resource not found")),
    case("C-054", "F-C", 'SELECT * FROM CCC."nosuch"', error=(VE, "The table does not have the specified index")),
    case("C-055", "F-C", 'SELECT * FROM "Nope"."idx"', error=(RNF, "Requested resource not found")),
    case("C-056", "F-C", 'SELECT * FROM "CCC"."a"."b"',
         error=(VE, "A path may contain at most 2 components in the FROM clause")),
    case("C-057", "F-C", 'SELECT * FROM ""', error=(VE, "Path component cannot be an empty string")),
    case("C-058", "F-H", "SELECT m.sub, l[1] FROM HHH WHERE pk = 'a'", items=[{"sub": "x", "l[1]": "b"}],
         path="GetItem", capacity=0.5),
    case("C-059", "F-H", "SELECT m.sub, x.sub FROM HHH",
         error=(VE, "Duplicate identifiers in select clause: sub")),
    case("C-060a", "F-H", "SELECT l[-1] FROM HHH WHERE pk = 'a'",
         error=(VE, "List index is not within the allowable range; index: [-1] at 1:11:1")),
    case("C-060b", "F-H", "SELECT l[-0] FROM HHH WHERE pk = 'a'", items=[{"l[0]": "a"}]),
    case("C-061", "F-H", "SELECT * FROM HHH WHERE pk = 'a' foo",
         error=(VE, WELL_FORMED + "Unexpected token after expression")),
    case("C-062", "F-H", "SELECT * FROM HHH WHERE", error=(VE, WELL_FORMED + "Unexpected term")),
    case("C-063", "F-H", "SELECT * FROM HHH WHERE pk = 'a' AND",
         error=(VE, WELL_FORMED + "Missing right-hand side expression of infix operator")),
    case("C-064", "F-H", "SELECT * FROM HHH WHERE pk = 'a' # note", error=(VE, WELL_FORMED)),
    case("C-065", "F-H", "-- c\nSELECT/**/* FROM HHH /* x */ WHERE pk = 'a'; -- done", items=[HA],
         path="GetItem"),
    case("C-066", "F-H", "SLECT * FROM HHH", error=(VE, WELL_FORMED + "Expected data manipulation")),
    case("C-197", "F-H", "SELECT pk FROM HHH", seed=BIG_ROWS, next_token=True,
         check=lambda result, db: (_first_page_is_one_megabyte(result, db), _rest_of_the_table(db))),
    case("C-206a", "F-H", "SELECT * FROM HHH WHERE size(s) = 3", items=[HA], path="Scan"),
    case("C-206b", "F-H", "SELECT * FROM HHH WHERE size(s) = 2", seed=[("HHH", U_ITEM)], items=[U_ITEM]),
]
