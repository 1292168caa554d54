"""§9.8 index reads (C-171 … C-182), §9.9 write capacity with indexes (C-183 … C-191),
§9.11 index resolution (C-198 … C-206)."""

from partiql.engine.errors import ValidationException as VE

from .fixtures import FILLER, S1, S2, S4
from .texts import STRONG_GSI
from .harness import case

MULTI_ATTRIBUTE = "our engine cannot create multi-attribute GSI keys (CreateTable accepts one HASH and one RANGE)"
C1 = "INSERT INTO WWW VALUE {'pk':'c1','sk':'1','gsiPk':'g1','lsiSk':'L1','proj':'p','other':'o'}"
C5 = "INSERT INTO WWW VALUE {'pk':'c5','sk':'1','gsiPk':'g1','proj':?}"


def keys(*items, names=("pk", "sk", "gsiPk2")) -> list:
    return [{n: item[n] for n in names if n in item} for item in items]


def arms(total, table, gsi=None, lsi=None, name="WWW", gsi_name="gsi-inc", lsi_name="lsi-all") -> dict:
    """ExecuteStatement's INDEXES ConsumedCapacity (no read/write split)."""
    out = {"TableName": name, "CapacityUnits": total, "Table": {"CapacityUnits": table}}
    if gsi is not None:
        out["GlobalSecondaryIndexes"] = {gsi_name: {"CapacityUnits": gsi}}
    if lsi is not None:
        out["LocalSecondaryIndexes"] = {lsi_name: {"CapacityUnits": lsi}}
    return out


READS = [
    case("C-171", "F-X", "SELECT * FROM XXX.\"gsi-all\" WHERE gsiPk = 'x'", unordered=[S1, S4], path="Query",
         index="gsi-all", consumed=("INDEXES", arms(0.5, 0.0, gsi=0.5, name="XXX", gsi_name="gsi-all"))),
    case("C-172", "F-X", "SELECT * FROM XXX.\"gsi-all\"", unordered=[S1, S2, S4], path="Scan", index="gsi-all"),
    case("C-173", "F-X", "SELECT * FROM XXX.\"gsi-keys\"", unordered=keys(S1, S2, S4), path="Scan"),
    case("C-174", "F-X", "SELECT * FROM XXX.\"gsi-inc\"",
         unordered=keys(S1, S2, S4, names=("pk", "sk", "gsiPk2", "projattr")), path="Scan"),
    case("C-175", "F-X", "SELECT nonproj FROM XXX.\"gsi-inc\"",
         error=(VE, "One or more parameter values were invalid: Global secondary index gsi-inc does not project "
                    "[nonproj]")),
    case("C-176", "F-X", "SELECT * FROM XXX.\"gsi-inc\" WHERE gsiPk2 = 'x2' AND nonproj = 'N1'",
         error=(VE, "One or more parameter values were invalid: Secondary index gsi-inc does not project one or "
                    "more filter attributes: [nonproj]")),
    case("C-177", "F-X", "SELECT * FROM XXX.\"gsi-inc\" WHERE nonproj = 'N1'", items=[], path="Scan"),
    case("C-178", "F-X", "SELECT * FROM XXX.\"gsi-all\" WHERE gsiPk = 'x'", consistent=True, error=(VE, STRONG_GSI)),
    case("C-179", "F-X", "SELECT * FROM XXX.\"lsi-all\" WHERE pk = 'p'", consistent=True, items=[S1, S2, S4],
         path="Query", index="lsi-all",
         consumed=("INDEXES", arms(1.0, 0.0, lsi=1.0, name="XXX"))),
    case("C-180", "F-X", "SELECT projattr FROM XXX.\"lsi-keys\" WHERE pk = 'p'",
         items=[{"projattr": "P1"}, {"projattr": "P2"}, {"projattr": "P4"}], path="Query",
         consumed=("INDEXES", arms(2.0, 1.5, lsi=0.5, name="XXX", lsi_name="lsi-keys"))),
    case("C-181", "F-X", "SELECT * FROM XXX.\"gsi-all\" WHERE pk = 'p'", unordered=[S1, S2, S4], path="Scan",
         index="gsi-all"),
    case("C-182", "F-X", "SELECT * FROM XXX WHERE gsiPk = 'x'", unordered=[S1, S4], path="Scan", index=None),
    case("C-204", "F-X", "SELECT * FROM XXX.\"no-such-index\"", consistent=True,
         error=(VE, "The table does not have the specified index")),
    case("C-205", "F-X", "SELECT * FROM XXX.\"gsi-all\"", consistent=True, error=(VE, STRONG_GSI)),
]

WRITES = [
    case("C-183", "F-W", C1, consumed=("INDEXES", arms(3.0, 1.0, gsi=1.0, lsi=1.0))),
    case("C-184", "F-W", "UPDATE WWW SET other='o2' WHERE pk='c1' AND sk='1'", setup=[C1],
         consumed=("INDEXES", arms(2.0, 1.0, lsi=1.0))),
    case("C-185", "F-W", "UPDATE WWW SET gsiPk='g2' WHERE pk='c1' AND sk='1'", setup=[C1],
         consumed=("INDEXES", arms(4.0, 1.0, gsi=2.0, lsi=1.0))),
    case("C-186", "F-W", "DELETE FROM WWW WHERE pk='c1' AND sk='1'", setup=[C1],
         consumed=("INDEXES", arms(3.0, 1.0, gsi=1.0, lsi=1.0))),
    case("C-187", "F-W", C5, params=[FILLER], consumed=("INDEXES", arms(6.0, 3.0, gsi=3.0))),
    case("C-188", "F-W", "UPDATE WWW SET proj='p' WHERE pk='c5' AND sk='1'", setup=[(C5, [FILLER])],
         consumed=("INDEXES", arms(6.0, 3.0, gsi=3.0))),
    case("C-189", "F-W", "DELETE FROM WWW WHERE pk='zz' AND sk='1'", consumed=("INDEXES", arms(1.0, 1.0))),
    case("C-190", "F-W", "INSERT INTO WWW VALUE {'pk':'m3','sk':'1','other':'o'}",
         consumed=("INDEXES", arms(1.0, 1.0))),
    case("C-191", "F-W", C1, consumed=("TOTAL", {"TableName": "WWW", "CapacityUnits": 3.0})),
]

MULTI = [case(f"C-{n}", "F-H", skip=MULTI_ATTRIBUTE) for n in range(198, 204)]

CASES = [*READS, *WRITES, *MULTI]
