"""What the Fatigue computer player counts (engine.bot.evaluation).

Victory points; models left (a side routs when too many are out of action, so every
model counts; a Leader or commander double); objectives held (more models within 2
steps, digest fatigue scoring); nearness to them, cover, the Leader kept out of reach.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import ModelView


class FatigueEvaluation(Evaluation):
    name = "fatigue"
    counts = (
        "victory points (10 models each)",
        "models left, by wounds (Leader and commanders double, fleeing half)",
        "objectives held: more models within 2 steps",
        "nearness to objectives, cover, Leader away from enemies",
    )
    hold_range = 2

    def is_leader(self, model: ModelView) -> bool:
        return "Leader" in model.states or "commander" in model.states

    def model_value(self, model: ModelView) -> int:
        value = SCALE * (2 if self.is_leader(model) else 1)
        return value // 2 if "fleeing" in model.states else value
