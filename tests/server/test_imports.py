"""The library and ``partiql -e`` never load the server stack (uvicorn, httptools, uvloop)."""

from __future__ import annotations

import subprocess
import sys

STACK = ("uvicorn", "httptools", "uvloop", "boto3", "botocore")


def test_the_library_and_the_handler_do_not_import_the_server_stack():
    code = ("import sys, partiql; partiql.connect().execute('SHOW TABLES'); import partiql.server.handler; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {STACK!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_partiql_e_does_not_import_the_server_stack():
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "partiql.shell", "-e", "SHOW TABLES"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    imported = {line.rpartition("|")[2].strip().split(".")[0] for line in run.stderr.splitlines() if "|" in line}
    assert imported.isdisjoint(STACK)
    assert "partiql" in imported  # the probe sees imports at all
