"""PartiQL's reserved words, as data, and the token type each one lexes as.

The list is partiql-lang-kotlin's (SQL-92 keywords plus PartiQL's own), the
parser DynamoDB runs (spec §1). An unquoted identifier spelled like one of
these is a keyword, never an attribute name: quote it (``"value"``).

``token_type`` tells the lexer what a word becomes: words the grammar uses get
a terminal of their own (``SELECT``), type names share ``TYPENAME`` (they only
matter after ``IS``), reserved words that may name a function share
``FUNCKW`` (``size(s)``, ``COUNT(*)``), and the rest are ``RESERVED``, which
no rule accepts.
"""

from __future__ import annotations

# partiql-lang-kotlin LexerConstants: SQL-92 keywords.
# INF: `table` is left out. The service parses unquoted `FROM my-table` as a
# subtraction and reports `Unexpected from source` (spec C-052), which it could
# not do if `table` were a reserved word; our DDL treats TABLE contextually.
_SQL92 = """
absolute action add all allocate alter and any are as asc assertion at authorization avg
begin between bit bit_length by
cascade cascaded case cast catalog char char_length character character_length check close
coalesce collate collation column commit connect connection constraint constraints continue
convert corresponding count create cross current current_date current_time current_timestamp
current_user cursor
date day deallocate dec decimal declare default deferrable deferred delete desc describe
descriptor diagnostics disconnect distinct domain double drop
else end end-exec escape except exception exec execute exists external extract
false fetch first float for foreign found from full
get global go goto grant group
having hour
identity immediate in indicator initially inner input insensitive insert int integer intersect
interval into is isolation
join
key
language last leading left level like local lower
match max min minute module month
names national natural nchar next no not null nullif numeric
octet_length of on only open option or order outer output overlaps
pad partial position precision prepare preserve primary prior privileges procedure public
read real references relative restrict revoke right rollback rows
schema scroll second section select session session_user set size smallint some space sql
sqlcode sqlerror sqlstate substring sum system_user
temporary then time timestamp timezone_hour timezone_minute to trailing transaction translate
trim true
union unique unknown update upper usage user using
value values varchar varying view
when whenever where with work write
year
zone
"""

# partiql-lang-kotlin LexerConstants: PartiQL additions (incl. PQK-374's DML words).
_PARTIQL = """
missing pivot unpivot limit offset tuple remove index conflict do nothing returning modified new
old let
bool boolean string symbol clob blob struct list sexp bag
can_cast can_lossless_cast date_add date_diff
"""

RESERVED: frozenset[str] = frozenset((_SQL92 + _PARTIQL).split())

# Reserved words our grammar names as terminals of their own.
GRAMMAR_WORDS: frozenset[str] = frozenset("""
select distinct all value pivot at as by from where group having order asc desc limit offset
insert into on conflict do nothing update set remove delete returning modified old new exists
and or not between in like escape is null missing true false
create drop alter describe primary key only
""".split())

# Reserved type names; after IS they are a type test (spec §4.1).
TYPE_WORDS: frozenset[str] = frozenset("""
bool boolean numeric string blob struct tuple list
int integer smallint dec decimal float real double char character varchar date time timestamp
symbol clob sexp bag
""".split())

# Reserved words that may name a function when followed by `(` (Kotlin's
# FUNCTION_NAME_KEYWORDS plus the aggregates).
FUNCTION_WORDS: frozenset[str] = frozenset("""
count avg max min sum size upper lower char_length character_length octet_length bit_length
coalesce nullif substring trim extract date_add date_diff
""".split())


def _token_type(word: str) -> str:
    if word in GRAMMAR_WORDS:
        return word.upper()
    if word in TYPE_WORDS:
        return "TYPENAME"
    if word in FUNCTION_WORDS:
        return "FUNCKW"
    return "RESERVED"


TOKEN_TYPES: dict[str, str] = {word: _token_type(word) for word in RESERVED}
