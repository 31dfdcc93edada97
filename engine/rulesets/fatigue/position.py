"""Roads of the Apocalypse positions: units, fatigue, FP and scrums at the start of a phase.

A position replaces the scenario's forces with the units it lists (their profiles come
from the scenario's forces, §12). Phases, as the round runs them (digest fatigue §5):
"Round start" (initiative not rolled yet; per-round fields are reset), "Start of turn",
"Activations" (the FP pools are the position's: FP_REFILL has happened) and "Aftermath";
or a set-up step, in round 1 (§4.1-§4.3): "Force choice" (the start of the game: no
other key; each player picks a force when the scenario offers more than two) and
"Deployment" (the deployment roll-off, then every unit of both forces placed by its
player: only ``forces`` may be given). The ``[fatigue]`` table of a position file::

    initiative = 1                  # 1 or 2: player A this round (not at "Round start")
    forces = ["Dustroad Wardens", "Ashfang Scavengers"]   # optional: each side's force
    sides = [{ fp = 5, vp = 0, passed = false, edge = "South" }, { fp = 0 }]
                                    # optional fields; fp defaults to a fresh refill
    [[fatigue.units]]
    player = 1
    unit = "Road Spears"            # a unit of that player's force
    cells = [[3, 3], [4, 3], "out"] # its first models, in list order; "out" = out of action
    wounds = [0, 1]                 # optional: wounds taken per model
    jammed_until = [0, 3]           # optional, per model: its ranged weapon is jammed up
                                    # to and including this round (Jam, §6.29)
    weapon_destroyed = [false, true]   # optional, per model: Blowback (§6.29)
    facing = "N"                    # optional: N, NE, E, ... (default N for player 1, S)
    fatigue = 1                     # optional: fatigue tokens
    activations = 0                 # optional: activations this round
    aim = 0                         # optional: AIM tokens (§6.11)
    lost_to_shooting = 0            # optional: models it lost to shooting this round
    models_at_round_start = 3       # optional: models it had in play when the round began
                                    # (default: those in play now); more than half of them
                                    # lost to shooting is a panic test (§6.16)
    scrum = 1                       # optional: units sharing a number are in one scrum
    states = ["braced"]             # optional, see STATES
    [[fatigue.scrums]]              # optional: what a scrum did this round, by number
    number = 1
    wounds = [2, 0]                 # wounds each player's units took in it (panic, §6.16)
    exchanges = 1                   # exchanges fought in it this round
    fled = [3]                      # units (1, 2... in the order listed) that fled it this
                                    # Aftermath, from the enemy units still in it (§6.19)

Model ids are given as in a game: A1, A2... for player 1 and B1... for player 2, in the
order of the units listed. Must not import tui, textual, rich, another ruleset or the
registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board import Cell
from engine.facing import read_facing
from engine.position import Position
from engine.rulesets.fatigue.deployment import SETUP_STEPS, Setup, muster
from engine.rulesets.fatigue.profiles import ForceSpec, UnitSpec
from engine.rulesets.fatigue.state import FState, Model, Scrum, Unit
from engine.rulesets.fatigue.tables import COMMANDER_FP_BONUS
from engine.scenario import KeySpec, check_keys
from engine.wording import counted

PHASES = (*SETUP_STEPS, "Round start", "Start of turn", "Activations", "Aftermath")

STATES: Mapping[str, str] = {
    "fleeing": "fleeing",
    "terrified": "terrified",
    "stupid": "stupid",
    "braced": "braced",
    "feared": "feared",
    "cannot attack": "cannot_attack",
    "ambushed": "ambushed",
    "camouflaged": "camouflaged",
    "frenzy lost": "frenzy_lost",
    "leap attack": "leap_bonus",
    "first exchange": "first_exchange",
    "moved": "moved",
    "whirlwind": "whirlwind",
    "fear tested": "fear_tested_a",
    "fear passed": "fear_b_passed",
}
"""Position state names -> Unit flags (§3.3, §3.8); "engaged" is given by ``scrum``; "fear
tested": took its Fear test when the enemy activated (case A), "fear passed": passed the
test to charge a fear-causing enemy (case B), both this round."""


POSITION_KEYS: KeySpec = {
    **dict.fromkeys(("initiative", "forces")),
    "sides": dict.fromkeys(("fp", "vp", "passed", "edge")),
    "units": dict.fromkeys(
        (
            *("player", "unit", "cells", "wounds", "jammed_until", "weapon_destroyed"),
            *("facing", "fatigue", "activations", "aim", "lost_to_shooting", "states", "scrum"),
            "models_at_round_start",
        )
    ),
    "scrums": dict.fromkeys(("number", "wounds", "exchanges", "fled")),
}
"""The keys of a position's [fatigue] table, its sides, units and scrums (a misspelt one
is refused rather than silently left at its default)."""


def load_fatigue_position(state: FState, setup: Setup, position: Position) -> None:
    """Replace ``state``'s units, sides and round with the position's (validated)."""
    rules = position.rules
    check_keys(rules, POSITION_KEYS, position.source, "fatigue")
    if position.phase not in PHASES:
        raise position.error("phase", f"use one of: {', '.join(PHASES)}")
    if position.phase in SETUP_STEPS:
        _set_up(state, setup, position)
        return
    state.round = position.round
    state.phase = position.phase
    initiative = rules.get("initiative", 1 if position.phase == "Round start" else None)
    if initiative not in (1, 2):
        raise position.error("fatigue.initiative", "must be 1 or 2 (player A this round)")
    state.initiative = initiative - 1
    forces = _forces(setup, position, rules.get("forces"))
    state.units.clear()
    state.models.clear()
    state.scrums.clear()
    for player, force in enumerate(forces):
        side = state.side(player)
        side.force, side.faction, side.edge = force.name, force.faction, setup.zones[player]
    raw = rules.get("units")
    if not isinstance(raw, list) or not raw:
        raise position.error("fatigue.units", "list the units")
    for i, spec in enumerate(raw):
        _unit(state, position, forces, spec, f"fatigue.units[{i}]")
    _scrums(state, position, raw)
    _scrum_rounds(state, position, rules.get("scrums", []))
    _sides(state, position, rules.get("sides"))


def _set_up(state: FState, setup: Setup, position: Position) -> None:
    """The state as the game has it when the set-up step begins: at "Deployment" both
    forces mustered (§4.3 step 5: every unit is placed by its player)."""
    if position.round != 1:
        raise position.error("round", "a set-up position starts the game: use round 1")
    allowed = ("forces",) if position.phase == "Deployment" else ()
    for key in position.rules:
        if key not in allowed:
            why = "the players choose their forces" if key == "forces" else "give none"
            raise position.error(f"fatigue.{key}", f"{why} (a {position.phase} position)")
    state.round = 0
    if position.phase == "Deployment":
        state.phase = "Deployment"
        forces = _forces(setup, position, position.rules.get("forces"))
        for player, force in enumerate(forces):
            muster(state, player, force)


def _forces(setup: Setup, position: Position, raw: Any) -> tuple[ForceSpec, ForceSpec]:
    if raw is None:
        return setup.forces[0], setup.forces[1]
    names = {f.name: f for f in setup.forces}
    if not isinstance(raw, list) or len(raw) != 2 or not all(n in names for n in raw):
        raise position.error("fatigue.forces", f"name two forces among: {', '.join(names)}")
    return names[raw[0]], names[raw[1]]


def _unit(
    state: FState, position: Position, forces: tuple[ForceSpec, ForceSpec], spec: Any, key: str
) -> None:
    if not isinstance(spec, dict):
        raise position.error(key, "must be a table")
    player = spec.get("player")
    if player not in (1, 2):
        raise position.error(f"{key}.player", "must be 1 or 2")
    seat = player - 1
    force = forces[seat]
    unit_spec = next((u for u in force.units if u.name == spec.get("unit")), None)
    if unit_spec is None:
        names = ", ".join(u.name for u in force.units)
        raise position.error(f"{key}.unit", f"name a unit of {force.name}: {names}")
    uid = max(state.units, default=0) + 1
    unit = Unit(uid, seat, unit_spec, force.faction, _models(state, position, unit_spec, spec, key))
    for model in unit.models:
        model.unit = uid
    state.units[uid] = unit
    state.models.update({m.id: m for m in unit.models})
    _unit_fields(unit, position, spec, key)


def _models(
    state: FState, position: Position, unit_spec: UnitSpec, spec: Mapping[str, Any], key: str
) -> list[Model]:
    """The unit's first models on their cells, with wounds taken (§3.3, §6.9)."""
    seat = spec["player"] - 1
    cells = spec.get("cells")
    if not isinstance(cells, list) or not 1 <= len(cells) <= len(unit_spec.models):
        raise position.error(
            f"{key}.cells", f'list 1 to {len(unit_spec.models)} cells ([x, y] or "out")'
        )
    wounds = spec.get("wounds", [0] * len(cells))
    if not isinstance(wounds, list) or len(wounds) != len(cells):
        raise position.error(f"{key}.wounds", "give one number per entry of cells")
    count = sum(1 for m in state.models.values() if m.player == seat)
    models: list[Model] = []
    for i, (raw, profile, hurt) in enumerate(zip(cells, unit_spec.models, wounds, strict=False)):
        model = Model(f"{'AB'[seat]}{count + i + 1}", 0, seat, profile)
        if raw == "out":
            model.out_of_action = True
        else:
            model.cell = _cell(state, position, raw, f"{key}.cells[{i}]", models)
        if not isinstance(hurt, int) or isinstance(hurt, bool) or hurt < 0:
            raise position.error(f"{key}.wounds[{i}]", "must be a whole number >= 0")
        if hurt >= profile.resilience and not model.out_of_action:
            raise position.error(
                f"{key}.wounds[{i}]",
                f'R{profile.resilience} model with {counted(hurt, "wound")}: use "out"',
            )
        model.wounds_taken = hurt
        models.append(model)
    _weapons(position, models, spec, key)
    return models


def _weapons(position: Position, models: list[Model], spec: Mapping[str, Any], key: str) -> None:
    """Jammed and destroyed ranged weapons, one entry per model listed (§6.29)."""
    for name in ("jammed_until", "weapon_destroyed"):
        raw = spec.get(name)
        if raw is None:
            continue
        kind = bool if name == "weapon_destroyed" else int
        if (
            not isinstance(raw, list)
            or len(raw) != len(models)
            or not all(
                isinstance(v, kind) and (kind is bool or not isinstance(v, bool)) for v in raw
            )
            or (kind is int and not all(0 <= v <= 99 for v in raw))
        ):
            what = "true or false" if kind is bool else "a round number 0..99"
            raise position.error(f"{key}.{name}", f"give {what} per entry of cells")
        for model, value in zip(models, raw, strict=True):
            if value and model.profile.ranged is None:
                raise position.error(f"{key}.{name}", f"{model.id} has no ranged weapon")
            setattr(model, name, value)


def _cell(state: FState, position: Position, raw: Any, key: str, mates: list[Model]) -> Cell:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise position.error(key, 'must be [x, y] or "out"')
    cell = Cell(raw[0], raw[1])
    if cell not in state.board or not state.board.is_standable(cell):
        raise position.error(key, f"{cell} is off the map or impassable")
    if cell in state.occupied() or any(m.cell == cell for m in mates):
        raise position.error(key, f"{cell} already holds a model")
    return cell


def _unit_fields(unit: Unit, position: Position, spec: Mapping[str, Any], key: str) -> None:
    """Facing, tokens and states of one unit (§3.3 dynamic part)."""
    try:
        unit.facing = read_facing(spec.get("facing", 0 if unit.player == 0 else 180))
    except ValueError as exc:
        raise position.error(f"{key}.facing", str(exc)) from None
    for name in ("fatigue", "activations", "aim", "lost_to_shooting"):
        value = spec.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
            raise position.error(f"{key}.{name}", "must be a whole number from 0 to 99")
        setattr(unit, name, value)
    alive = len(unit.alive())
    start = spec.get("models_at_round_start", alive)
    if (
        not isinstance(start, int)
        or isinstance(start, bool)
        or not alive <= start <= len(unit.models)
    ):
        raise position.error(
            f"{key}.models_at_round_start",
            f"must be from {alive} (in play now) to {len(unit.models)} (the models listed)",
        )
    unit.models_at_round_start = start
    raw = spec.get("states", [])
    if not isinstance(raw, list) or any(s not in STATES for s in raw):
        raise position.error(f"{key}.states", f"list states among: {', '.join(STATES)}")
    for name in raw:
        setattr(unit, STATES[name], True)
    if unit.destroyed and (raw or spec.get("scrum") is not None):
        raise position.error(f"{key}.states", "a unit with every model out has no states")


def _scrums(state: FState, position: Position, raw: list[Any]) -> None:
    """Units sharing a ``scrum`` number fight in one scrum; both sides needed (§3.7)."""
    numbers: dict[int, Scrum] = {}
    for i, spec in enumerate(raw):
        number = spec.get("scrum")
        if number is None:
            continue
        key = f"fatigue.units[{i}].scrum"
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise position.error(key, "must be a scrum number from 1")
        unit = state.units[i + 1]
        if unit.fleeing:
            raise position.error(key, "a fleeing unit is not in a scrum")
        scrum = numbers.setdefault(number, Scrum(number, ([], []), position.round))
        scrum.sides[unit.player].append(unit.id)
        unit.scrum = number
        unit.scrums_this_round.append(number)
    for number, scrum in numbers.items():
        if not scrum.sides[0] or not scrum.sides[1]:
            raise position.error("fatigue.units", f"scrum {number} needs units of both players")
        state.scrums[number] = scrum
    state.next_scrum = max(numbers, default=0) + 1


def _scrum_rounds(state: FState, position: Position, raw: Any) -> None:
    """This round's wounds and exchanges of a scrum, and who fled it (§6.16, §6.19)."""
    if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
        raise position.error("fatigue.scrums", "must be a list of tables")
    for i, spec in enumerate(raw):
        key = f"fatigue.scrums[{i}]"
        number = spec.get("number")
        scrum = state.scrums.get(number) if isinstance(number, int) else None
        if scrum is None:
            raise position.error(f"{key}.number", "name a scrum given to the units")
        wounds = spec.get("wounds", [0, 0])
        if (
            not isinstance(wounds, list)
            or len(wounds) != 2
            or not all(
                isinstance(w, int) and not isinstance(w, bool) and 0 <= w <= 99 for w in wounds
            )
        ):
            raise position.error(f"{key}.wounds", "give two whole numbers 0..99 (per player)")
        scrum.wounds = list(wounds)
        exchanges = spec.get("exchanges", 0)
        if not isinstance(exchanges, int) or isinstance(exchanges, bool) or not 0 <= exchanges <= 9:
            raise position.error(f"{key}.exchanges", "must be a whole number 0..9")
        scrum.exchanges = exchanges
        fled = spec.get("fled", [])
        if not isinstance(fled, list) or not all(
            isinstance(u, int) and u in state.units and state.units[u].fleeing for u in fled
        ):
            raise position.error(f"{key}.fled", "list fleeing units by number (1, 2...)")
        for uid in fled:
            enemies = scrum.sides[1 - state.units[uid].player]
            scrum.fled.append((uid, tuple(sorted(enemies))))


def _sides(state: FState, position: Position, raw: Any) -> None:
    """FP pools (default: a fresh refill, §10 #1), VP, passing, edges, rout counts."""
    if raw is None:
        raw = [{}, {}]
    if not isinstance(raw, list) or len(raw) != 2 or not all(isinstance(s, dict) for s in raw):
        raise position.error("fatigue.sides", "give two tables, one per player")
    for side, spec in zip(state.sides, raw, strict=True):
        key = f"fatigue.sides[{side.player}]"
        side.start_models = sum(len(u.models) for u in state.units_of(side.player))
        side.fp = spec.get("fp", fresh_pool(state, side.player))
        side.vp = spec.get("vp", 0)
        for name, value in (("fp", side.fp), ("vp", side.vp)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise position.error(f"{key}.{name}", "must be a whole number >= 0")
        side.passed = spec.get("passed", False)
        if not isinstance(side.passed, bool):
            raise position.error(f"{key}.passed", "must be true or false")
        side.edge = spec.get("edge", side.edge)
        if side.edge not in state.zones:
            raise position.error(f"{key}.edge", f"name a zone: {', '.join(state.zones)}")
        unknown = set(spec) - {"fp", "vp", "passed", "edge"}
        if unknown:
            raise position.error(f"{key}", f"unknown keys {sorted(unknown)} (fp, vp, passed, edge)")


def fresh_pool(state: FState, player: int) -> int:
    """The FP_REFILL pool: fp_value + 1 per living commander, non-fleeing units (§10 #1)."""
    return sum(
        u.spec.fp_value + (COMMANDER_FP_BONUS if u.commander() is not None else 0)
        for u in state.units_of(player)
        if u.in_play and not u.fleeing
    )
