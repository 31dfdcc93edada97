"""A seeded bot that picks among the legal options: for simulations, tests and benchmarks.

It draws from the same portable counter-based generator as the dice (on its own seed),
so ``wargrid simulate SCENARIO --seed N`` plays the same game on every machine.
"""

from __future__ import annotations

from engine.decisions import Choice, Decision
from engine.dice import face


class RandomBot:
    """Picks a uniformly random option of each Decision it is shown."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.picks = 0

    def choose(self, decision: Decision) -> Choice:
        """A legal Choice for ``decision``."""
        index = face(self.seed ^ 0x5EED, self.picks, len(decision.options)) - 1
        self.picks += 1
        return Choice(decision.id, decision.options[index].key)
