"""A tool call's arguments checked against the tool's JSON schema, every problem named with its place.

jsonschema (a dependency of the ``mcp`` SDK) does the checking; the words are ours: ``execute: argument
'limit': 0 is less than the minimum of 1`` — the tool, the argument's path, what is wrong — every problem
at once, in the order of the arguments. Schemas close their objects (``additionalProperties: false``), so
a misspelt argument is named too.
"""

from __future__ import annotations

from .answers import ToolError


def check(tool: str, schema: dict, arguments) -> dict:
    """``arguments`` when they satisfy ``schema``; a ToolError naming every problem otherwise."""
    from jsonschema import Draft202012Validator

    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolError(f"{tool}: the arguments must be an object, not {type(arguments).__name__}")
    problems = sorted(Draft202012Validator(schema).iter_errors(arguments), key=_order(schema))
    if problems:
        raise ToolError(f"{tool}: " + "; ".join(_words(problem) for problem in problems)
                        + f" (it takes {_takes(schema)})")
    return arguments


def _order(schema: dict):
    names = list(schema.get("properties", {}))

    def key(problem):
        first = problem.absolute_path[0] if problem.absolute_path else None
        return (names.index(first) if first in names else -1, list(map(str, problem.absolute_path)))
    return key


def _words(problem) -> str:
    path = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in problem.absolute_path)
    if problem.validator == "additionalProperties":
        where = f"argument '{path[1:]}'" if path else "the arguments"
        return f"{where}: {problem.message.replace('Additional properties are not allowed', 'unknown')}"
    if problem.validator == "required" and not path:
        return problem.message.replace("is a required property", "is a required argument")
    return f"argument '{path[1:]}': {problem.message}" if path else problem.message


def _takes(schema: dict) -> str:
    required = set(schema.get("required", ()))
    names = [name if name in required else f"[{name}]" for name in schema.get("properties", {})]
    return ", ".join(names) or "no arguments"
