"""SHOOT, AIM and misfires (digest fatigue §6.10, §6.11, §6.29).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from functools import partial

from engine.board import Cell
from engine.checks import TABLE, Modifier, percent
from engine.decisions import Odds, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.charge import is_spotted
from engine.rulesets.fatigue.checks import fatigue_penalty, hit_check, unit_defense
from engine.rulesets.fatigue.damage import take_hits, wound
from engine.rulesets.fatigue.geometry import dist, has_los, is_covered
from engine.rulesets.fatigue.movement import reveal
from engine.rulesets.fatigue.profiles import Weapon
from engine.rulesets.fatigue.prompts import pick_target_unit
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.rulesets.fatigue.tables import (
    COVER_PENALTY,
    MISFIRE_TABLE,
    MOVE_SHOOT_PENALTY,
    table_entry,
)
from engine.wording import counted, says


def shooters(state: FState, unit: Unit, target: Unit) -> list[tuple[Model, list[Cell]]]:
    """Models that can fire at the target, with the target cells each one sees (§6.10 step 3).

    A shooter needs a usable weapon, line of sight to a target model and the nearest
    visible one within range.
    """
    out = []
    for model in unit.alive():
        if model.cell is None or not model.can_fire(state.round):
            continue
        assert model.profile.ranged is not None
        cells = target.cells()
        if not cells or min(dist(state, model.cell, c) for c in cells) > model.profile.ranged.range:
            continue  # no target model in range, seen or not: no sight line to trace
        seen = [c for c in cells if has_los(state, model.cell, c)]
        near = min((dist(state, model.cell, c) for c in seen), default=None)
        if near is not None and near <= model.profile.ranged.range:
            out.append((model, seen))
    return out


def shoot_targets(state: FState, unit: Unit) -> list[Unit]:
    """Enemy units that may be shot (§6.10 steps 1-3): free, spotted, in sight and range.

    PROPOSED/FILL-IN (§10 #36): no shooting into or out of scrums; STUPID units
    cannot shoot (SEED).
    """
    if unit.engaged or unit.stupid:
        return []
    return [
        t
        for t in state.units_in_order()
        if t.player != unit.player
        and not t.engaged
        and is_spotted(state, t, unit)
        and shooters(state, unit, t)
    ]


def can_aim(unit: Unit) -> bool:
    """AIM needs a free unit with a ranged weapon that still exists (§6.11 step 1)."""
    return not unit.engaged and any(
        m.profile.ranged is not None and not m.weapon_destroyed for m in unit.alive()
    )


def aim_action(ctx: RuleContext, unit: Unit) -> None:
    """AIM: +1 per Aim to the next SHOOT, and no movement penalty (SEED, §6.11)."""
    unit.aim += 1
    ctx.emit(
        "UnitAimed", f"{says(unit.name, 'takes')} aim (+{unit.aim})", unit=unit.id, aim=unit.aim
    )


def is_obscured(state: FState, fire: list[tuple[Model, list[Cell]]]) -> bool:
    """At least half of the target models the shooters see are in cover (FILL-IN, §11.3)."""
    seen = sorted({c for _, cells in fire for c in cells})
    eyes = [m.cell for m, _ in fire if m.cell is not None]
    covered = sum(is_covered(state, eyes, c) for c in seen)
    return bool(seen) and 2 * covered >= len(seen)


def shooting_modifier(state: FState, unit: Unit, obscured: bool) -> int:
    """The sum of `shooting_modifiers`."""
    return sum(m.amount for m in shooting_modifiers(unit, obscured))


def shooting_modifiers(unit: Unit, obscured: bool) -> tuple[Modifier, ...]:
    """+aim, -1 moved without aim, -fatigue unless frenzied, -1 obscured (§6.10 step 4)."""
    rules = [
        (unit.aim, "aim"),
        (-MOVE_SHOOT_PENALTY if unit.moved and unit.aim == 0 else 0, "moved"),
        (-fatigue_penalty(unit), "fatigue"),
        (-COVER_PENALTY if obscured else 0, "obscured"),
    ]
    return tuple(Modifier(v, why) for v, why in rules if v)


def shot_odds(state: FState, unit: Unit, target: Unit) -> Odds:
    """The chance that one shot at ``target`` hits, from the check the shot rolls."""
    fire = shooters(state, unit, target)
    modifiers = shooting_modifiers(unit, is_obscured(state, fire))
    return Odds(hit=hit_check(modifiers, unit_defense(target)).chance())


def shoot_action(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """SHOOT (§6.10 steps 1-8; decision points 11 and 20)."""
    targets = shoot_targets(state, unit)
    if not targets:
        ctx.emit("ShotImpossible", f"{says(unit.name, 'has')} nothing to shoot at", unit=unit.id)
        return
    odds = partial(shot_odds, state, unit)
    target = yield from pick_target_unit(state, ctx, unit, targets, "shoot", odds)
    fire = shooters(state, unit, target)
    modifiers = shooting_modifiers(unit, is_obscured(state, fire))
    modifier = sum(m.amount for m in modifiers)
    defense = unit_defense(target)
    check = hit_check(modifiers, defense)
    thrown = sum(_weapon(model).attacks for model, _ in fire)
    # Told in the order §6.10 resolves it: who shoots whom before the dice (the dice had
    # come first, with no word of the target), the hits after them (step 5), the losses
    # (step 6), then a shot from hiding ambushes the target and reveals the shooters
    # (step 7: the ambush line had come before the to-hit dice).
    ctx.emit(
        "ShotDeclared",
        f"{says(unit.name, 'shoots')} {target.name} at {modifier:+d} against Def {defense} "
        f"({percent(check.chance())} each, {counted(thrown, 'die', 'dice')})",
        unit=unit.id,
        target=target.id,
        modifier=modifier,
        player=unit.player,
        dice=thrown,
    )
    hits: list[int] = []
    misfiring: list[Model] = []
    for model, _ in fire:
        weapon = _weapon(model)
        reason = f"shooting to-hit: {model.name}"
        roll = ctx.dice.roll(weapon.attacks, 6, player=unit.player, reason=reason, check=check)
        hits += [weapon.damage for f in roll.faces if check.passes(f)]
        if weapon.unstable and 1 in roll.faces and state.modules.misfires:
            misfiring.append(model)
    ctx.emit(
        "ShotsResolved",
        f"{says(unit.name, 'scores')} {counted(len(hits), 'hit')} on {target.name}",
        unit=unit.id,
        target=target.id,
        hits=len(hits),
        modifier=modifier,
        player=unit.player,
        dice=thrown,
    )
    for model in misfiring:
        misfire(state, ctx, model)
    harm = yield from take_hits(state, ctx, target, hits, f"shots from {unit.name}")
    target.lost_to_shooting += harm.removed
    if unit.camouflaged:
        target.ambushed = True
        if target.alive():  # a destroyed target takes no panic test: no word of it
            ctx.emit(
                "UnitAmbushed",
                f"{says(target.name, 'is')} ambushed by {unit.name}",
                unit=target.id,
            )
    reveal(ctx, unit)
    unit.aim = 0  # PROPOSED: the shot uses the aim up (§10 #9)


def _weapon(model: Model) -> Weapon:
    """A shooter's ranged weapon (`shooters` lists only models that have one)."""
    assert model.profile.ranged is not None
    return model.profile.ranged


def misfire(state: FState, ctx: RuleContext, model: Model) -> None:
    """Roll on the misfire table for a natural 1 of an UNSTABLE weapon (FILL-IN, §6.29)."""
    face = ctx.dice.d6(player=model.player, reason=f"misfire: {model.name}", check=TABLE)
    result = table_entry(MISFIRE_TABLE, face)
    ctx.emit("WeaponMisfired", f"{model.name}'s weapon misfires: {result}", model=model.id)
    if result == "Blowback":
        model.weapon_destroyed = True
        wound(state, ctx, model, 1, "Blowback")
    elif result == "Jam":
        model.jammed_until = state.round + 1
