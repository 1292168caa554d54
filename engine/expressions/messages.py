"""The expression language's messages and limits (item-api §3), in DynamoDB's words."""

from __future__ import annotations


# ------------------------------------------------------------------ messages
# Exact texts, item-api §3.5–§3.9.

EMPTY = "The expression can not be empty;"
TOO_LONG = "Expression size has exceeded the maximum allowed size; expression size: {0}"
SYNTAX = 'Syntax error; token: "{0}", near: "{1}"'
INDEX_RANGE = "List index is not within the allowable range; index: {0}"
TOO_MANY_OPERATORS = "The expression contains too many operators; operator count: {0}"
TOO_MANY_IN = "The IN operator is provided with too many operands; number of operands: {0}"
TOO_DEEP = "The document path has too many nesting levels; nesting levels: {0}"
PARENS = "The expression has redundant parentheses;"
UNKNOWN_FUNCTION = "Invalid function name; function: {0}"
NOT_IN_CONDITION = "The function is not allowed in a condition expression; function: {0}"
NOT_IN_UPDATE = "The function is not allowed in an update expression; function: {0}"
MISUSED = "The function is not allowed to be used this way in an expression; function: {0}"
RESERVED = "Attribute name is a reserved keyword; reserved keyword: {0}"
VALUE_IN_PATH = "The document path cannot contain attribute value parameters; attribute value: {0}"
UNDEFINED_NAME = "An expression attribute name used in the document path is not defined; attribute name: {0}"
UNDEFINED_VALUE = "An expression attribute value used in expression is not defined; attribute value: {0}"
OPERAND_COUNT = ("Incorrect number of operands for operator or function; "
                 "operator or function: {0}, number of operands: {1}")
OPERAND_TYPE = "Incorrect operand type for operator or function; operator or function: {0}, operand type: {1}"
ACTION_TYPE = "Incorrect operand type for operator or function; operator: {0}, operand type: {1}"
NEEDS_PATH = "Operator or function requires a document path; operator or function: {0}"
DISTINCT = ("The first operand must be distinct from the remaining operands for this operator or function; "
            "operator: {0}, first operand: {1}")
TYPE_NAME = "Invalid attribute type name found; type: {0}, valid types: {{B,NULL,SS,BOOL,L,BS,N,NS,S,M}}"
BETWEEN_TYPES = ("The BETWEEN operator requires same data type for lower and upper bounds; "
                 "lower bound operand: AttributeValue: {{{0}}}, upper bound operand: AttributeValue: {{{1}}}")
BETWEEN_ORDER = ("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
                 "lower bound operand: AttributeValue: {{{0}}}, upper bound operand: AttributeValue: {{{1}}}")
SECTION_TWICE = 'The "{0}" section can only be used once in an update expression;'
OVERLAP = ("Two document paths overlap with each other; must remove or rewrite one of these paths; "
           "path one: {0}, path two: {1}")
CONFLICT = ("Two document paths conflict with each other; must remove or rewrite one of these paths; "
            "path one: {0}, path two: {1}")
UNUSED = "Value provided in {0} unused in expressions: keys: {{{1}}}"

# KeyConditionExpression structure (item-api §3.9).
KEY_OPERATOR = "Invalid operator used in KeyConditionExpression: {0}"
KEY_NESTED_OPERATION = "KeyConditionExpressions cannot contain nested operations"
KEY_FIRST_OPERAND = "Invalid condition in KeyConditionExpression: {0} operator must have the key attribute as its first operand"
KEY_MULTIPLE_NAMES = "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"
KEY_NESTED_PATH = "KeyConditionExpressions cannot have conditions on nested attributes"
KEY_NO_ATTRIBUTE = "Invalid condition in KeyConditionExpression: No key attribute specified"
KEY_TWICE = "KeyConditionExpressions must only contain one condition per key"

# ExpressionAttributeNames / Values keys (item-api §3.5 steps 4–5).
MAP_EMPTY = "{0} must not be empty"
MAP_BAD_KEY = '{0} contains invalid key: Syntax error; key: "{1}"'
MAP_LONG_KEY = "The expression attribute map contains a key that is too long"

# Limits not in engine.limits (LOCAL LocalDBEnv / ASTListener).
MAX_PATH_DEPTH = 32
MAX_LIST_INDEX = 2 ** 31 - 1  # INF: LOCAL parses indexes with Integer.parseInt
MAX_PLACEHOLDER_BYTES = 255

VALID_TYPE_NAMES = frozenset(("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"))
ORDERED_TYPES = frozenset(("N", "S", "B"))
SET_TYPES = frozenset(("SS", "NS", "BS"))
SIZED_TYPES = VALID_TYPE_NAMES - {"N", "BOOL", "NULL"}
# ADD/DELETE name the operand type in long form (DL test/updateItem.js).
LONG_TYPE_NAMES = {"S": "STRING", "N": "NUMBER", "B": "BINARY", "BOOL": "BOOLEAN", "NULL": "NULL",
                   "L": "LIST", "M": "MAP", "SS": "STRING_SET", "NS": "NUMBER_SET", "BS": "BINARY_SET"}
ACTION_TYPES = {"ADD": SET_TYPES | {"N"}, "DELETE": SET_TYPES}

# What a nested call evaluates to, for operand-type checks of its caller.
RESULT_TYPES = {"size": "N", "list_append": "L"}
