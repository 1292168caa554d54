"""``partiql mcp`` as a subprocess, driven by the official MCP SDK's own client (``mcp.Client`` over stdio).

``Agent`` holds one connection open in a background event loop (anyio's blocking portal) and calls tools
synchronously, so a test reads as a conversation. One server per module keeps the suite fast.
"""

from __future__ import annotations

import sys

import pytest

mcp = pytest.importorskip("mcp", reason="the MCP SDK (the mcp extra) is not installed")


class Agent:
    """A client of ``partiql mcp ARGS``: ``call(tool, arguments)`` → the CallToolResult."""

    def __init__(self, *args: str, cwd=None, env: dict | None = None):
        from anyio.from_thread import start_blocking_portal
        from mcp.client.stdio import StdioServerParameters

        self._portal_context = start_blocking_portal()
        self.portal = self._portal_context.__enter__()
        params = StdioServerParameters(command=sys.executable, args=["-m", "partiql.shell", "mcp", *args],
                                       cwd=str(cwd) if cwd else None, env=env)
        self._client_context = self.portal.wrap_async_context_manager(mcp.Client(params, read_timeout_seconds=120))
        self.client = self._client_context.__enter__()

    def call(self, tool: str, arguments=None):
        return self.portal.call(self.client.call_tool, tool, arguments)

    def ok(self, tool: str, arguments=None):
        """A call that must succeed: (its text, its structured content)."""
        result = self.call(tool, arguments)
        assert not result.is_error, result.content[0].text
        return result.content[0].text, result.structured_content

    def error(self, tool: str, arguments=None) -> str:
        """A call that must fail: its text."""
        result = self.call(tool, arguments)
        assert result.is_error, result.content[0].text
        return result.content[0].text

    def tools(self) -> dict:
        return {tool.name: tool for tool in self.portal.call(self.client.list_tools).tools}

    def resources(self) -> list:
        return self.portal.call(self.client.list_resources).resources

    def read(self, uri: str) -> str:
        return self.portal.call(self.client.read_resource, uri).contents[0].text

    def close(self) -> None:
        self._client_context.__exit__(None, None, None)
        self._portal_context.__exit__(None, None, None)


@pytest.fixture(scope="module")
def agent():
    """``partiql mcp`` on an in-memory database, the defaults (scan policy deny)."""
    found = Agent()
    yield found
    found.close()
