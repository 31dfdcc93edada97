"""What the Kill Team computer player counts (engine.bot.evaluation).

Victory points; models left (a model out of action is what the tie-break and Breaking
count, so each is worth the same, the Leader double since losing it hurts the team's
Leadership); objective markers held (more models within 2", digest killteam §16); and
being near the markers, in cover, with the Leader away from enemy models.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation
from engine.view import ModelView


class KillTeamEvaluation(Evaluation):
    name = "killteam"
    counts = (
        "victory points (10 models each)",
        "models left (Leader double), by wounds",
        'objective markers held: more models within 2"',
        'nearness to the markers, cover, Leader away from enemies within 6"',
    )
    hold_range = 2

    def model_value(self, model: ModelView) -> int:
        base = SCALE * (2 if self.is_leader(model) else 1)
        return base // 2 if "shaken" in model.states else base
