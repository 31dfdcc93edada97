"""Close-combat attacks: weapons, Attacks, Initiative, to-hit and allocation (wh40k6).

Digest §6.13.3-§6.13.5, §6.14 and §8: each model picks one melee weapon (D42: "best" or
model by model); Attacks = A, +1 for charging, +1 for two melee weapons (a pistol counts
as one; not with a lone Specialist Weapon); Unwieldy weapons and charging through
difficult terrain without assault grenades strike at Initiative 1; Hammer of Wrath is
one automatic hit at I10. To hit uses the weapon-skill chart against the majority WS
(§10 A-14), or the vehicle's speed against non-walkers (§6.14). No cover saves.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import Group, majority
from engine.rulesets.wh40k6.profiles import UnitType, Weapon
from engine.rulesets.wh40k6.state import Model, State, Unit

BEST, CHOOSE = "best", "choose"
BARE = Weapon("bare", "Close combat", 0, 0, "user", None, t.MELEE, 1, None, frozenset())
HAMMER = Weapon("hammer", "Hammer of Wrath", 0, 0, "user", None, t.MELEE, 1, None, frozenset())


@dataclass(frozen=True, slots=True)
class Strike:
    """A model's melee weapon choice for this fight."""

    weapon: Weapon
    attacks: int
    initiative: int


def melee_options(model: Model, vs_vehicle: bool) -> list[Weapon]:
    """Weapons the model may fight with (§12.1: pistols count, S User AP -)."""
    out = [m.weapon for _, m in model.weapons() if m.weapon.kind == t.MELEE]
    for _, mount in model.weapons():
        w = mount.weapon
        if w.kind == t.PISTOL:
            out.append(Weapon(w.id, w.name, 0, 0, "user", None, t.MELEE, 1, None, frozenset()))
        elif w.kind == t.GRENADE and vs_vehicle:
            out.append(w)
    return out or [BARE]


def strike_for(state: State, model: Model, unit: Unit, weapon: Weapon) -> Strike:
    """Attacks and Initiative with this weapon (§6.13.3, §6.13.4)."""
    if weapon.kind == t.GRENADE:
        attacks = 1
    else:
        attacks = model.profile.a + (1 if unit.charged else 0)
        melee = [m.weapon for _, m in model.weapons() if m.weapon.kind in (t.MELEE, t.PISTOL)]
        specialists = [w for w in melee if "specialist" in w.rules]
        if len(melee) >= 2 and ("specialist" not in weapon.rules or len(specialists) >= 2):
            attacks += 1
    initiative = model.profile.i
    if "unwieldy" in weapon.rules or (unit.charged and unit.charge_difficult):
        initiative = 1
    return Strike(weapon, attacks, initiative)


def _value(state: State, model: Model, unit: Unit, weapon: Weapon, vs_vehicle: bool) -> int:
    """ "Best weapon": attacks x strength x AP, or x penetrating power against vehicles."""
    s = strike_for(state, model, unit, weapon)
    strength = weapon.strength_for(model.profile.s)
    if vs_vehicle:
        return s.attacks * max(0, strength - 3) ** 2
    return s.attacks * strength * (8 - (weapon.ap or 7))


def best_weapon(state: State, model: Model, unit: Unit, weapons: list[Weapon], big: bool) -> Weapon:
    """The weapon "each model uses its best weapon" picks (D42), ``big`` against a vehicle
    or monstrous creature."""
    return max(weapons, key=lambda w: _value(state, model, unit, w, big))


def choose_strikes(
    state: State, ctx: RuleContext, unit: Unit, vs_vehicle: dict[str, bool]
) -> Procedure[dict[str, Strike]]:
    """D42: every fighting model's weapon for this combat."""
    models = [m for m in state.on_table(unit) if m.profile.a > 0]
    options = {
        m.id: _undominated(state, m, unit, melee_options(m, vs_vehicle.get(m.id, False)))
        for m in models
    }
    pick_each = False
    if any(len(v) > 1 for v in options.values()):
        answer = yield Decision(
            unit.player,
            DecisionKind.PICK_OPTION,
            f"{unit.name}: which close-combat weapons?",
            (
                Option(BEST, "Each model uses its best weapon"),
                Option(CHOOSE, "Choose model by model"),
            ),
        )
        pick_each = answer.key == CHOOSE
    out: dict[str, Strike] = {}
    for m in models:
        found = options[m.id]
        big = vs_vehicle.get(m.id, False)
        weapon = best_weapon(state, m, unit, found, big)
        if pick_each and len(found) > 1:
            answer = yield Decision(
                unit.player,
                DecisionKind.PICK_OPTION,
                f"Which weapon does {m.name} fight with?",
                tuple(Option(str(n), w.describe()) for n, w in enumerate(found)),
                subject=m.id,
            )
            weapon = found[int(answer.key)]
        elif pick_each:
            ctx.answered(
                f"{m.name} fights with its {weapon.name}, its only weapon that can.", m.player
            )
        out[m.id] = strike_for(state, m, unit, weapon)
    return out


def _undominated(state: State, model: Model, unit: Unit, weapons: list[Weapon]) -> list[Weapon]:
    """The weapons worth a choice: drop one another is at least as good at in every way
    (attacks, Initiative, Strength, AP, no extra rules), so a model with one real choice
    is not asked (D42)."""

    def dominates(a: Weapon, b: Weapon) -> bool:
        sa, sb = strike_for(state, model, unit, a), strike_for(state, model, unit, b)
        return (
            sa.attacks >= sb.attacks
            and sa.initiative >= sb.initiative
            and a.strength_for(model.profile.s) >= b.strength_for(model.profile.s)
            and (a.ap or 7) <= (b.ap or 7)
            and a.rules <= b.rules
            and a.kind == b.kind
        )

    out: list[Weapon] = []
    for n, w in enumerate(weapons):
        beaten = any(
            dominates(v, w) and (not dominates(w, v) or m < n)
            for m, v in enumerate(weapons)
            if m != n
        )
        if not beaten:
            out.append(w)
    return out


def is_engaged(state: State, model: Model, foes: list[Model]) -> bool:
    """In base contact, or within 2" of a unit-mate in base contact (§6.13.2)."""
    if any(rect_distance(model.rect, e.rect) == 1 for e in foes):
        return True
    mates = [m for m in state.on_table(state.unit_of(model)) if m.id != model.id]
    return any(
        rect_distance(model.rect, m.rect) <= t.COHERENCY
        and any(rect_distance(m.rect, e.rect) == 1 for e in foes)
        for m in mates
    )


def melee_needed(state: State, attacker: Model, target: Unit) -> int:
    """To hit in close combat: WS chart, or by the vehicle's speed (§6.13.4, §6.14)."""
    models = state.on_table(target)
    first = models[0]
    if first.is_vehicle and not first.profile.is_walker:
        if first.immobilised or first.speed == t.STATIONARY:
            return 0
        return 4 if first.speed == t.COMBAT else 6
    return t.ws_to_hit(attacker.profile.ws, majority([m.profile.ws for m in models]))


def is_big_target(state: State, unit: Unit) -> bool:
    """Krak grenades may be used against vehicles and monstrous creatures (§6.14)."""
    return any(
        m.is_vehicle or m.profile.unit_type in (UnitType.MONSTROUS_CREATURE, UnitType.FLYING_MC)
        for m in state.on_table(unit)
    )


def strike_group(state: State, attacker: Model, strike: Strike, target: Unit, count: int) -> Group:
    """A group of close-combat attacks by one model against one unit."""
    w = strike.weapon
    s = w.strength_for(attacker.profile.s)
    ap = "-" if w.ap is None else w.ap
    needed = melee_needed(state, attacker, target)
    return Group(
        f"{attacker.name}'s {w.name} (S{s} AP{ap})", w, s, w.ap, needed, shots=[attacker.id] * count
    )
