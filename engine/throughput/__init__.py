"""Partitions that throttle as DynamoDB's do (spec throughput.md).

``Throughput`` (admission) is the one place that decides whether a request
is served; ``state`` holds each table's resources, buckets and partition
meters; ``figures`` every number of the model; ``metrics`` what is counted.
The engine builds the draws of each request (``draws``) from the capacity it
already computes and asks ``Throughput`` before anything is written.
"""

from .admission import Draw, Refusal, Throughput, check_switches
from .figures import MODES

__all__ = ["MODES", "Draw", "Refusal", "Throughput", "check_switches"]
