"""The registry of tools: ``TOOLS`` maps a name to its ``Tool``, filled by ``@tool`` in ``tools`` and
``design_tools``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Tool:
    """A tool: its description and argument schema (what an agent is shown), whether it writes (refused on a
    read-only server) or may (``destructive``: execute runs DELETE and DROP TABLE; a read-only server refuses
    those statement by statement), and ``run(desk, arguments) -> Answer``."""

    name: str
    description: str
    schema: dict
    run: Callable
    writes: bool = False
    destructive: bool = False


TOOLS: dict = {}


def tool(name: str, description: str, properties: dict | None = None, required: tuple = (), *,
         writes: bool = False, destructive: bool = False):
    """Register the decorated ``run(desk, arguments) -> Answer`` as the tool ``name`` (its arguments: the JSON
    schemas ``properties``, closed: an unknown argument is an error)."""
    schema = {"type": "object", "properties": properties or {}, "additionalProperties": False}
    if required:
        schema["required"] = list(required)

    def register(run: Callable) -> Callable:
        TOOLS[name] = Tool(name, description, schema, run, writes, destructive)
        return run
    return register
