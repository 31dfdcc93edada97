"""What the Confrontation computer player counts (engine.bot.evaluation).

The game is won on army points destroyed, so each fighter is worth its AP (12 AP = one
ordinary model); wounds lower a fighter's worth. A hero is worth its AP like any fighter
and is no leader to keep back: it is the best fighter of its side, and hidden in a corner
it destroys nothing (so it closes on the enemy like the rest). There are no objectives,
so fighters close on the enemy, using cover. The activation deck's order is secret (a
`SecretStack`): not in the view, never counted.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation, number
from engine.view import ModelView


class ConfrontationEvaluation(Evaluation):
    name = "confrontation"
    counts = (
        "army points of fighters left, by wounds (a hero by its AP, no leader kept back)",
        "closeness to the enemy, cover",
        "melee edge of fighters in contact: ATT + DEF + STR + RES against the enemy's",
    )
    melee_weight = 5
    """A Bogfen Slinger (6) in contact with the Captain (19) costs two thirds of its own
    worth: slingers shoot, spearmen and heroes fight."""

    def melee(self, model: ModelView) -> int:
        profile = dict(model.profile)
        return sum(number(profile.get(key, "0")) for key in ("ATT", "DEF", "STR", "RES"))

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
