"""Damage rolls, wound accumulation and removing the dead (digest confrontation §6.1.4).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.ruleset import RuleContext
from engine.rulesets.confrontation.rolls import damage_roll
from engine.rulesets.confrontation.state import CState, Fighter, GameOver
from engine.rulesets.confrontation.tables import Result, Wound, accumulate, location


def inflict_damage(
    state: CState, ctx: RuleContext, player: int, target: Fighter, strength: int, reason: str
) -> Result:
    """Roll 2d6 on the wound table and apply T2 (§6.1.4 steps 1-4).

    ``player`` is the seat rolling the dice (the attacker or shooter).
    """
    dice, result = damage_roll(ctx, player, strength, target.profile.res, reason)
    before = target.wound
    target.wound = accumulate(before, result)
    lo, hi = min(dice), max(dice)
    where = "double 6" if lo == hi == 6 else location(lo).lower()
    read, now = result.name.lower(), target.wound.name.lower()
    if target.wound == before:
        read += ", no effect"
    elif now != read:  # "light, now serious"; not "killed, now killed"
        read += f", now {now}"
    ctx.emit(
        "DamageRolled",
        # The dice line just before has the faces, STR and RES; this line what they did.
        f"{reason[:1].upper()}{reason[1:]} on {target.name}: dice {lo}/{hi} ({where}): {read}",
        player=player,
        model=target.id,
        strength=strength,
        res=target.profile.res,
        low=lo,
        high=hi,
        result=result.name.lower(),
        wound=target.wound.name.lower(),
    )
    if target.wound is Wound.KILLED:
        remove_dead(state, ctx, target)
    return result


def remove_dead(state: CState, ctx: RuleContext, fighter: Fighter) -> None:
    """Take a killed fighter off the table; end the game if it was its side's last (§4.4, A34)."""
    fighter.wound = Wound.KILLED
    fighter.cell = None
    ctx.emit("FighterKilled", f"{fighter.name} is killed", model=fighter.id, player=fighter.player)
    if not state.on_table(fighter.player):
        raise GameOver(fighter.player)
