"""Simulator benchmark: simulated requests per wall second on the votes example (issue 16: >= 30,000/s).

    python bench/simulate.py [--duration 60] [--runs 3] [--day]

Runs ``examples/votes.toml`` (1,500 votes a second, the hot key throttling) and the sharded design for
``--duration`` seconds of virtual time; prints requests per wall second (median of ``--runs``) and the
share of the time spent in the engine (``Connection.execute``) against the simulator's own work
(drawing parameters, the time queue, counting), from cProfile's cumulative times in one extra run.
``--day`` also runs a day at 1,000 requests a second (700 reads, 300 writes; issue 37 point 6: "in minutes"),
its steady seconds aggregated, and says how long it took and how many seconds were replayed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from pathlib import Path

from _support import reference_speed  # (must precede the partiql import)

from partiql.simulate import load, simulate

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def rate(name: str, duration: float, runs: int) -> float:
    workload = EXAMPLES / f"{name}.toml"
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        outcome = simulate(load(workload), duration=duration)
        samples.append(outcome.requests / (time.perf_counter() - started))
    return statistics.median(samples)


def engine_share(name: str, duration: float) -> float:
    profile = cProfile.Profile()
    profile.runcall(simulate, load(EXAMPLES / f"{name}.toml"), duration=duration)
    stats = pstats.Stats(profile).stats

    def cumulative(module: str, function: str) -> float:
        return sum(entry[3] for (path, _, name), entry in stats.items()
                   if name == function and path.replace("\\", "/").endswith(module))

    return cumulative("partiql/api.py", "execute") / cumulative("simulate/runner.py", "simulate")


DAY = """duration = 86400
tables = ["CREATE TABLE Items PRIMARY KEY (pk STRING HASH) BILLING MODE ON DEMAND"]
[[data]]
table = "Items"
count = 1000
item = { pk = { sequence = "k#{}" }, body = { string = 200 } }
[[pattern]]
name = "read"
statement = "SELECT * FROM Items WHERE pk = ?"
params = [{ item = "Items.pk" }]
rate = 700
[[pattern]]
name = "write"
statement = "INSERT INTO Items VALUE {'pk': ?, 'body': ?}"
params = [{ sequence = "new#{}" }, { string = 200 }]
rate = 300
"""


def day() -> None:
    from partiql.simulate import parse

    started = time.perf_counter()
    outcome = simulate(parse(DAY, "day.toml"))
    took = time.perf_counter() - started
    print(f"  a day at 1,000/s  {outcome.requests:,} requests in {took:,.1f} s; {86_400 - outcome.aggregated:,} of "
          f"86,400 s replayed request by request, the rest aggregated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--day", action="store_true", help="also a day at 1,000 requests a second")
    args = parser.parse_args()
    print(reference_speed())
    for name in ("votes", "votes-sharded"):
        print(f"  {name:<14} {rate(name, args.duration, args.runs):>10,.0f} simulated requests/s "
              f"(engine: {engine_share(name, args.duration / 4):.0%} of the time, under cProfile)")
    if args.day:
        day()
    print(reference_speed())


if __name__ == "__main__":
    main()
