"""wh40k6 positions: the flags of units and models, what the game set before the position
and later rules read (§3.6): turn states, powers on units and known by psykers, destroyed
weapons, the unit shot at and the weapon types fired this turn.

Read by `engine.rulesets.wh40k6.position`; must not import tui, textual, rich or another
ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.position import Position
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.state import Model, State, Unit

UNIT_STATES = (
    "moved",
    "ran",
    "moved fast",
    "has shot",
    "charged",
    "failed charge",
    "pinned",
    "gone to ground",
    "falling back",
    "locked in combat",
    "counts as moved",
    "overwatch used",
    "in reserve",
    "regrouped",
    "charged through difficult terrain",
    "hammer of wrath",
    "arrived from reserve",
    "disembarked",
    "disembarked from open-topped",
)
"""Unit states a position may give (§3.6); "pinned" is "gone to ground" (§6.8.11);
"regrouped" this turn (no run, no charge, no turbo-boost, §6.6), charged through difficult
terrain without assault grenades (strikes at I1, §6.13.3), Hammer of Wrath this turn;
arrived from reserve or disembarked this turn (no charge, unless from an open-topped
transport, §6.11)."""

EFFECTS = {"iron ward": ("iron_ward", t.IRON_WARD_SAVE), "dread hex": ("dread_hex", t.DREAD_HEX)}
"""Blessing and malediction on a unit (§6.7): each lasts to the start of its caster's
next turn (the unit's owner for the blessing, the enemy for the malediction)."""

POWER_NAMES = {p.name: n for n, p in t.POWERS.items()}


FIRED = (t.ASSAULT, t.HEAVY, t.ORDNANCE, t.PISTOL, t.RAPID_FIRE, t.SALVO, t.GRENADE)
"""Weapon types a unit may have fired this turn (``fired``)."""


def turn_shots(state: State, position: Position, units: list[Any]) -> None:
    """The unit each one shot at this turn and the weapon types it fired (§6.11)."""
    for i, (unit, raw) in enumerate(zip(state.units.values(), units, strict=True)):
        key = f"wh40k6.units[{i}]"
        target = raw.get("shot_at")
        if target is not None:
            enemy = state.units.get(target) if isinstance(target, str) else None
            if enemy is None or enemy.player == unit.player:
                raise position.error(f"{key}.shot_at", f"{target!r} is not an enemy unit listed")
            unit.shot_target = enemy.id
        fired = raw.get("fired", [])
        if not isinstance(fired, list) or not all(f in FIRED for f in fired):
            raise position.error(f"{key}.fired", f"list weapon types among: {', '.join(FIRED)}")
        unit.fired_types = set(fired)
        unit.has_shot = unit.has_shot or target is not None or bool(fired)


def state_names(
    position: Position, raw: Any, key: str, known: tuple[str, ...], what: str
) -> set[str]:
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        raise position.error(key, "must be a list of state names")
    for name in raw:
        if name not in known:
            raise position.error(
                key, f"unknown {what} state {name!r} (wh40k6 knows: {', '.join(known)})"
            )
    return set(raw)


def unit_states(state: State, unit: Unit, states: set[str]) -> None:
    """Flags of §3.6; timed effects last as if begun in the owner's last turn (§5)."""
    for name in ("moved", "ran", "moved fast", "has shot", "charged", "failed charge"):
        setattr(unit, name.replace(" ", "_"), name in states)
    unit.regrouped = "regrouped" in states
    unit.charge_difficult = "charged through difficult terrain" in states
    unit.hammer = "hammer of wrath" in states
    unit.arrived = "arrived from reserve" in states
    unit.left_open_topped = "disembarked from open-topped" in states
    unit.disembarked = unit.left_open_topped or "disembarked" in states
    unit.falling_back = "falling back" in states
    unit.overwatch_used = "overwatch used" in states
    own_turn = unit.player == state.active
    if states & {"pinned", "gone to ground"}:
        unit.ground_until = state.turn_index + (0 if own_turn else 1)
    if "counts as moved" in states:
        unit.counts_moved_until = state.turn_index + (0 if own_turn else 1)


def unit_effects(state: State, position: Position, unit: Unit, raw: Any, key: str) -> None:
    if (
        not isinstance(raw, list)
        or not all(isinstance(e, str) and e in EFFECTS for e in raw)
        or len(set(raw)) < len(raw)
    ):
        raise position.error(key, f"must list distinct powers on the unit ({', '.join(EFFECTS)})")
    for name in raw:
        effect, value = EFFECTS[name]
        caster = unit.player if name == "iron ward" else 1 - unit.player
        unit.effects.append((effect, value, state.next_turn_start(caster)))


def psyker_powers(position: Position, model: Model, raw: Mapping[str, Any], key: str) -> None:
    """The powers a psyker knows (§4.8, generated before the game) and used this turn."""
    powers = raw.get("powers", [])
    mastery = model.profile.mastery if "psyker" in model.profile.rules else 0
    if (
        not isinstance(powers, list)
        or not all(isinstance(p, str) and p in POWER_NAMES for p in powers)
        or len(set(powers)) < len(powers)
        or len(powers) > mastery
    ):
        raise position.error(
            f"{key}.powers",
            f"a psyker of Mastery Level {mastery} knows at most {mastery} distinct powers "
            f"({', '.join(POWER_NAMES)})",
        )
    model.powers = [POWER_NAMES[p] for p in powers]
    model.powers_used = whole_number(
        position, raw.get("powers_used", 0), f"{key}.powers_used", 0, 9
    )


def wrecked_weapons(position: Position, model: Model, raw: Any, key: str) -> None:
    """Weapon Destroyed results on a vehicle (§6.8.14), by the weapon's id."""
    ids = [m.weapon.id for m in model.profile.weapons]
    if not isinstance(raw, list) or not all(w in ids for w in raw):
        raise position.error(key, f"must list weapons of the {model.profile.name}: {ids}")
    model.destroyed_weapons = sorted({ids.index(w) for w in raw})


def whole_number(position: Position, raw: Any, key: str, low: int, high: int) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
        raise position.error(key, f"must be a whole number from {low} to {high}")
    return raw
