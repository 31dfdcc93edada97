"""Wounds, injury rolls and mortal wounds (killteam §6.5.8, §6.5.9, §6.7): where every
attack ends, and psychic powers and falling too, without the hit and wound rolls."""

from __future__ import annotations

from engine.checks import Check, Modifier, at_least_one, percent
from engine.decisions import Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_reroll
from engine.wording import counted


def apply_damage(
    state: KTState,
    ctx: RuleContext,
    target: Model,
    damage: int,
    *,
    roller: int,
    injury_modifier: int = 0,
) -> Procedure[bool]:
    """Remove wounds; at 0 make the injury roll (§6.5.8, §6.5.9). True if one was made."""
    target.wounds = max(0, target.wounds - damage)
    ctx.emit(
        "ModelWounded",
        f"{target.name} loses {counted(damage, 'wound')}, {target.wounds} left",
        model=target.id,
        damage=damage,
        wounds=target.wounds,
    )
    if target.wounds > 0:
        return False
    yield from injury_roll(state, ctx, target, damage, roller=roller, modifier=injury_modifier)
    return True


def injury_roll(
    state: KTState, ctx: RuleContext, target: Model, dice: int, *, roller: int, modifier: int
) -> Procedure[None]:
    """Any die 4+ after modifiers: out of action; else a flesh wound (§6.5.9, §10 A20)."""
    check = injury_check(modifier, target.flesh_wounds)
    reason = f"injury roll of {target.id}"
    roll = ctx.dice.roll(dice, player=roller, reason=reason, check=check)
    slain = any(check.passes(f) for f in roll.faces)
    chance = at_least_one(check.chance(), dice)
    what = f"the injury roll (any die {check.describe()}: {percent(chance)})"
    if not slain and (yield from offer_reroll(state, ctx, roller, what, chance)):
        reason += " (Command Re-roll)"
        roll = ctx.dice.roll(dice, player=roller, reason=reason, check=check)
        slain = any(check.passes(f) for f in roll.faces)
    if not slain and target.flesh_wounds >= 3:
        slain = True
    if slain:
        target.out_of_action = True
        ctx.emit("ModelSlain", f"{target.name} is out of action", model=target.id, cause="injury")
    else:
        target.flesh_wounds += 1
        target.wounds = 1
        ctx.emit(
            "FleshWounded",
            f"{target.name} suffers a flesh wound ({target.flesh_wounds} in all)",
            model=target.id,
            flesh_wounds=target.flesh_wounds,
        )


def injury_check(modifier: int, flesh_wounds: int) -> Check:
    """One injury die: 4+ after modifiers puts the model out of action (§6.5.9)."""
    modifiers = (Modifier(modifier, "cover"), Modifier(flesh_wounds, "flesh wounds"))
    words = ("out of action", "flesh wound")
    return Check("injury", 4, "out of action", modifiers, fails_on=frozenset(), words=words)


def mortal_wounds(
    state: KTState,
    ctx: RuleContext,
    target: Model,
    amount: int,
    *,
    roller: int,
    injury_modifier: int = 0,
    source: str = "",
) -> Procedure[None]:
    """Mortal wounds from one source: one attack with D = amount, no save (§6.7)."""
    ctx.emit(
        "MortalWounds",
        f"{target.name} suffers {counted(amount, 'mortal wound')}{source}",
        model=target.id,
        amount=amount,
    )
    yield from apply_damage(
        state, ctx, target, amount, roller=roller, injury_modifier=injury_modifier
    )
