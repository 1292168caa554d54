"""Data models drawn elsewhere, brought in and written back (design-time.md §3).

``read_model(path)`` reads a NoSQL Workbench model (JSON, versions 1.0–3.0)
or the AWS DynamoDB MCP server's ``dynamodb_data_model.json`` (told apart by
their members) into a ``Model``: CreateTable requests, items, auto-scaling
policies, access patterns and notes on what was kept aside.
``workload_files(model, path)`` writes it as a workload (``partiql simulate``)
with one DynamoDB-JSON data file a table; ``workbench.export`` writes
tables and items back as a Workbench model.
"""

from .model import Model, ModelError
from .reading import read_model

__all__ = ["Model", "ModelError", "read_model"]
