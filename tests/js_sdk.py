"""The AWS SDK for JavaScript (v3) for the tests that run it: installed once from the npm registry into a cache
(``~/.cache/partiql-ddb/js-sdk``), for Node (``sdk_folder``) and bundled with esbuild for a browser
(``browser_bundle``). Where Node/npm or the registry is missing, the test skips, saying why."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ENTRY = ('import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";\n'
         "window.DDB = { DynamoDBClient, GetItemCommand };\n")


def _cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "partiql-ddb" / "js-sdk"


def _run(step: list, cache: Path) -> None:
    done = subprocess.run(step, cwd=cache, capture_output=True, text=True, timeout=600)
    if done.returncode:
        pytest.skip(f"could not build the AWS SDK for JavaScript ({' '.join(step[:2])}): "
                    f"{(done.stderr or done.stdout).strip()[-300:]}")


@functools.cache
def sdk_folder() -> Path:
    """The folder whose node_modules holds @aws-sdk/client-dynamodb (and esbuild)."""
    cache = _cache()
    if (cache / "node_modules" / "@aws-sdk" / "client-dynamodb").is_dir() and shutil.which("node"):
        return cache
    if not (shutil.which("npm") and shutil.which("node")):
        pytest.skip("Node.js and npm are not installed: the AWS SDK for JavaScript cannot be installed")
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "package.json").write_text('{"name": "partiql-ddb-browser-test", "private": true}')
    _run(["npm", "install", "--no-audit", "--no-fund", "@aws-sdk/client-dynamodb@3", "esbuild@0"], cache)
    return cache


@functools.cache
def browser_bundle() -> Path:
    """sdk.js: the SDK's DynamoDB client for a browser, built once and cached (a browser needs no Node after)."""
    bundle = _cache() / "sdk.js"
    if not bundle.exists():
        cache = sdk_folder()
        (cache / "entry.js").write_text(ENTRY)
        _run(["npx", "esbuild", "entry.js", "--bundle", "--format=iife", "--minify", "--outfile=sdk.js"], cache)
    return bundle
