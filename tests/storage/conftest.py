"""Fixtures of the storage tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def path(tmp_path):
    """Where a test's database file goes."""
    return tmp_path / "app.db"
