"""The Fight action and auras (digest apocalypse §6.10, §8.6-§8.7).

A unit in base contact uses all its melee weapons; each weapon's attacks are split among
the enemy units it touches, one attack at a time (ALLOCATE Decisions), all declared
before any die is rolled. There is no fighting back (§6.10 step 4).
"""

from __future__ import annotations

from engine.checks import Modifier
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.attacks import attacks_of, odds, resolve_attacks
from engine.rulesets.apocalypse.geometry import contacts
from engine.rulesets.apocalypse.profiles import Weapon
from engine.rulesets.apocalypse.shooting import ignores_fall_back
from engine.rulesets.apocalypse.state import BATTLEFIELD, ApocState, Unit
from engine.wording import counted, says

AURA_RANGE = 6


def aura(state: ApocState, unit: Unit, ability: str) -> int:
    """+1 if another unit of the same detachment with ``ability`` is within 6" (§8.6-§8.7).

    Auras do nothing from inside a transport or Reserve and never stack.
    """
    if not unit.on_battlefield:
        return 0
    det = state.detachment_of(unit)
    for uid in det.unit_ids:
        source = state.units[uid]
        if (
            source is not unit
            and source.location == BATTLEFIELD
            and ability in source.sheet.abilities
            and rect_distance(source.rect, unit.rect) <= AURA_RANGE
        ):
            return 1
    return 0


def leadership(state: ApocState, unit: Unit) -> int:
    """Ld including the Rally aura (§8.7): morale tests and command succession read it."""
    return unit.sheet.leadership + aura(state, unit, "rally")


def can_fight(state: ApocState, unit: Unit) -> bool:
    """§6.10 step 1: in base contact, not fallen back (unless TITANIC/FLY), melee weapons."""
    if not unit.on_battlefield or not unit.sheet.melee:
        return False
    if unit.fell_back and not ignores_fall_back(unit):
        return False
    return bool(contacts(state, unit))


def melee_modifiers(state: ApocState, unit: Unit, *, free: bool) -> tuple[Modifier, ...]:
    """Bellow +1, Aimed Fire -1 (not for free actions) (§6.10 step 3), each named."""
    mods: list[Modifier] = []
    if aura(state, unit, "bellow"):
        mods.append(Modifier(1, "Bellow"))
    if state.detachment_of(unit).order == "AIMED_FIRE" and not free:
        mods.append(Modifier(-1, "Aimed Fire"))
    return tuple(mods)


def melee_modifier(state: ApocState, unit: Unit, *, free: bool) -> int:
    """Sum of `melee_modifiers`: the natural result that hits is the WS less this."""
    return sum(m.amount for m in melee_modifiers(state, unit, free=free))


def fight_action(
    state: ApocState, ctx: RuleContext, unit: Unit, *, free: bool = False
) -> Procedure[bool]:
    """Split every melee weapon's attacks, then resolve (§6.10 steps 2-3)."""
    foes = contacts(state, unit)
    if not foes:
        return False
    mods = melee_modifiers(state, unit, free=free)
    needed = unit.sheet.ws - sum(m.amount for m in mods)
    if len(foes) == 1:
        ctx.answered(f"{foes[0].name} is the only enemy {unit.name} can attack.", unit.owner)
    plan: list[tuple[Weapon, list[tuple[Unit, int]]]] = []
    for weapon in unit.sheet.melee:
        split = yield from _split(unit, weapon, foes, needed)
        plan.append((weapon, split))
    unit.fought = True
    ctx.emit(
        "FightDeclared",
        f"{says(unit.name, 'fights')}: "
        + "; ".join(
            # The odds of each attack, shown even when the game split them (one foe).
            f"{w.name}: "
            + ", ".join(
                f"{counted(n, 'attack')} at {t.name} [{odds(w, t, needed).describe()}]"
                for t, n in split
            )
            for w, split in plan
        ),
        player=unit.owner,
        unit=unit.uid,
    )
    reroll = unit.detachment in state.effects.march_reroll and not free
    for weapon, split in plan:
        for target, count in split:
            resolve_attacks(
                ctx, unit, weapon, target, count, needed, reroll_ones=reroll, modifiers=mods
            )
    return True


def _split(
    unit: Unit, weapon: Weapon, foes: list[Unit], needed: int
) -> Procedure[list[tuple[Unit, int]]]:
    """Allocate the weapon's attacks among the foes, in declaration order (§6.10 step 2)."""
    total = attacks_of(unit, weapon)
    if len(foes) == 1:
        return [(foes[0], total)]
    counts: dict[str, int] = {}
    for n in range(1, total + 1):
        choice = yield Decision(
            unit.owner,
            DecisionKind.ALLOCATE,
            f"{unit.name}: {weapon.name} attack {n} of {total} goes to?",
            tuple(
                Option(
                    f.uid,
                    f"{f.name}" + (f" ({counts[f.uid]} so far)" if f.uid in counts else ""),
                    cell=f.anchor,
                    model=f.uid,
                    odds=odds(weapon, f, needed),
                )
                for f in foes
            ),
            subject=unit.uid,
        )
        counts[choice.key] = counts.get(choice.key, 0) + 1
    by_id = {f.uid: f for f in foes}
    return [(by_id[uid], n) for uid, n in counts.items()]
