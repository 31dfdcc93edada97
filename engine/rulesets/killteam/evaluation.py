"""What the Kill Team computer player counts (engine.bot.evaluation).

Victory points; models left (a model out of action is what the tie-break and Breaking
count, so each is worth the same, the Leader double since losing it hurts the team's
Leadership); objective markers held (more models within 2", digest killteam §16); and
being near the markers, in cover, with the Leader away from enemy models.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from engine.board import Board
from engine.bot.evaluation import SCALE, Evaluation, number
from engine.decisions import Decision, Option
from engine.events import Event
from engine.view import GameView, ModelView

CHARGE = "charge"
"""Key of the Charge movement action (its odds: reaching the likeliest enemy)."""
PASS_ALL = "pass_all"
"""Key of "Pass with the remaining N models" (engine.rulesets.killteam.activation)."""
LIKELY = Fraction(1, 2)
"""A charge this likely to arrive is declared where its fight is worth it."""
HOPELESS = Fraction(1, 3)
"""A charge less likely than this is never declared: the action is spent for a roll that
mostly leaves the model short of its target, out of its Normal Move."""


class KillTeamEvaluation(Evaluation):
    name = "killteam"
    counts = (
        "victory points (10 models each)",
        "models left (Leader double), by wounds",
        'objective markers held: more models within 2"',
        'nearness to the markers, cover, Leader away from enemies within 6"',
        "melee edge of models in base contact: attacks x hit chance x Strength",
        "a wounded Leader's peril: each enemy that can reach it (engine.bot.peril)",
        "a shot that can hurt (some chance unsaved on its odds) is fired, a fight fought, "
        "one that cannot (unsaved 0%) passed; "
        "a charge at even odds or better into a fight it edges is declared, under a third "
        "never",
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

    judging = True

    def judge(
        self, decision: Decision, view: GameView, board: Board, events: Sequence[Event]
    ) -> str | None:
        """A likely charge into a fight worth having is declared: its look-ahead played on
        few futures of the dice and, charge tied with moving in the quick worth, was often
        not looked at (normal charged 3 of 36 likely charges against random)."""
        charge = next((o for o in decision.options if o.key == CHARGE), None)
        if charge is None or charge.odds is None:
            return None
        charger = view.model(decision.subject) if decision.subject else None
        if charger is None or (self.is_leader(charger) and charger.wounds < charger.max_wounds):
            return None  # a wounded Leader weighs its peril in the look-ahead (engine.bot.peril)
        if charge.odds.chances[0][1] >= LIKELY and self._worth_fighting(charge, view, decision):
            return CHARGE
        return None

    def needless(self, decision: Decision, view: GameView) -> frozenset[str]:
        """Passing beside a shot that can hurt or a fight (neither costs the model
        anything in Kill Team: a look-ahead where passing reached the end of the round,
        and its objectives scored, before the shot's dice had played out, made normal
        pass 12% of its shots); passing the remaining models at once; a hopeless charge
        or one into a fight not worth having; beside passing, an attack that cannot wound
        (`option_worth`)."""
        keys = {o.key for o in decision.options}
        out: set[str] = set()
        if "pass" in keys and any(
            o.odds is not None and (o.odds.unsaved or 0) > 0 for o in decision.options
        ):
            out.add("pass")
        if keys == {"fight", "pass"}:
            out.add("pass")
        if "pass" in keys:  # an attack that cannot wound, beside passing (`option_worth`)
            out |= {o.key for o in decision.options if _futile(o)}
        if PASS_ALL in keys and len(keys) > 1:
            out.add(PASS_ALL)
        charge = next((o for o in decision.options if o.key == CHARGE), None)
        if charge is not None and charge.odds is not None:
            hopeless = charge.odds.chances[0][1] < HOPELESS
            if hopeless or not self._worth_fighting(charge, view, decision):
                out.add(CHARGE)
        return frozenset(out)

    def option_worth(self, option: Option) -> int:
        """A charge's odds are of arriving, not of a kill: it draws level with moving at
        even odds (the quick worth counts 4 `SCALE` times an option's chance). An attack
        whose odds say it cannot wound ("[hit 0%, wound 0%, unsaved 0%]": out of reach,
        no sight) is worth less than passing: a shot costs nothing in Kill Team, and
        both computers fired pistols at troopers beyond their range, for show, in every
        game a player watched."""
        if option.key == CHARGE and option.odds is not None:
            return -2 * SCALE
        return -2 * SCALE if _futile(option) else 0

    def _worth_fighting(self, charge: Option, view: GameView, decision: Decision) -> bool:
        """The charger hits at least as hard in melee as the enemy it would reach."""
        charger = view.model(decision.subject) if decision.subject else None
        target = view.model(charge.model) if charge.model else None
        if charger is None or target is None:
            return False
        return self.melee(charger) >= self.melee(target)

    def melee(self, model: ModelView) -> int:
        profile = dict(model.profile)
        hits = 7 - min(6, max(2, number(profile.get("WS", "6+"), 6)))
        return number(profile.get("A", "1"), 1) * hits * number(profile.get("S", "3"), 3)

    def model_value(self, model: ModelView) -> int:
        base = SCALE * (2 if self.is_leader(model) else 1)
        return base // 2 if "shaken" in model.states else base


def _futile(option: Option) -> bool:
    """An attack whose odds say it cannot wound: "[hit 0%, wound 0%, unsaved 0%]"."""
    return option.key != CHARGE and option.odds is not None and option.odds.unsaved == 0
