"""The garbage collector set for the engine's allocation pattern.

Every choice allocates thousands of small containers (options, events, checkpoint data,
path-finding lists), nearly all freed by reference counting; the cyclic collector's
default first threshold (700 allocations) then runs it hundreds of times per game, and
each older-generation pass walks the whole growing history of the game. Measured on
bot games and save verification (benchmarks/run.py): 20,000 makes both 1.1x to 1.6x
faster; no rule depends on when garbage is collected, so determinism is untouched.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 20_000
"""Allocations between two collections of the youngest generation."""


def tune_collector() -> None:
    """Raise the youngest generation's threshold to `YOUNG_THRESHOLD` (never lower it)."""
    young, middle, old = gc.get_threshold()
    if 0 < young < YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, middle, old)
