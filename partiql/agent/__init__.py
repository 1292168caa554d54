"""``partiql mcp``: the engine, EXPLAIN and the simulator as tools for coding agents (issue 35).

``tools`` and ``design_tools`` hold the tools as data — a name, a description, a JSON schema of the
arguments, whether it writes, and a function answering an ``Answer`` (readable text and structured
data) — over one open database (``Desk``); ``resources`` the pages an agent reads to write valid
statements; ``arguments`` checks a call's arguments against its schema. None of them imports the MCP
SDK: ``stdio`` serves them over the Model Context Protocol with the official ``mcp`` package (the
``mcp`` extra), imported only by ``partiql mcp`` (``cli``).
"""
