"""What the Fatigue computer player counts (engine.bot.evaluation).

Victory points; the rout coming near (models out of action against the rout threshold,
squared); models left (a side routs when too many are out of action, so every
model counts; a Leader or commander double); objectives held (more models within 2
steps, digest fatigue scoring); fatigue tokens (an extra activation's price: they lower
to-hit rolls and Morale); nearness to the objectives, cover, the Leader kept out of reach.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import GameView, ModelView


class FatigueEvaluation(Evaluation):
    name = "fatigue"
    counts = (
        "victory points (10 models each)",
        "the rout coming near: models out of action against the rout threshold, squared "
        "(at the threshold, 4 models more)",
        "models left, by wounds (Leader and commanders double, fleeing half)",
        "fatigue tokens (each a fifth of a model: they lower to-hit and Morale)",
        "objectives held: more models within 2 steps (half a model each)",
        "nearness to objectives, cover, Leader away from enemies",
    )
    hold_range = 2
    hold_weight = SCALE // 2
    """Half a model: an objective scores only at the end of rounds 2-6, while a model lost
    brings the rout nearer for good."""

    budget = 100
    """Its choices are cheap to play: up to three futures of the dice for each close call."""

    def is_leader(self, model: ModelView) -> bool:
        return "Leader" in model.states or "commander" in model.states

    def side_worth(self, view: GameView, player: int) -> int:
        """A side routs (and loses) at once when a test fails past the threshold: each
        model lost brings that nearer, faster and faster."""
        text = dict(view.sides[player].resources).get("Out of action", "")
        out, _, rest = text.partition(" (rout at ")
        threshold = rest.removesuffix(")")
        if not (out.isdigit() and threshold.isdigit()) or int(threshold) <= 0:
            return 0
        lost, limit = min(int(out), 99), int(threshold)
        return -4 * SCALE * lost * lost // (limit * limit)

    def condition(self, model: ModelView) -> int:
        for state in model.states:
            if state.startswith("fatigue "):
                tokens = state.removeprefix("fatigue ")
                return SCALE // 5 * min(int(tokens), 10) if tokens.isdigit() else 0
        return 0

    def model_value(self, model: ModelView) -> int:
        value = SCALE * (2 if self.is_leader(model) else 1)
        return value // 2 if "fleeing" in model.states else value
