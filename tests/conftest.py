"""Suite-wide switch: ``PARTIQL_TEST_REALISM=idle python3 -m pytest`` runs every engine with realism switched on
but idle — a fault rule that never matches, eventual consistency with no chance of a stale read and no GSI lag,
transactions that take no time — which must change nothing (issue 33: realism is a layer, not a fork)."""

from __future__ import annotations

import os

if os.environ.get("PARTIQL_TEST_REALISM") == "idle":
    from partiql.engine.engine import Engine
    from partiql.engine.realism import Realism, Rule
    from partiql.engine.realism.conflicts import Conflicts
    from partiql.engine.realism.consistency import Consistency

    _plain_init = Engine.__init__

    def _idle_init(self, *args, **kwargs):
        _plain_init(self, *args, **kwargs)
        self.realism = Realism([Rule("InternalServerError", table="no table is named this")],
                               consistency=Consistency(stale=0.0), conflicts=Conflicts(duration=0.0))

    Engine.__init__ = _idle_init
