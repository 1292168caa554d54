"""``Desk``: one open database, the rules its MCP server was started with, and the one way a tool is called.

``Desk.call`` finds the tool, checks the arguments (``arguments.check``), refuses a write on a read-only
server, runs it, and converts every error once — DynamoDB's (with the hints partiql-ddb adds), a file's, a
value the library refuses — into a ``ToolError`` whose words the agent can act on. Results are capped
(``answers.capped``).
"""

from __future__ import annotations

from partiql.engine.errors import DynamoDBError
from partiql.shell.status import READ_ONLY

from . import tools  # (first: the catalog and statement tools are listed first)
from . import design_tools
from .answers import Answer, ToolError, capped, error_words
from .arguments import check
from .registry import TOOLS

REGISTERING = (tools, design_tools)  # imported for the tools they register, in the order they are listed


class Desk:
    """One open database and the rules its server was started with: ``read_only`` (no tool writes) and
    ``scan`` (the scan policy of every statement: allow, warn or deny)."""

    def __init__(self, db, *, read_only: bool = False, scan: str = "deny"):
        self.db = db
        self.read_only = read_only
        self.scan = scan
        db.scan_policy = scan

    def call(self, name: str, arguments) -> Answer:
        """Answer the tool ``name``; a ToolError saying what is wrong otherwise."""
        found = TOOLS.get(name)
        if found is None:
            from partiql.nearest import nearest_name

            near = nearest_name(name, list(TOOLS))
            raise ToolError(f"no tool {name!r}" + (f": did you mean {near}?" if near else "")
                            + f" (the tools: {', '.join(TOOLS)})")
        arguments = check(name, found.schema, arguments)
        if found.writes and self.read_only:
            raise ToolError(f"{name}: this server is read-only (partiql mcp --read-only): nothing is written")
        try:
            return capped(found.run(self, arguments))
        except ToolError:
            raise
        except DynamoDBError as error:
            raise ToolError(f"{name}: {error_words(error, arguments.get('statement', ''), self.scan)}") from None
        except (OSError, ValueError) as error:  # (a file that cannot be read, a value the library refuses)
            raise ToolError(f"{name}: {error}") from None

    def refuse_writes(self, statements: list) -> None:
        """On a read-only server, a ToolError for the first statement that is not a read."""
        if not self.read_only:
            return
        for text in statements:
            word = text.split(None, 1)[0].upper() if text.strip() else ""
            if word not in READ_ONLY:
                raise ToolError(f"execute: this server is read-only (partiql mcp --read-only): only "
                                f"{', '.join(READ_ONLY)} statements run, not {word or 'an empty statement'}")
