"""Every §9 conformance case the product can express, run end to end through ``partiql.connect()``."""

import pytest

from . import cases_index, cases_multi, cases_select, cases_where, cases_write
from .harness import params, run_case

CASES = [*cases_select.CASES, *cases_where.CASES, *cases_write.CASES, *cases_multi.CASES, *cases_index.CASES]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case):
    run_case(case)


def test_case_ids_are_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
