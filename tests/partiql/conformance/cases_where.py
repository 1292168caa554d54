"""§9.2 WHERE functions and operators (C-067 … C-088): F-H, keyed on Ha, all point reads."""

from partiql.engine.errors import ValidationException as VE

from .fixtures import HA
from .texts import OPERAND
from .harness import at, case

KEYED = "SELECT * FROM HHH WHERE pk = 'a' AND "
NUMBERS_101 = ", ".join(str(i) for i in range(101))
EXISTS_STATEMENT = KEYED + "EXISTS(ss)"


def keyed(id: str, condition: str, hit: bool, **options):
    """A point read of Ha with an extra condition: [Ha] when ``hit``, else []."""
    return case(id, "F-H", KEYED + condition, items=[HA] if hit else [], path="GetItem", reads=1,
                capacity=0.5, **options)


def refused(id: str, condition: str, message: str, **options):
    return case(id, "F-H", KEYED + condition, error=(VE, message), **options)


CASES = [
    keyed("C-067a", "attribute_type(ss, 'SS')", True),
    keyed("C-067b", "attribute_type(ss, 'S')", False),
    keyed("C-068a", "size(s) = 3", True),
    keyed("C-068b", "size(s) = 4", False),
    keyed("C-069a", "contains(ss, 'b')", True),
    keyed("C-069b", "contains(s, 'tr')", True),
    keyed("C-069c", "contains(l, 'a')", True),
    keyed("C-070", "begins_with(s, 'st')", True),
    keyed("C-071a", "nul IS NULL", True),
    keyed("C-071b", "s IS NULL", False),
    keyed("C-071c", "s IS NOT NULL", True),
    keyed("C-071d", "nope IS NULL", False),
    keyed("C-072a", "nope IS MISSING", True),
    keyed("C-072b", "s IS NOT MISSING", True),
    keyed("C-073a", "flag IS BOOL", True),
    keyed("C-073b", "s IS STRING", True),
    keyed("C-073c", "s IS BOOL", False),
    keyed("C-074a", "attribute_exists(m.sub)", True),
    keyed("C-074b", "ATTRIBUTE_EXISTS(m.nope)", False),
    keyed("C-074c", "attribute_not_exists(nope)", True),
    refused("C-075", "attribute_exists('ss')",
            "Operator or function requires a document path; operator or function: attribute_exists"),
    refused("C-076", "EXISTS(ss)", "Unrecognized function: exists" + at(EXISTS_STATEMENT, "EXISTS")),
    refused("C-077", "s < true", OPERAND.format("<", "BOOL")),
    keyed("C-078", "n < 'x'", False),
    keyed("C-079a", "ss = ?", True, params=[{"c", "a", "b"}]),
    keyed("C-079b", "l = ?", False, params=[["b", "a"]]),
    refused("C-080", "nope = MISSING", "MISSING must be compared using IS operator"),
    keyed("C-081a", "attribute_exists(nope) = false", True),
    refused("C-081b", "attribute_exists(n) > false", OPERAND.format(">", "BOOL")),
    keyed("C-082", "n IN [?, 2]", True, params=[5]),
    refused("C-083", f"n IN [{NUMBERS_101}]",
            "The IN operator is provided with too many operands; number of operands: 101"),
    refused("C-084", "n = ?", "Number of parameters in request and statement don't match."),
    refused("C-085", "n = ?", "The parameter cannot be converted to a numeric value: abc",
            wire_params=[{"N": "abc"}]),
    refused("C-086", "n = 1e126",
            "Number overflow. Attempting to store a number with magnitude larger than supported range under root"),
    refused("C-087", "n = 123456789012345678901234567890123456789",
            "Attempting to store more than 38 significant digits in a Number under root"),
    keyed("C-088", "n = 5.0e0", True),
]
