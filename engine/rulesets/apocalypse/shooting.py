"""The Shoot action (digest apocalypse §6.9): eligibility, targets, modifiers, resolution.

Every ranged weapon may fire at one target of its own (§10 A19); all targets are
declared before any die is rolled (A20) and weapons resolve in datasheet order (A21).
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.checks import Modifier
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.attacks import attacks_of, hit_check, odds, resolve_attacks
from engine.rulesets.apocalypse.geometry import (
    distance,
    enemies,
    friends_in_contact,
    is_engaged,
    obscured,
    visible,
)
from engine.rulesets.apocalypse.profiles import Weapon
from engine.rulesets.apocalypse.state import ApocState, Unit
from engine.wording import counted, says

SHOOT_WHILE_ENGAGED = ("BUILDING", "AIRCRAFT", "SUPER_HEAVY")
"""Shooters that may fire in base contact (S81) and targets that may be shot while
touching the shooter's friends (S72, A18)."""


def ignores_fall_back(unit: Unit) -> bool:
    """TITANIC and FLY units may still shoot and fight after Falling Back (§6.5 step 6)."""
    return bool({"TITANIC", "FLY"} & unit.sheet.keywords)


def can_shoot(state: ApocState, unit: Unit) -> bool:
    """§6.9.1: on the battlefield, a ranged weapon, not fallen back, not engaged."""
    if not unit.on_battlefield or not unit.sheet.ranged:
        return False
    if unit.fell_back and not ignores_fall_back(unit):
        return False
    if any(unit.sheet.has(k) for k in SHOOT_WHILE_ENGAGED):
        return True
    return not is_engaged(state, unit)


def targets_for(state: ApocState, unit: Unit, weapon: Weapon) -> list[Unit]:
    """Enemy units in range and visible, not touching other friends (§6.9.2 step 2-3)."""
    assert weapon.range is not None
    return list(_targets(state, unit, weapon.range))


def _targets(state: ApocState, unit: Unit, reach: int) -> Iterator[Unit]:
    r = unit.rect
    for target in enemies(state, unit):
        if rect_distance(r, target.rect) > reach or not visible(state, unit, target):
            continue
        if not any(target.sheet.has(k) for k in SHOOT_WHILE_ENGAGED) and friends_in_contact(
            state, target, unit
        ):
            continue
        yield target


def has_targets(state: ApocState, unit: Unit) -> bool:
    """Some ranged weapon has a target now, so a Shoot action is worth offering (§6.9.2)."""
    longest = max((w.range or 0 for w in unit.sheet.ranged), default=0)
    return next(_targets(state, unit, longest), None) is not None


def hit_modifiers(
    state: ApocState, shooter: Unit, target: Unit, weapon: Weapon, *, free: bool
) -> tuple[Modifier, ...]:
    """The hit modifiers of a ranged attack, each with its rule (§6.9.3): listed one by
    one so the option and the dice line say why the roll needs what it needs."""
    mods: list[Modifier] = []
    if state.detachment_of(shooter).order == "AIMED_FIRE" and not free:
        mods.append(Modifier(1, "Aimed Fire"))
    if obscured(state, shooter, target):
        mods.append(Modifier(-1, "obscured"))
    if shooter.critical and weapon.type == "HEAVY":
        mods.append(Modifier(-1, "critical damage, heavy weapon"))
    return tuple(mods)


def hit_modifier(
    state: ApocState, shooter: Unit, target: Unit, weapon: Weapon, *, free: bool
) -> int:
    """Sum of `hit_modifiers`: the natural result that hits is the BS less this."""
    return sum(m.amount for m in hit_modifiers(state, shooter, target, weapon, free=free))


def shoot_action(
    state: ApocState, ctx: RuleContext, unit: Unit, *, free: bool = False
) -> Procedure[bool]:
    """Declare every weapon's target, then resolve in datasheet order (§6.9.2-§6.9.3).

    ``free`` marks a free action (§6.4.1 item 4): order modifiers do not apply. Returns
    True if at least one weapon fired.
    """
    declared: list[tuple[Weapon, Unit, tuple[Modifier, ...]]] = []
    for weapon in unit.sheet.ranged:
        targets = targets_for(state, unit, weapon)
        if not targets:
            continue
        options = []
        for t in targets:
            mods = hit_modifiers(state, unit, t, weapon, free=free)
            needed = unit.sheet.bs - sum(m.amount for m in mods)
            check = hit_check(needed, unit.sheet.bs, "BS", mods)
            options.append(
                Option(
                    t.uid,
                    f'{t.name}, {distance(unit, t)}": needs {check.describe()}',
                    cell=t.anchor,
                    model=t.uid,
                    odds=odds(weapon, t, needed),
                    detail=f"{counted(attacks_of(unit, weapon), 'attack')} with "
                    f"{weapon.describe()}",
                )
            )
        options.append(Option("hold", "Hold fire", neutral=True))
        choice = yield Decision(
            unit.owner,
            DecisionKind.PICK_TARGET,
            f"{unit.name}: target for {weapon.name}?",
            tuple(options),
            subject=unit.uid,
        )
        if choice.key != "hold":
            target = state.units[choice.key]
            declared.append((weapon, target, hit_modifiers(state, unit, target, weapon, free=free)))
    if not declared:
        return False
    unit.shot = True
    ctx.emit(
        "ShotsDeclared",
        f"{says(unit.name, 'shoots')}: "
        + "; ".join(f"{w.name} at {t.name}" for w, t, _ in declared)
        + (" (free action)" if free else ""),
        player=unit.owner,
        unit=unit.uid,
    )
    reroll = unit.detachment in state.effects.march_reroll and not free
    for weapon, target, mods in declared:
        needed = unit.sheet.bs - sum(m.amount for m in mods)
        count = attacks_of(unit, weapon)
        resolve_attacks(
            ctx, unit, weapon, target, count, needed, reroll_ones=reroll, modifiers=mods
        )
    return True
