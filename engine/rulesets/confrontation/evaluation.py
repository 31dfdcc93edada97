"""What the Confrontation computer player counts (engine.bot.evaluation).

The game is won on army points destroyed, so each fighter is worth its AP (12 AP = one
ordinary model); wounds lower a fighter's worth. A hero is worth its AP like any fighter
and is no leader to keep back: it is the best fighter of its side, and hidden in a corner
it destroys nothing (so it closes on the enemy like the rest). There are no objectives,
so fighters close on the enemy, using cover. The activation deck's order is secret (a
`SecretStack`): not in the view, never counted.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import ModelView


class ConfrontationEvaluation(Evaluation):
    name = "confrontation"
    counts = (
        "army points of fighters left, by wounds (a hero by its AP, no leader kept back)",
        "closeness to the enemy, cover",
    )

    kinds = False
    ties = False
    """The look-ahead, four choices deep, sees a charge move but not the fight it leads
    to, nor where a walk leads: weighing a walk against a charge in reach, or every tie,
    did no better against the random bot or easy (seeds 301-320: 17 and 12 of 20 with
    kinds, 18 and 13 without; every tie lost 2 of 10 more to random)."""
    approach_weight = 6
    """Each inch nearer the enemy is worth more than standing in cover (10): a fighter,
    the Captain most of all, that did "Nothing" to keep its cover destroyed nothing
    (seeds 301-320 against random: 18 of 20 won with 6, 15 with 2)."""
    budget = 100
    """Its choices are cheap to play: up to three futures of the dice for each close call."""

    def is_leader(self, model: ModelView) -> bool:
        return False

    def model_value(self, model: ModelView) -> int:
        try:
            points = int(dict(model.profile).get("AP", "12"))
        except ValueError:
            points = 12
        return SCALE * max(1, min(points, 200)) // 12
