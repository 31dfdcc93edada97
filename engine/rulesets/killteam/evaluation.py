"""What the Kill Team computer player counts (engine.bot.evaluation).

Victory points; models left (a model out of action is what the tie-break and Breaking
count, so each is worth the same, the Leader double since losing it hurts the team's
Leadership); objective markers held (more models within 2", digest killteam §16); and
being near the markers, in cover, with the Leader away from enemy models.
"""

from __future__ import annotations

from engine.bot.evaluation import SCALE, Evaluation, number
from engine.view import ModelView


class KillTeamEvaluation(Evaluation):
    name = "killteam"
    counts = (
        "victory points (10 models each)",
        "models left (Leader double), by wounds",
        'objective markers held: more models within 2"',
        'nearness to the markers, cover, Leader away from enemies within 6"',
        "melee edge of models in base contact: attacks x hit chance x Strength",
        "a wounded Leader's peril: each enemy that can reach it (engine.bot.peril)",
    )
    hold_range = 2
    depth = 8
    """A charge takes up to eight choices to play out (targets, reactions, the move)."""
    settle = True
    muster = 40
    """A built roster takes up to 40 choices (models, wargear, specialisms): enough to
    see that 100 points buy more models than the prepared roster's 68."""
    budget = 240
    """Its choices are cheap to play (normal decided in 38 ms at the 95th percentile with
    60): four times that lets it weigh each action a model may take."""
    melee_weight = 2
    """A Reaver Brute (2 attacks hitting on 3+ at S4: 32) against a Militia Trooper (1 on
    4+ at S3: 9) is half a model's worth: worth charging, never worth being charged."""

    def melee(self, model: ModelView) -> int:
        profile = dict(model.profile)
        hits = 7 - min(6, max(2, number(profile.get("WS", "6+"), 6)))
        return number(profile.get("A", "1"), 1) * hits * number(profile.get("S", "3"), 3)

    def model_value(self, model: ModelView) -> int:
        base = SCALE * (2 if self.is_leader(model) else 1)
        return base // 2 if "shaken" in model.states else base
