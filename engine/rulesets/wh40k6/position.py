"""Warhammer 40,000 6th edition positions: units, models and scores at the start of a phase.

A position starts at the start of a phase of one player turn (§5): ``phase`` is one of
PHASES ("Assault" starts with the charge sub-phase, "Fight" skips it), ``round`` is the
game turn. Or it starts at a step of the pre-game sequence (§4.1, round 1), one of
SETUP: "Objectives" (the markers are placed, the roll-off winner first; the models have
no cells yet), "Deployment" (the roll-off for who deploys first, then both armies,
infiltrators and scouts; no cells) or "Seize the Initiative" (the armies are deployed).
Warlord traits and psychic powers are then the position's own. The ``[wh40k6]`` table of
a position file::

    player = 1                      # whose player turn it is (1 or 2)
    first_player = 1                # who took the first turn (default: ``player``)
    roll_off_winner = 1             # "Objectives": who won the table-halves roll-off
    first_deployer = 1              # "Seize the Initiative": who deployed first
    mission = 5                     # optional, default the scenario's (or 5)
    deployment = "dawn_of_war"      # optional map: the halves and own table edges
    halves = ["south", "north"]     # optional: player 1's and player 2's half
    objectives = [{ cell = [10, 20], value = 3 }]   # optional objective markers
    relic = [36, 24]                # mission 6: where the Relic lies (default: where
                                    # set-up places it), unless a model "carries relic"
    [[wh40k6.sides]]                # player 1, then player 2 (all keys optional)
    vp = 0
    trait = 2                       # Warlord trait 1-3 (§4.7)
    first_blood = false             # this side scored First Blood
    warlord_slain = false           # this side's Warlord has been slain
    [[wh40k6.units]]
    player = 1
    unit = "warden_squad"           # a catalogue unit (catalogue.py or the scenario's)
    id = "A1"                       # optional, default A1.. / B1.. in file order
    name = "Warden Squad Alpha"     # optional
    warlord = false                 # optional: its first model is the side's Warlord
    states = ["moved"]              # optional (position_flags.UNIT_STATES); "in reserve": no cells
    embarked_in = "B2"              # optional: riding this transport unit (no cells)
    effects = ["iron ward"]         # optional: powers on it now, position_flags.EFFECTS
    shot_at = "B2"                  # optional: the enemy unit it shot at this turn; it may
                                    # charge only that one (§6.11)
    fired = ["Heavy"]               # optional: weapon types it fired this turn (Heavy,
                                    # Rapid Fire, Salvo, Ordnance: no charge, §6.11)
    start_count = 10                # optional, default the catalogue's model count
    models = [                      # in the catalogue's model order; the models not
      { cell = [3, 4] },            # listed are casualties (removed)
      { cell = [4, 4], wounds = 1, states = ["moved"] },
      { removed = true },
      { cell = [6, 4], hp = 2, facing = 90, speed = "combat speed", states = ["immobilised"],
        destroyed_weapons = ["las_lance"] },           # weapon ids (Weapon Destroyed); the
                                    # speed stands for the inches moved: 6" at combat speed,
                                    # more beyond (no disembarking, §6.15)
      { cell = [7, 4], powers = ["Psi-Bolt"], powers_used = 1 },   # a psyker: the powers
    ]                               # it knows (§4.8) and its uses this turn (§6.7)

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board import Cell
from engine.facing import read_facing
from engine.position import Position
from engine.rulesets.wh40k6 import maps
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.morale import locked_units
from engine.rulesets.wh40k6.objectives import relic_spot
from engine.rulesets.wh40k6.position_flags import (
    UNIT_STATES,
    psyker_powers,
    state_names,
    turn_shots,
    unit_effects,
    unit_states,
    whole_number,
    wrecked_weapons,
)
from engine.rulesets.wh40k6.profiles import Catalogue
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.scenario import KeySpec, check_keys

PHASES = ("Movement", "Shooting", "Assault", "Fight")
"""Phases a position may start at (§5 T1-T3; Fight = the fight sub-phase of the Assault)."""

SETUP = ("Objectives", "Deployment", "Seize the Initiative")
"""Steps of the pre-game sequence a position may start at (§4.1 steps 6, 9-11, §4.10)."""

PLACED_LATER = ("Objectives", "Deployment")
"""Setup steps before the armies are on the table: models have no cells."""

MODEL_STATES = (
    *("moved", "immobilised", "crew shaken", "crew stunned", "smoke", "smoke used"),
    "carries relic",
)
"""Model states a position may give (§3.6, §6.8.14); "smoke": its smoke launchers' cover
is up now, "smoke used": fired earlier (once per game, §8)."""

MOVED_INCHES = {t.STATIONARY: 0, t.COMBAT: t.COMBAT_SPEED}
"""Inches a vehicle's speed stands for; cruising speed and flat out: more than 6"."""

SPEEDS = (t.STATIONARY, t.COMBAT, t.CRUISING, t.FLAT_OUT)


POSITION_KEYS: KeySpec = {
    **dict.fromkeys(("player", "first_player", "roll_off_winner", "first_deployer")),
    **dict.fromkeys(("mission", "deployment", "halves", "relic")),
    "objectives": dict.fromkeys(("cell", "value")),
    "sides": dict.fromkeys(("vp", "trait", "first_blood", "warlord_slain")),
    "units": {
        **dict.fromkeys(("player", "unit", "id", "name", "start_count", "states")),
        **dict.fromkeys(("embarked_in", "effects", "warlord", "shot_at", "fired")),
        "models": dict.fromkeys(
            (
                *("cell", "hp", "facing", "speed", "destroyed_weapons", "wounds"),
                *("states", "removed", "powers", "powers_used"),
            )
        ),
    },
}
"""The keys of a position's [wh40k6] table, its objectives, sides, units and models (a
misspelt one is refused rather than silently left at its default)."""


def load_wh40k6_position(state: State, catalogue: Catalogue, position: Position) -> None:
    """Replace ``state``'s armies, turn and scores with the position's (validated)."""
    rules = position.rules
    check_keys(rules, POSITION_KEYS, position.source, "wh40k6")
    if position.phase not in PHASES + SETUP:
        raise position.error(
            "phase",
            f"{position.phase!r} is not a wh40k6 phase (use one of: {', '.join(PHASES + SETUP)})",
        )
    if position.phase in SETUP:
        _setup(state, position, rules)
    else:
        _turn(state, position, rules)
    _table(state, position, rules)
    _sides(state, position, rules.get("sides", []))
    units = rules.get("units")
    if not isinstance(units, list) or not units:
        raise position.error("wh40k6.units", "list the units ([[wh40k6.units]])")
    state.units.clear()
    state.models.clear()
    for side in state.sides:
        side.warlord = ""
    for i, raw in enumerate(units):
        _unit(state, catalogue, position, raw, f"wh40k6.units[{i}]")
    for seat in (0, 1):
        if not any(u.player == seat for u in state.units.values()):
            raise position.error("wh40k6.units", f"player {seat + 1} has no unit")
    _check_locked(state, position, units)
    _check_passengers(state, position)
    turn_shots(state, position, units)
    _relic(state, position, rules.get("relic"))
    for unit in state.units.values():
        unit.at_phase_start = len(state.members(unit))
        unit.destroyed = not state.members(unit)


def _relic(state: State, position: Position, raw: Any) -> None:
    """Where The Relic is (mission 6, §4.2): on the ground, or with the one model that
    carries it; left out, where set-up places it (at "Objectives" set-up still will)."""
    carriers = [m.id for m in state.models.values() if m.carries_relic]
    if len(carriers) > 1 or (carriers and state.mission != 6):
        raise position.error(
            "wh40k6.units", f"one model at most carries the Relic, in mission 6: {carriers}"
        )
    if raw is None:
        if state.mission == 6 and not carriers and position.phase != "Objectives":
            state.relic = relic_spot(state)
        return
    if state.mission != 6 or carriers or position.phase == "Objectives":
        raise position.error(
            "wh40k6.relic",
            "only in mission 6, the Relic on the ground (no model carries it), once set-up "
            "has placed it",
        )
    state.relic = _cell(state, position, raw, "wh40k6.relic")


def _turn(state: State, position: Position, rules: Mapping[str, Any]) -> None:
    """Game turn, active player and the player-turn index effects are timed by (§5)."""
    active = whole_number(position, rules.get("player", 1), "wh40k6.player", 1, 2) - 1
    first = whole_number(
        position, rules.get("first_player", active + 1), "wh40k6.first_player", 1, 2
    )
    state.first_player = first - 1
    state.first_deployer = first - 1
    state.active = active
    state.game_turn = position.round
    state.turn_index = 2 * (position.round - 1) + (1 if active == state.first_player else 2)
    state.phase = "Assault" if position.phase == "Fight" else position.phase
    if position.round > t.LAST_TURN:
        raise position.error("round", f"the game has at most {t.LAST_TURN} game turns")


def _setup(state: State, position: Position, rules: Mapping[str, Any]) -> None:
    """Before game turn 1 (§4.1): who won the halves roll-off or deployed first."""
    if position.round != 1:
        raise position.error("round", "the pre-game sequence comes before game turn 1: use 1")
    state.game_turn = state.turn_index = state.active = 0
    state.phase = "Setup" if position.phase == "Objectives" else "Deployment"
    whole_number(position, rules.get("roll_off_winner", 1), "wh40k6.roll_off_winner", 1, 2)
    first = whole_number(position, rules.get("first_deployer", 1), "wh40k6.first_deployer", 1, 2)
    state.first_deployer = state.first_player = first - 1


def roll_off_winner(position: Position) -> int:
    """The seat that won the table-halves roll-off (an "Objectives" position's)."""
    return int(position.rules.get("roll_off_winner", 1)) - 1


def _table(state: State, position: Position, rules: Mapping[str, Any]) -> None:
    """Mission, deployment map (halves, own edges) and objective markers (§4.2-§4.6)."""
    mission = rules.get("mission", state.mission)
    if mission not in t.MISSIONS:
        raise position.error("wh40k6.mission", f"must be one of {sorted(t.MISSIONS)}")
    state.mission = mission
    key = rules.get("deployment", state.deployment_map)
    if key not in maps.HALVES:
        raise position.error("wh40k6.deployment", f"must be one of {sorted(maps.HALVES)}")
    state.deployment_map = key
    default = [half for half, _ in maps.HALVES[key]]
    halves = rules.get("halves", default)
    if not isinstance(halves, list) or len(halves) != 2 or sorted(halves) != sorted(default):
        raise position.error("wh40k6.halves", f"must list the map's two halves, e.g. {default}")
    for side, half in zip(state.sides, halves, strict=True):
        side.half = half
        side.zone = maps.zone(half, state.width, state.height)
        side.edges = maps.EDGES[half]
    objectives = rules.get("objectives", [])
    if not isinstance(objectives, list):
        raise position.error("wh40k6.objectives", "must be a list of { cell, value } tables")
    state.objectives, state.objective_values = [], []
    for n, raw in enumerate(objectives):
        at = f"wh40k6.objectives[{n}]"
        if not isinstance(raw, dict):
            raise position.error(at, "must be a table { cell = [x, y], value = N }")
        state.objectives.append(_cell(state, position, raw.get("cell"), f"{at}.cell"))
        state.objective_values.append(
            whole_number(position, raw.get("value", 3), f"{at}.value", 0, 9)
        )


def _sides(state: State, position: Position, sides: Any) -> None:
    for seat, key, raw in position.side_tables("wh40k6", sides):
        side = state.side(seat)
        side.vp = whole_number(position, raw.get("vp", 0), f"{key}.vp", 0, 99)
        side.trait = whole_number(position, raw.get("trait", 0), f"{key}.trait", 0, 3)
        for flag in ("first_blood", "warlord_slain"):
            value = raw.get(flag, False)
            if not isinstance(value, bool):
                raise position.error(f"{key}.{flag}", "must be true or false")
            setattr(side, flag, value)
        if side.first_blood and state.first_blood_batch == -1:
            state.first_blood_batch = state.batch  # drawn before the position: not again
            state.batch += 1
        unknown = set(raw) - {"vp", "trait", "first_blood", "warlord_slain"}
        if unknown:
            raise position.error(f"{key}.{sorted(unknown)[0]}", "not a side key")


def _unit(state: State, catalogue: Catalogue, position: Position, raw: Any, key: str) -> None:
    """One unit of the catalogue with its models (§3.3) and states (§3.6)."""
    if not isinstance(raw, dict):
        raise position.error(key, "must be a table")
    player = raw.get("player")
    if player not in (1, 2):
        raise position.error(f"{key}.player", "must be 1 or 2")
    seat = player - 1
    entry = catalogue.units.get(raw.get("unit", ""))
    if entry is None:
        raise position.error(
            f"{key}.unit",
            f"not a catalogue unit (use one of: {', '.join(sorted(catalogue.units))})",
        )
    count = sum(1 for u in state.units.values() if u.player == seat)
    uid = raw.get("id", f"{'AB'[seat]}{count + 1}")
    if not isinstance(uid, str) or not uid or uid in state.units:
        raise position.error(f"{key}.id", f"{uid!r} is not a new unit id")
    profiles = [p for p, n in entry.models for _ in range(n)]
    start = whole_number(
        position, raw.get("start_count", len(profiles)), f"{key}.start_count", 1, 999
    )
    unit = Unit(uid, str(raw.get("name", entry.name)), seat, entry.slot, [], start, entry.points)
    state.units[uid] = unit
    states = state_names(position, raw.get("states", []), f"{key}.states", UNIT_STATES, "unit")
    unit.in_reserve = "in reserve" in states
    unit.embarked_in = _transport(state, position, raw.get("embarked_in"), seat, f"{key}")
    models = raw.get("models", [])
    if not isinstance(models, list) or len(models) > len(profiles):
        raise position.error(
            f"{key}.models", f"must list at most the {len(profiles)} models of a {entry.name}"
        )
    for n, profile in enumerate(profiles):
        mid = f"{uid}.{n + 1}"
        model = Model(mid, uid, seat, profile, profile.w, hp=profile.hp)
        state.models[mid] = model
        unit.models.append(mid)
        data = models[n] if n < len(models) else {"removed": True}
        _model(state, position, unit, model, data, f"{key}.models[{n}]")
    unit_states(state, unit, states)
    unit_effects(state, position, unit, raw.get("effects", []), f"{key}.effects")
    if raw.get("warlord", False) is True:
        if state.side(seat).warlord:
            raise position.error(f"{key}.warlord", f"player {player} already has a Warlord")
        unit.warlord = True
        state.side(seat).warlord = unit.models[0]


def _transport(state: State, position: Position, raw: Any, seat: int, key: str) -> str | None:
    """The transport model a unit rides in (§6.15): a friendly transport unit listed before."""
    if raw is None:
        return None
    unit = state.units.get(raw) if isinstance(raw, str) else None
    first = state.models[unit.models[0]] if unit is not None and unit.models else None
    if (
        unit is None
        or first is None
        or unit.player != seat
        or "transport" not in first.profile.vehicle_types
        or not first.on_table
    ):
        raise position.error(
            f"{key}.embarked_in", f"{raw!r} is not a friendly transport on the table listed above"
        )
    return first.id


def _check_passengers(state: State, position: Position) -> None:
    """Infantry only, and no more models than the transport's capacity (§6.15)."""
    for i, unit in enumerate(state.units.values()):
        if unit.embarked_in is None:
            continue
        transport = state.models[unit.embarked_in]
        riders = [u for u in state.units.values() if u.embarked_in == transport.id]
        if any(m.is_vehicle for m in state.members(unit)) or transport.profile.capacity < sum(
            len(state.members(u)) for u in riders
        ):
            raise position.error(
                f"wh40k6.units[{i}].embarked_in",
                f"{unit.id} cannot ride in {transport.id} (vehicles never do; capacity "
                f"{transport.profile.capacity} models)",
            )


def _model(state: State, position: Position, unit: Unit, model: Model, raw: Any, key: str) -> None:
    if not isinstance(raw, dict):
        raise position.error(key, "must be a table ({ cell = [x, y] } or { removed = true })")
    if raw.get("removed", False) is True:
        model.removed = True
        return
    p = model.profile
    if unit.in_reserve or unit.embarked_in is not None or position.phase in PLACED_LATER:
        if "cell" in raw:
            where = "in reserve" if unit.in_reserve else "embarked"
            where = "not deployed yet" if position.phase in PLACED_LATER else where
            raise position.error(f"{key}.cell", f"give no cell: the unit is {where}")
    else:
        model.cell = _footprint(state, position, model, raw.get("cell"), f"{key}.cell")
    if p.is_vehicle:
        model.hp = whole_number(position, raw.get("hp", p.hp), f"{key}.hp", 1, p.hp)
        try:
            model.facing = read_facing(raw.get("facing", 0))
        except ValueError as exc:
            raise position.error(f"{key}.facing", str(exc)) from None
        speed = raw.get("speed", t.STATIONARY)
        if speed not in SPEEDS:
            raise position.error(f"{key}.speed", f"must be one of: {', '.join(SPEEDS)}")
        model.speed = speed
        model.moved_inches = MOVED_INCHES.get(speed, 2 * t.COMBAT_SPEED)
        wrecked_weapons(
            position, model, raw.get("destroyed_weapons", []), f"{key}.destroyed_weapons"
        )
    else:
        model.wounds = whole_number(position, raw.get("wounds", p.w), f"{key}.wounds", 1, p.w)
        psyker_powers(position, model, raw, key)
    states = state_names(position, raw.get("states", []), f"{key}.states", MODEL_STATES, "model")
    vehicle_only = states & {"immobilised", "crew shaken", "crew stunned", "smoke", "smoke used"}
    if vehicle_only and not p.is_vehicle:
        raise position.error(f"{key}.states", f"{sorted(vehicle_only)[0]!r} is for vehicles")
    model.moved = "moved" in states
    model.immobilised = "immobilised" in states
    until = state.turn_index + (0 if model.player == state.active else 1)
    model.shaken_until = until if "crew shaken" in states else 0
    model.stunned_until = until if "crew stunned" in states else 0
    model.smoke_until = until if "smoke" in states else 0
    model.smoke_used = bool(states & {"smoke", "smoke used"})
    model.carries_relic = "carries relic" in states


def _cell(state: State, position: Position, raw: Any, key: str) -> Cell:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise position.error(key, "must be [x, y]")
    cell = Cell(raw[0], raw[1])
    if cell not in state.board:
        raise position.error(key, f"{cell} is off the map")
    return cell


def _footprint(state: State, position: Position, model: Model, raw: Any, key: str) -> Cell:
    """The south-west cell of a model's footprint: all on the map, free and standable."""
    cell = _cell(state, position, raw, key)
    model.cell = cell
    for c in model.rect.cells():
        if c not in state.board or not state.board.is_standable(c):
            raise position.error(key, f"{model.id} at {cell} would stand off the map or in a wall")
        for other in state.models.values():
            if other is not model and other.on_table and c in other.rect.cells():
                raise position.error(
                    key, f"{c} is already taken by {other.id}: two models in one cell"
                )
    return cell


def _check_locked(state: State, position: Position, units: list[Any]) -> None:
    """ "locked in combat" is not set but checked: base contact with an enemy (§6.13)."""
    locked = locked_units(state)
    for i, raw in enumerate(units):
        uid = list(state.units)[i]
        if "locked in combat" in raw.get("states", []) and uid not in locked:
            raise position.error(
                f"wh40k6.units[{i}].states",
                f"{uid} is not in base contact with an enemy, so it cannot be locked in combat",
            )
