"""DynamoDB's message texts that several case tables expect (spec §8), written once."""

WELL_FORMED = "Statement wasn't well formed, can't be processed: "
KEY_TYPE = "Key attribute's data type should match its data type in table's schema: Key {}"
OVERLAP = "Overlapping conditions with range keys are not supported in where clause"
TOO_MANY = "Too many decomposed read operations for a given query."
NO_KEY = "Where clause does not contain a mandatory equality on all key attributes"
FAILED = "The conditional request failed"
STRONG_GSI = "Strongly consistent read is not supported on Global Secondary Indexes"
OPERAND = "Incorrect operand type for operator or function; operator or function: {}, operand type: {}"
BATCH_SELECT = "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
IN_TX = "Validation failed in TransactStatements[{}]: {}"
TX_SELECT = IN_TX.format(0, "Select statements within ExecuteTransaction must specify the primary key in the where "
                            "clause.")
ORDER_KEY = "Variable reference {} in ORDER BY clause must be part of the primary key"


def values(count: int, prefix: str = "v") -> str:
    """``'v0', 'v1', …``: the body of an IN list of ``count`` distinct strings."""
    return ", ".join(f"'{prefix}{i}'" for i in range(count))
