"""§8.3 validation order: each row has two (or more) faults; the earlier step's error must win.

1 request shape and parameter values · 2 parse · 3 catalog-free translation · 4 table / index
· 5 keys: types, decomposition, overlap (§3.1 steps 6–8) · ORDER BY (§3.1 step 10) · 6 index
projections, then ConsistentRead on a GSI · 7 execution.
"""

from partiql.engine.errors import ConditionalCheckFailedException as CCF
from partiql.engine.errors import ResourceNotFoundException as RNF
from partiql.engine.errors import ValidationException as VE

from .texts import KEY_TYPE, ORDER_KEY, OVERLAP, WELL_FORMED
from .harness import case

FIXTURES = ("F-H", "F-C", "F-X")
NOT_PROJECTED = "One or more parameter values were invalid: Global secondary index gsi-inc does not project [nonproj]"
LIMIT_0 = ("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value "
           "greater than or equal to 1")
EMPTY_SET = "One or more parameter values were invalid: An string set  may not be empty"
VALUES_51 = ", ".join(["1"] + [f"'v{i}'" for i in range(50)])


def first(id: str, statement: str, error: tuple, **options):
    return case(id, FIXTURES, statement, error=error, **options)


CASES = [
    first("V-01", "SELECT * FROM HHH WHERE", (VE, LIMIT_0), limit=0),
    first("V-02", "S" * 8193, (VE, "1 validation error detected: Value '" + "S" * 8193 + "' at 'statement' failed "
                                   "to satisfy constraint: Member must have length less than or equal to 8192")),
    first("V-03", "", (VE, "1 validation error detected: Value '' at 'statement' failed to satisfy constraint: "
                           "Member must have length greater than or equal to 1")),
    first("V-04", "SELECT * FROM HHH WHERE", (VE, EMPTY_SET), params=[set()]),
    first("V-05", "SELECT COUNT(*) FROM HHH WHERE", (VE, WELL_FORMED + "Unexpected term")),
    first("V-06", "SELECT COUNT(*) FROM Nope", (VE, "Unexpected path component at 1:8:5")),
    first("V-07", "INSERT INTO Nope VALUE {'pk': <<>>}", (VE, "Empty bags are not supported")),
    first("V-08", "UPDATE Nope.\"idx\" SET a = 1 WHERE pk = 'a'", (VE, "This operation is not supported on an index")),
    first("V-09", "SELECT * FROM Nope WHERE pk = 1 ORDER BY tag", (RNF, "Requested resource not found")),
    first("V-10", 'SELECT * FROM XXX."nope" WHERE pk = 1', (VE, "The table does not have the specified index"),
          consistent=True),
    first("V-11", f"SELECT * FROM HHH WHERE pk IN [{VALUES_51}]", (VE, KEY_TYPE.format("pk"))),
    first("V-12", "SELECT * FROM CCC WHERE pk = 1 ORDER BY tag", (VE, KEY_TYPE.format("pk"))),
    first("V-13", "SELECT * FROM CCC WHERE pk IN ['p', 'p'] ORDER BY tag", (VE, OVERLAP)),
    first("V-14", 'SELECT nonproj FROM XXX."gsi-inc" WHERE gsiPk2 = 1', (VE, KEY_TYPE.format("gsiPk2"))),
    first("V-15", 'SELECT nonproj FROM XXX."gsi-inc" WHERE gsiPk2 = \'x2\' ORDER BY nonproj',
          (VE, ORDER_KEY.format("nonproj"))),
    first("V-16", 'SELECT nonproj FROM XXX."gsi-inc"', (VE, NOT_PROJECTED), consistent=True),
    first("V-17", 'SELECT * FROM XXX."gsi-all" WHERE gsiPk = 1', (VE, KEY_TYPE.format("gsiPk")), consistent=True),
    first("V-18", 'SELECT * FROM XXX."gsi-all" WHERE gsiPk = \'x\' ORDER BY tag', (VE, ORDER_KEY.format("tag")),
          consistent=True),
    first("V-19", "UPDATE HHH SET n = 'a' + 1 WHERE pk = 1",
          (VE, "Incorrect operand type for operator or function; operator or function: +, operand type: S")),
    # A run-time update error loses to a false condition (UpdateItem checks the condition first).
    first("V-20", "UPDATE HHH SET n = s + 1 WHERE pk = 'a' AND nope = 'x'", (CCF, "The conditional request failed")),
    # INF: the key requirement is checked before the SET targets.
    first("V-21", "UPDATE HHH SET pk = 'x' WHERE s = 'str'",
          (VE, "Where clause does not contain a mandatory equality on all key attributes")),
    first("V-22", "SELECT * FROM HHH WHERE pk = ? AND n = ?", (VE, "Number of parameters in request and statement "
                                                                   "don't match."), params=["a"]),
]
