"""What the Apocalypse computer player counts (engine.bot.evaluation).

Victory points; units left weighted by their category (a HEAVY unit counts double, a
SUPER-HEAVY four times: destroyed points break ties; each once, however many cells its
footprint covers), the Warlord double; objectives held
(more units within 3", digest apocalypse §12.5); and nearness to the objectives, cover,
the Warlord kept away from enemies. Secret orders and asset hands are not in the view, so
they are not counted; `Apocalypse.conceal` guesses them for look-ahead copies.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import ModelView

WEIGHTS = {"LIGHT": 1, "HEAVY": 2, "SUPER-HEAVY": 4}


class ApocalypseEvaluation(Evaluation):
    name = "apocalypse"
    counts = (
        "victory points (10 units each)",
        "units left by wounds, HEAVY x2, SUPER-HEAVY x4, Warlord x2",
        'objectives held: more units within 3"',
        "nearness to objectives, cover, Warlord away from enemies",
    )
    hold_range = 3
    budget = 45
    """Big armies make its choices dear to play: five look-aheads a decision at most."""

    def is_leader(self, model: ModelView) -> bool:
        return any("warlord" in state for state in model.states)

    def model_value(self, model: ModelView) -> int:
        kind = dict(model.profile).get("Type", "LIGHT")
        value = SCALE * WEIGHTS.get(kind, 1)
        return 2 * value if self.is_leader(model) else value
