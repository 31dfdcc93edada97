"""To-hit rolls, Morale tests and who is subject to psychology (digest fatigue §6.1, §6.14).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.checks import Check, Modifier
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.geometry import dist
from engine.rulesets.fatigue.profiles import Psych
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import (
    BRACE_BONUS,
    FATIGUE_HIT_MOD,
    FATIGUE_MORALE_MOD,
    FEAR_MOD,
    TERROR_MOD,
)


def hit_check(modifier: int | tuple[Modifier, ...], defense: int) -> Check:
    """A to-hit die (FILL-IN, §6.1 item 2): natural 1 misses, natural 6 hits; Hatred
    re-rolls are the owner's pick, so they are their own rolls of this check."""
    modifiers = (Modifier(modifier, "modifier"),) if isinstance(modifier, int) else modifier
    words = ("hit", "miss")
    return Check("hit", defense, f"Def {defense}", modifiers, passes_on=SIX, words=words)


def is_hit(raw: int, modifier: int, defense: int) -> bool:
    """One to-hit die against `hit_check`."""
    return hit_check(modifier, defense).passes(raw)


SIX = frozenset({6})
DAMAGE = Check.purpose("damage")


def fatigue_penalty(unit: Unit) -> int:
    """-1 per fatigue token, ignored by frenzied units (SEED/PROPOSED, §6.4)."""
    return 0 if unit.frenzied else unit.fatigue * FATIGUE_HIT_MOD


def melee_modifier(unit: Unit) -> int:
    """The modifier on every melee die of a unit (§6.8 step 4.4)."""
    return sum(m.amount for m in melee_modifiers(unit))


def melee_modifiers(unit: Unit) -> tuple[Modifier, ...]:
    """Each melee modifier of a unit with its reason (§6.8 step 4.4)."""
    rules = [
        (-fatigue_penalty(unit), "fatigue"),
        (BRACE_BONUS if unit.braced else 0, "braced"),
        # Terror replaces the fear -1 (PROPOSED, §10 #21).
        (-TERROR_MOD if unit.terrified else -FEAR_MOD if unit.feared else 0, "fear"),
    ]
    return tuple(Modifier(v, why) for v, why in rules if v)


def unit_defense(unit: Unit) -> int:
    """The unit's Def: its troops' profile value, shared by a commander (§6.8 step 4.5)."""
    troops = [m for m in unit.models if not m.profile.commander] or unit.models
    return troops[0].profile.defense


def troop_morale(unit: Unit) -> int:
    """The troops' own Morale: the non-commander profile (§6.14 item 1)."""
    troops = [m for m in unit.models if not m.profile.commander] or unit.models
    return troops[0].profile.morale


def base_morale(unit: Unit) -> int:
    """A living commander's Mo unless the unit is fleeing, else the troops' (SEED, §6.15)."""
    commander = unit.commander()
    if commander is not None and not unit.fleeing:
        return commander.profile.morale
    return troop_morale(unit)


def effective_morale(unit: Unit, base: int | None = None) -> int:
    """Base Morale with fatigue, fear and terror (§6.14 item 2)."""
    return morale_parts(unit, base)[0]


def morale_parts(unit: Unit, base: int | None = None) -> tuple[int, str]:
    """The effective Morale and how it is made, for the dice line: "Morale 3, -3 fatigue"
    (a bare "Morale 0" did not say why a Mo 3 unit could not pass)."""
    value = base_morale(unit) if base is None else base
    parts = [f"Morale {value}"]
    if not unit.frenzied and unit.fatigue:
        value -= unit.fatigue * FATIGUE_MORALE_MOD
        parts.append(f"-{unit.fatigue * FATIGUE_MORALE_MOD} fatigue")
    if unit.terrified and unit.engaged:
        value -= TERROR_MOD  # replaces the fear -1 (PROPOSED, §10 #21)
        parts.append(f"-{TERROR_MOD} terror")
    elif unit.feared:
        value -= FEAR_MOD
        parts.append(f"-{FEAR_MOD} fear")
    return value, ", ".join(parts)


def morale_check(target: int, why: str, basis: str = "") -> Check:
    """One D6, passed on a roll at most the effective Morale (SEED, §6.1 item 3);
    ``basis`` says how that Morale is made (`morale_parts`)."""
    words = ("passes", "fails")
    no_auto = frozenset[int]()
    return Check(
        why, target, basis or f"Morale {target}", at_most=True, fails_on=no_auto, words=words
    )


def morale_test(ctx: RuleContext, unit: Unit, why: str, base: int | None = None) -> bool:
    """One D6 for the whole unit: pass on roll <= effective Morale (SEED, §6.1 item 3).

    The die is always rolled, even when the result is certain (PROPOSED), so the dice
    stream never depends on modifiers.
    """
    target, basis = morale_parts(unit, base)
    check = morale_check(target, why, basis)
    roll = ctx.dice.d6(player=unit.player, reason=f"{why} test of {unit.name}", check=check)
    passed = check.passes(roll)
    ctx.emit(
        "MoraleTested",
        "",  # the dice line says it all
        unit=unit.id,
        test=why,
        roll=roll,
        target=target,
        passed=passed,
    )
    return passed


def frenzy_active(state: FState, unit: Unit) -> bool:
    """Frenzied with an enemy model within M steps: ignores psychology (SEED, §6.24 item 3)."""
    if not unit.frenzied:
        return False
    enemies = [m.cell for m in state.enemy_models(unit.player) if m.cell is not None]
    return any(
        dist(state, m.cell, e) <= m.profile.mobility
        for m in unit.alive()
        if m.cell is not None
        for e in enemies
    )


def subject_to_fear(state: FState, unit: Unit, causer: Unit) -> bool:
    """Must this unit take Fear tests against ``causer``? (SEED + PROPOSED, §6.22 item 1)."""
    if not causer.causes_fear or unit.has(Psych.IMMUNE_PSYCH) or unit.has(Psych.TERROR):
        return False
    if frenzy_active(state, unit):
        return False
    if unit.has(Psych.FEAR):
        return causer.has(Psych.TERROR)  # Fear causers fear Terror causers (§10 #20)
    return True


def subject_to_terror(state: FState, unit: Unit) -> bool:
    """Must this unit take Terror tests? (§6.23 item 2)."""
    return not (
        unit.causes_fear
        or unit.has(Psych.IMMUNE_PSYCH)
        or unit.fleeing
        or frenzy_active(state, unit)
    )
