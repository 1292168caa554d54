"""partiql.shell: the ``partiql`` command — an interactive PartiQL shell and a script runner.

``cli.main`` is the entry point (also ``python -m partiql.shell``). Scripts
run through ``batch`` and ``session`` without importing prompt_toolkit or
pygments; only ``repl`` (with ``lexer``, ``completer``) imports them, and only
for interactive use.
"""
