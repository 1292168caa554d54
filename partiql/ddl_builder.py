"""The DDL extensions' reductions -> ``partiql.shell_ast`` nodes: CREATE / DROP / ALTER TABLE (keys, billing,
GSIs and LSIs, vector indexes, streams), DESCRIBE and SHOW TABLES. ``tree_builder.TreeBuilder`` inherits them.
"""

from __future__ import annotations

from lark import Token

from . import shell_ast
from .errors import StatementError
from .token_spans import flag as _flag, over as _over, span_of as _span

_DDL_TYPES = {"s": "S", "string": "S", "n": "N", "number": "N", "b": "B", "binary": "B"}


def _capacity(tok: Token) -> int:
    if not tok.isdigit():
        raise StatementError.syntax("Expected a whole number of capacity units",
                                    tok.line, tok.column, len(tok))
    return int(tok)


class DdlBuilder:
    """The callbacks of the DDL rules (a mixin of the Lark transformer)."""

    def create_table(self, c):
        start, _, if_, _, _, name, _, attrs, _, _, _, _, key, _, *options = c
        billings = [o for o in options if isinstance(o, shell_ast.Billing)]
        if len(billings) > 1:
            raise StatementError.near("BILLING MODE may be given only once", billings[1].span)
        indexes = tuple(o for o in options if isinstance(o, shell_ast.IndexDef))
        vectors = tuple(o for o in options if isinstance(o, shell_ast.VectorIndexDef))
        streams = [o for o in options if isinstance(o, shell_ast.Stream)]
        if len(streams) > 1:
            raise StatementError.near("STREAM may be given only once", streams[1].span)
        return shell_ast.CreateTable(name.name, _flag(if_), attrs or (), key, billings[0] if billings else None,
                                     indexes, _over(start, c[13], *options), streams[0] if streams else None,
                                     vectors)

    def attr_defs(self, c):
        return tuple(c)

    key_elems = attr_defs

    def attr_def(self, c):
        name, kind = c
        return shell_ast.AttributeDef(name.name, _DDL_TYPES[kind.lower()], _over(name, kind))

    def key_elem(self, c):
        name, type_, kind = c
        return shell_ast.KeyElement(name.name, kind.upper(), _over(name, kind),
                                    _DDL_TYPES[type_.lower()] if type_ is not None else None)

    def billing_provisioned(self, c):
        return shell_ast.Billing("PROVISIONED", c[3], _over(c[0], c[3]))

    def billing_on_demand(self, c):
        return shell_ast.Billing("PAY_PER_REQUEST", None, _over(c[0], c[3]))

    def throughput(self, c):
        return shell_ast.Throughput(_capacity(c[1]), _capacity(c[3]), _over(c[0], c[5]))

    def index_def(self, c):
        kind, _, name, _, _, key, _, _, projection, _, throughput, end = c
        return shell_ast.IndexDef(kind.upper(), name.name, key, projection, throughput, _over(kind, end))

    def vector_index(self, c):
        start, _, _, name, _, attribute, _, dimensions, distance, _, hash_name, hash_type, _, filters, _, \
            projection, end = c
        if not dimensions.isdigit():
            raise StatementError.syntax("Expected a whole number of dimensions", dimensions.line, dimensions.column,
                                        len(dimensions))
        hashed = None if hash_name is None else (hash_name.name, _DDL_TYPES[hash_type.lower()])
        return shell_ast.VectorIndexDef(name.name, attribute.name, int(dimensions), distance.upper(), hashed,
                                        filters or (), projection, _over(start, end))

    def vector_filters(self, c):
        return tuple((c[n].name, _DDL_TYPES[c[n + 1].lower()]) for n in range(0, len(c), 2))

    def alter_create_vector(self, c):
        return shell_ast.CreateVectorIndex(c[2].name, c[4], _over(c[0], c[4]))

    def alter_drop_vector(self, c):
        return shell_ast.DropVectorIndex(c[2].name, c[6].name, _over(c[0], c[6]))

    def project_all(self, c):
        return shell_ast.IndexProjection("ALL", (), _span(c[0]))

    def project_keys(self, c):
        return shell_ast.IndexProjection("KEYS_ONLY", (), _over(c[0], c[1]))

    def project_include(self, c):
        names = tuple(n.name for n in c[2:-1])
        return shell_ast.IndexProjection("INCLUDE", names, _over(c[0], c[-1]))

    def drop_table(self, c):
        start, _, if_, _, name = c
        return shell_ast.DropTable(name.name, _flag(if_), _over(start, name))

    def alter_billing(self, c):
        return shell_ast.AlterBilling(c[2].name, c[4], _over(c[0], c[4]))

    def alter_create_index(self, c):
        return shell_ast.CreateIndex(c[2].name, c[4], _over(c[0], c[4]))

    def stream(self, c):
        return shell_ast.Stream(c[1].upper(), _over(c[0], c[1]))

    def alter_stream(self, c):
        return shell_ast.AlterStream(c[2].name, c[4], _over(c[0], c[4]))

    def alter_drop_stream(self, c):
        return shell_ast.AlterStream(c[2].name, None, _over(c[0], c[4]))

    def alter_drop_index(self, c):
        return shell_ast.DropIndex(c[2].name, c[5].name, _over(c[0], c[5]))

    def describe(self, c):
        return shell_ast.DescribeTable(c[2].name, _over(c[0], c[2]))

    def show_tables(self, c):
        return shell_ast.ShowTables(_over(c[0], c[1]))
