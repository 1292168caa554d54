"""Every §9 conformance case the product can express, run end to end through ``partiql.connect()``."""

import pytest

from . import (cases_capacity, cases_decision, cases_index, cases_messages, cases_multi, cases_order, cases_select,
               cases_where, cases_write)
from .harness import params, run_case

CASES = [*cases_select.CASES, *cases_where.CASES, *cases_write.CASES, *cases_multi.CASES, *cases_index.CASES,
         *cases_decision.CASES, *cases_messages.CASES, *cases_order.CASES,
         *cases_capacity.CASES]


@pytest.mark.parametrize("case", params(CASES))
def test_case(case):
    run_case(case)


def test_case_ids_are_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


def test_every_spec_case_has_a_row():
    """C-001 … C-206 each have at least one row (variants carry a letter: C-067a, C-067b)."""
    numbers = {int(c.id[2:5]) for c in CASES if c.id.startswith("C-")}
    assert sorted(set(range(1, 207)) - numbers) == []
