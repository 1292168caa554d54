"""The point SELECT's lane (issue 34 point 1): a cached plan that reads one item by its whole key costs a
binding and a GetItem, not a walk of the plan.

``point_read(template)`` decides once per cached template whether it is such a read — one key branch on
the table (no index), the partition key and the sort key each equal to one operand, nothing else in the
WHERE, no ORDER BY, no refusal deferred to run time — and keeps what the read needs: the operands, the
shaper of its projection, its EXPLAIN estimate. ``PointRead.run`` binds the parameters, checks the key
types as the general path does (spec §3.1 step 6, the same messages), reads the item and builds the same
Result: items, counts, capacity and plan summary are those the general path gives (tests compare both).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import plan as p
from .access import bound_value, check_key_types
from .executor import point_estimate, projected_paths, shaper
from .result import ConsumedCapacity, PlanSummary, Result

ESTIMATE = point_estimate(1)


@dataclass(frozen=True, slots=True)
class PointRead:
    """What one cached point SELECT needs at run time."""

    template: object        # the SelectTemplate
    hash_name: str
    hash_operand: object    # a Param or a literal node
    range_name: str | None
    range_operand: object
    shape: object           # stored record -> result item
    projection: tuple | None

    def run(self, engine, params, consistent: bool) -> Result:
        """The read's Result, as ``Executor.select`` gives it."""
        template = self.template
        check_key_types(template.analysis, template.key, params)
        hash_value = bound_value(self.hash_operand, params)
        values = {self.hash_name: hash_value}
        if self.range_name is None:
            record, consumed = engine.get(template.table, (hash_value, None), consistent)
        else:
            sort_value = values[self.range_name] = bound_value(self.range_operand, params)
            record, consumed = engine.get(template.table, (hash_value, sort_value), consistent)
        items = [] if record is None else [self.shape(record)]
        summary = PlanSummary("GetItem", template.table, None, False,
                              (p.GetItem(template.table, values, None, self.projection, consistent),), ESTIMATE)
        return Result(items, len(items), 1, None, ConsumedCapacity.of([consumed]), summary)


def point_read(template) -> PointRead | None:
    """``template`` 's point read, or None when it is anything else."""
    analysis, key = template.analysis, template.key
    if (analysis.scan or analysis.too_many or len(analysis.branches) != 1 or template.index is not None
            or template.deferred or template.ordered or template.order or template.reach_back):
        return None
    branch = analysis.branches[0]
    if branch.residual or branch.loose_sort or len(branch.hash_operands) != 1:
        return None
    if key.range_name is None:
        if branch.sort is not None:
            return None
        range_operand = None
    elif branch.sort is None or branch.sort[0] != "=":
        return None
    else:
        range_operand = branch.sort[1]
    return PointRead(template, key.hash_name, branch.hash_operands[0], key.range_name, range_operand,
                     shaper(template.projection), projected_paths(template))
