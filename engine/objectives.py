"""Objectives held by the side with more there: Kill Team, Apocalypse and fatigue score them
alike at the end of each round, each counting its own way (models, units, bases).

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from engine.ruleset import RuleContext
from engine.wording import says


class Scorer(Protocol):
    """A side or team that keeps victory points."""

    name: str
    vp: int


def score_majority(
    ctx: RuleContext, objective: str, counts: Sequence[int], side: Callable[[int], Scorer]
) -> None:
    """+1 VP to the seat with more at ``objective`` (``counts`` per seat); a tie scores
    nothing. ``side`` gives a seat's scorer."""
    if counts[0] == counts[1]:
        return
    holder = 0 if counts[0] > counts[1] else 1
    scorer = side(holder)
    scorer.vp += 1
    ctx.emit(
        "ObjectiveScored",
        f"{says(scorer.name, 'controls')} {objective}: +1 VP ({scorer.vp} VP)",
        player=holder,
        objective=objective,
        vp=scorer.vp,
    )
