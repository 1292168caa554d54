"""Production realism on demand (issue 33): behaviours of DynamoDB that every local DynamoDB hides, off by default.

``Realism`` holds what is switched on for one engine and a random generator
seeded from its settings: the same seed, the same outcome. This slice holds
scripted faults (``faults.py``): rules that match requests and inject
DynamoDB's errors, throttles and unprocessed batch entries, each logged as
injected. The engine's request dispatch asks ``engine.realism`` once per
request (None: off, one attribute test); ``settings.py`` reads a TOML file, a
dict or a preset name.
"""

from .faults import Rule
from .model import Injected, Realism
from .settings import INDEX_TIMINGS, PRESETS, RealismError, realism_from, with_index_timing

__all__ = ["INDEX_TIMINGS", "Injected", "PRESETS", "Realism", "RealismError", "Rule", "realism_from",
           "with_index_timing"]
