"""The tools and resources served over the Model Context Protocol on stdin/stdout, with the official ``mcp``
SDK (its low-level ``Server``: the schemas are ours, as data, not derived from type hints).

A tool call runs in a worker thread, one at a time (the engine is synchronous; the event loop stays free to
answer pings while a simulation runs). Its answer is the text and the same as structured content; a
``ToolError`` is a result with ``isError`` and the words saying what to change; anything else is a bug of
ours: its traceback goes to stderr (the protocol owns stdout) and the agent is told so, and the server
carries on.
"""

from __future__ import annotations

import logging
import sys

import anyio
import mcp_types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

from .answers import ToolError
from .registry import TOOLS
from .resources import RESOURCES

log = logging.getLogger("partiql.mcp")

INSTRUCTIONS = ("partiql-ddb: a faithful local DynamoDB. Before writing a statement, read partiql://dialect; "
                "explain a statement to see whether it is a GetItem, a Query or a full Scan before running it; "
                "simulate a workload to see which keys throttle and what a design costs a month.")


def build(desk, version: str) -> Server:
    """The MCP server of ``desk``'s tools and the resources."""
    limiter = anyio.CapacityLimiter(1)

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_tool(found, desk) for found in TOOLS.values()])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await anyio.to_thread.run_sync(_answer, desk, params.name, params.arguments, limiter=limiter)

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=r.uri, name=r.name, description=r.description, mime_type="text/markdown")
            for r in RESOURCES.values()])

    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        found = RESOURCES.get(str(params.uri))
        if found is None:
            from mcp.shared.exceptions import MCPError

            raise MCPError(code=types.INVALID_PARAMS, message=f"no resource {params.uri} (there are "
                                                              f"{', '.join(RESOURCES)})")
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=found.uri, mime_type="text/markdown",
                                                                             text=found.text())])

    return Server("partiql-ddb", version=version, instructions=INSTRUCTIONS, on_list_tools=list_tools,
                  on_call_tool=call_tool, on_list_resources=list_resources, on_read_resource=read_resource)


def _tool(found, desk) -> types.Tool:
    reads = not (found.writes or found.destructive)
    return types.Tool(name=found.name, description=found.description, input_schema=found.schema,
                      annotations=types.ToolAnnotations(read_only_hint=reads or desk.read_only,
                                                        destructive_hint=found.destructive and not desk.read_only,
                                                        open_world_hint=desk.db.remote))


def _answer(desk, name: str, arguments) -> types.CallToolResult:
    try:
        answer = desk.call(name, arguments)
    except ToolError as error:
        return _result(str(error), None, True)
    except Exception as error:  # noqa: BLE001 - a bug of ours must not end the agent's server
        log.exception("internal error answering %s", name)
        return _result(f"{name}: internal error of partiql-ddb ({type(error).__name__}: {error}); the traceback is "
                       "on the server's stderr", None, True)
    return _result(answer.text, answer.data, False)


def _result(text: str, data, is_error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=data,
                                is_error=is_error)


def serve(desk, version: str) -> None:
    """Serve ``desk`` on stdin/stdout until the client closes them."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="partiql mcp: %(message)s")

    async def main() -> None:
        server = build(desk, version)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
