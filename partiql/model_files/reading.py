"""Which format a model file is in, and reading it (a ModelError naming the file for anything else)."""

from __future__ import annotations

import json
from pathlib import Path

from . import mcp, workbench
from .model import Model, ModelError


def read_model(path, costs=None) -> Model:
    """The model in ``path``: a Workbench model or an MCP server data model (``costs``: the MCP server's cost
    input, whose ``rps`` give the patterns' rates)."""
    document = _json(path)
    if isinstance(document, dict) and "DataModel" in document:
        return workbench.read(document, str(path))
    if isinstance(document, dict) and {"tables", "items", "access_patterns"} & set(document):
        return mcp.read(document, str(path), None if costs is None else _json(costs))
    raise ModelError(f"{path}: not a data model: a NoSQL Workbench model has DataModel, an MCP server model "
                     "tables, items and access_patterns")


def _json(path) -> object:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise ModelError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise ModelError(f"{path}: not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise ModelError(f"{path}: not a data model: nested too deeply to read") from None
