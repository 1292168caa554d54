"""Every text of vector indexes and SearchVectors, in one table (vector-search.md §11 Q6): the recorded and
captured ones as DynamoDB words them, the ones marked (model) in the spec apart, so that a recording can
correct them in one place."""

from __future__ import annotations

INVALID = "One or more parameter values were invalid: "

# CreateTable / UpdateTable (§2.3, §2.4) — recorded or captured
ON_DEMAND_ONLY = INVALID + "Vector indexes are only supported for PAY_PER_REQUEST tables"
SCHEMA_NOT_DEFINED = INVALID + "One element in SearchSchema is not defined in attribute definitions"
DIMENSIONS_RANGE = INVALID + "Number of dimensions must be between 1 and 4096 inclusive."
TOO_MANY = INVALID + "VectorIndex count exceeds the per-table limit of 5"
DIMENSIONS_CONFLICT = (INVALID + "Conflicting attribute definition for '{}'. All VectorIndexes on the same vector "
                       "attribute must use the same dimensions.")
EMPTY_LIST = INVALID + "List of VectorIndexes is empty"
VECTOR_DEFINED = (INVALID + "Conflicting attribute definition for '{}'. An attribute cannot be defined in "
                  "AttributeDefinitions when used as a VectorAttribute.")
HASH_COUNT = (INVALID + "Value '{}' at 'SearchSchema' failed to satisfy constraint: Member must have HASH count "
              "less than or equal to 1")
SCHEMA_DUPLICATE = INVALID + "SearchSchema contains a duplicate AttributeName"
DUPLICATE_NAME = INVALID + "Duplicate index name: {}"
ALREADY_EXISTS = "Attempting to create an index which already exists"
ONLINE_LIMIT = "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"
INDEX_NOT_FOUND = "Requested resource not found: Index {} for table {}"
PROVISIONED_REFUSED = INVALID + "Tables with vector indexes must be in PAY_PER_REQUEST mode"
REDEFINED = (INVALID + "Attributes cannot be redefined. Please check that your attribute has the same type as "
             "previously defined. Existing schema: VectorIndexSchema:[VectorAttribute: key{{{attribute}:L:"
             "{dimensions}}}] New schema: Schema:[SchemaElement: key{{{attribute}:{type}:{key_type}}}]")
# (model) texts of §2.3 / §2.4
PROJECTED_LIMIT = INVALID + "Number of projected attributes in vector index {} exceeds the limit of 20"
FILTER_LIMIT = INVALID + "Number of INLINE_FILTER elements in SearchSchema exceeds the limit of 18"
UPDATE_EMPTY = INVALID + "One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null"

# Writes (§4.2) — recorded or captured; note the full stops where the classic texts have colons
WRITE = "One or more parameter values were invalid. "
WRONG_SIZE = WRITE + "Invalid size for parameter {attribute}, Expected: {expected}, Actual: {actual} IndexName: {index}"
WRONG_ELEMENT = (WRITE + "Invalid type for parameter {attribute}[{position}], Expected: 32-bit floating point number, "
                 "Actual: {actual}. IndexName: {index}")
NOT_A_LIST = (WRITE + "Invalid type for parameter {attribute}, Expected: 32-bit floating point number list "
              "IndexName: {index}")
OUT_OF_RANGE = (WRITE + "Invalid value for parameter {attribute}[{position}], Value: {value} is outside valid range "
                "[-3.4028235E38, 3.4028235E38]. IndexName: {index}")
SCHEMA_TYPE = (WRITE + "Attribute '{attribute}' type mismatch. Expected: {expected}, Actual: {actual}. "
               "IndexName: {index}")
UPDATE_EMPTY_HASH = ("One or more parameter values are not valid. The update expression attempted to update a "
                     "secondary index key to a value that is not supported. The AttributeValue for a key attribute "
                     "cannot contain an empty {kind} value.")
SCHEMA_EMPTY = ("One or more parameter values are not valid. A value specified for a secondary index key is not "
                "supported. The AttributeValue for a key attribute cannot contain an empty {kind} value. "
                "IndexName: {index}, IndexKey: {attribute}")

# SearchVectors (§5.5) — recorded or captured
TOP_K_RANGE = "Provided TopK value '{}' is out of valid range. The value must be between 1 and 100 inclusive"
NO_SUCH_INDEX = "The table does not have the specified index: {}"
BACKFILLING = "Cannot search backfilling vector index: {}"
BAD_SEARCH_VALUES = ("Search vector contains invalid values. All values in the search vector must be a 32-bit "
                     "floating-point number attribute")
DIMENSION_MISMATCH = "Input search vector dimension {} does not match vector index dimension {}"
NOT_IN_SCHEMA = ("SearchConditionExpression must not contain any attributes that is not in SearchSchema. "
                 "Invalid attribute: {}")
EXPRESSION = "Invalid SearchConditionExpression: "
COMPARATOR = EXPRESSION + "Invalid comparator used in SearchConditionExpression"
NESTED = EXPRESSION + "SearchConditionExpression cannot have conditions on nested attributes"
ONE_PER_ATTRIBUTE = EXPRESSION + "SearchConditionExpression must only contain one condition per attribute"
HASH_REQUIRED = "SearchConditionExpression must be provided when SearchSchema has a HASH key"
VALUE_TYPE = "Type of '{}' attribute in SearchConditionExpression ({}) does not match type in search schema ({})"
EMPTY_HASH_VALUE = ("One or more parameter values are not valid. The AttributeValue for a key attribute cannot "
                    "contain an empty string value. Key: {}")
MISSING_FIELD = "missing field `{}` at line 1 column {}"
NULL_MEMBER = "invalid type: null, expected {} at line 1 column {}"
# (model) texts of §5.5
EMPTY_EXPRESSION = EXPRESSION + "The expression can not be empty;"
TOP_K_MIN = ("1 validation error detected: Value '{}' at 'topK' failed to satisfy constraint: Member must have "
             "value greater than or equal to 1")

# Other operations naming a vector index (§8)
QUERY_REFUSED = "Query operation not supported on this index type."
SCAN_REFUSED = "Scan operation not supported on this index type"
