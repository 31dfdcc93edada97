"""What the Confrontation computer player counts (engine.bot.evaluation).

The game is won on army points destroyed, so each fighter is worth its AP (12 AP = one
ordinary model), heroes double; wounds lower a fighter's worth; there are no objectives,
so fighters close on the enemy, using cover, heroes not standing alone among enemies.
The activation deck's order is secret (a `SecretStack`): not in the view, never counted.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import ModelView


class ConfrontationEvaluation(Evaluation):
    name = "confrontation"
    counts = (
        "army points of fighters left, by wounds (heroes double)",
        "closeness to the enemy, cover, heroes not swarmed",
    )

    def is_leader(self, model: ModelView) -> bool:
        return dict(model.profile).get("Hero") == "yes"

    def model_value(self, model: ModelView) -> int:
        try:
            points = int(dict(model.profile).get("AP", "12"))
        except ValueError:
            points = 12
        value = SCALE * max(1, min(points, 200)) // 12
        return 2 * value if self.is_leader(model) else value
