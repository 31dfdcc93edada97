"""One exchange of a scrum: draw-in, Fear (a), strike steps, Hatred, damage.

Digest fatigue §6.7 (drawn into a scrum), §6.8 (steps 1-7), §6.22 item 2, §6.24 item 2,
§6.26, §6.28 item 2. Higher effective Mobility strikes first and equal values strike
together (PROPOSED, §10 #6): the models that strike in a step are fixed when the step
begins, so a model slain in its own step still strikes.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.checks import Check
from engine.decisions import DecisionKind, Odds, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import (
    hit_check,
    melee_modifier,
    melee_modifiers,
    morale_test,
    subject_to_fear,
    unit_defense,
)
from engine.rulesets.fatigue.damage import take_hits
from engine.rulesets.fatigue.drawin import draw_in
from engine.rulesets.fatigue.hatred import hatred_rerolls
from engine.rulesets.fatigue.prompts import pick, unit_id, unit_option
from engine.rulesets.fatigue.scrums import settle_scrum
from engine.rulesets.fatigue.state import FState, Model, Scrum, Unit
from engine.rulesets.fatigue.tables import BRACE_BONUS, LEAP_BONUS
from engine.wording import agrees, counted, says


def effective_mobility(unit: Unit, model: Model) -> int:
    """M, +1 if braced, +1 with a pending Leap Attack (SEED, §6.8 step 3)."""
    value = model.profile.mobility
    if unit.braced:
        value += BRACE_BONUS
    if unit.leap_bonus:
        value += LEAP_BONUS
    return value


def dice_per_model(unit: Unit, model: Model, activator: Unit) -> int:
    """Melee A, x2 for Frenzy or Whirlwind (never x4), 0 when STUPID (§6.8 step 4.2)."""
    if unit.stupid:
        return 0
    dice = model.profile.melee.attacks
    if unit.frenzied or (unit is activator and unit.whirlwind):
        dice *= 2  # PROPOSED: the two doublings do not stack (§10 #24)
    return dice


@dataclass(slots=True)
class Exchange:
    """What one exchange keeps from step to step."""

    scrum: Scrum
    activator: Unit
    units: list[Unit]
    """Participants when the exchange began (after draw-in), in id order."""
    targets: dict[int, int] = field(default_factory=dict)
    """Each unit's chosen enemy unit, kept for the whole exchange."""


def resolve_exchange(
    state: FState, ctx: RuleContext, scrum: Scrum, activator: Unit
) -> Procedure[None]:
    """One resolution of a scrum with ``activator`` as the activating unit (§6.8)."""
    draw_in(state, ctx, scrum)
    fear_a(state, ctx, scrum, activator)
    units = [state.units[i] for i in scrum.members() if state.units[i].in_play]
    ex = Exchange(scrum, activator, units)
    ctx.emit("ExchangeStarted", f"Scrum {scrum.id}: exchange {scrum.exchanges + 1}", scrum=scrum.id)
    values = sorted({effective_mobility(u, m) for u in units for m in u.alive()}, reverse=True)
    for value in values:
        strikers = {
            u.id: [m for m in u.alive() if effective_mobility(u, m) == value] for u in units
        }
        for unit in units:
            if strikers[unit.id]:
                yield from strike(state, ctx, ex, unit, strikers[unit.id], value)
    scrum.exchanges += 1
    for unit in units:
        unit.first_exchange = False
        unit.leap_bonus = False
    activator.whirlwind = False
    settle_scrum(state, ctx, scrum)


def fear_a(state: FState, ctx: RuleContext, scrum: Scrum, activator: Unit) -> None:
    """Fear (a): enemies attacked by a fear-causer test once a round (SEED, §6.8 step 2)."""
    if not activator.causes_fear:
        return
    for uid in sorted(scrum.sides[1 - activator.player]):
        unit = state.units[uid]
        if not unit.in_play or unit.fear_tested_a or not subject_to_fear(state, unit, activator):
            continue
        unit.fear_tested_a = True
        if not morale_test(ctx, unit, f"fear of {activator.name}"):
            unit.feared = True
            ctx.emit(
                "UnitFeared", f"{says(unit.name, 'is')} afraid: -1 to hit and Morale", unit=unit.id
            )


def strike(
    state: FState, ctx: RuleContext, ex: Exchange, unit: Unit, strikers: list[Model], value: int
) -> Procedure[None]:
    """One unit's strikes in one strike step (§6.8 step 4.1-4.7; decision points 12-14)."""
    target = yield from choose_target(ctx, unit, ex)
    if target is None:
        return
    modifier = melee_modifier(unit)
    defense = unit_defense(target)
    check = hit_check(melee_modifiers(unit), defense)
    dice = roll_strikes(ctx, unit, strikers, ex.activator, check)
    if not dice:
        return
    if target.faction in unit.spec.hates and unit.first_exchange:
        dice = yield from hatred_rerolls(ctx, unit, target, dice, check)
    hits = [dmg for face, dmg in dice if check.passes(face)]
    ctx.emit(
        "StrikesResolved",
        # The faces and what they needed are on the dice lines just before.
        f"{unit.name} (step {value}) {agrees(unit.name, 'strikes')} {target.name}: "
        f"{counted(len(hits), 'hit')}",
        unit=unit.id,
        target=target.id,
        hits=len(hits),
        modifier=modifier,
        player=unit.player,
        dice=len(dice),
    )
    harm = yield from take_hits(state, ctx, target, hits, f"melee from {unit.name}")
    ex.scrum.wounds[target.player] += harm.applied


def roll_strikes(
    ctx: RuleContext,
    unit: Unit,
    strikers: list[Model],
    activator: Unit,
    check: Check,
) -> list[tuple[int, int]]:
    """Each striker's dice, then its Ramming die (§6.8 steps 4.2-4.3, §6.1 item 5).

    Returns (face, damage) pairs, damage 0 meaning D2.
    """
    dice: list[tuple[int, int]] = []
    for model in strikers:
        count = dice_per_model(unit, model, activator)
        if count:
            reason = f"melee to-hit: {model.name}"
            roll = ctx.dice.roll(count, 6, player=unit.player, reason=reason, check=check)
            dice += [(f, model.profile.melee.damage) for f in roll.faces]
        if unit.leap_bonus and not unit.stupid:
            # PROPOSED (§10 #27): the Ramming strike rolls to hit like any die.
            reason = f"ramming strike: {model.name}"
            ram = ctx.dice.roll(1, 6, player=unit.player, reason=reason, check=check)
            dice.append((ram.faces[0], 0))
    return dice


def strike_odds(unit: Unit, target: Unit) -> Odds:
    """The chance that one strike at ``target`` hits, from the check the strike rolls."""
    return Odds(hit=hit_check(melee_modifiers(unit), unit_defense(target)).chance())


def choose_target(ctx: RuleContext, unit: Unit, ex: Exchange) -> Procedure[Unit | None]:
    """Keep the unit's target for the exchange; choose again if it is gone (§6.8 step 4.1)."""
    enemies = [u for u in ex.units if u.player != unit.player and u.in_play]
    by_id = {u.id: u for u in enemies}
    kept = ex.targets.get(unit.id)
    if kept is not None and kept in by_id:
        return by_id[kept]
    if not enemies:
        return None
    target = enemies[0]
    if len(enemies) > 1:
        key = yield from pick(
            unit.player,
            DecisionKind.PICK_TARGET,
            f"{says(unit.name, 'strikes')}: choose the enemy unit in the scrum",
            [unit_option(u, odds=strike_odds(unit, u)) for u in enemies],
        )
        target = by_id[unit_id(key)]
    else:
        ctx.answered(
            f"{says(target.name, 'is')} the only enemy unit {unit.name} can strike.", unit.player
        )
    ex.targets[unit.id] = target.id
    return target
