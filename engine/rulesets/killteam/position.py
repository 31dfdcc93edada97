"""Kill Team positions: models, tokens and resources at the start of a phase.

A position may also start at ``phase = "Deployment"`` (round 1): the start of the game,
before any model is placed. Its models then have no cell; the game gives the starting
CP from the two rosters' points (§4.3), then rolls off and lets the players place the
models (§4.4).

The ``[killteam]`` table of a position file::

    initiative = 1                  # who has the initiative this round (1 or 2)
    first_deployer = 1              # who deployed first (1 or 2): his Veteran is asked
                                    # first before round 1's Initiative (§8.1)
    [[killteam.sides]]              # player 1, then player 2 (all keys optional)
    cp = 2
    vp = 0
    broken = false
    grenade_thrown = false          # a grenade was thrown this phase (§6.5.10)
    psyker_cast = false             # a psyker attempted a power this round (§6.4)
    stratagems_used = ["Command Re-roll"]   # this phase (§10 A31): "Command Re-roll"
                                    # or "<Specialism> stratagem"
    veteran_used = false            # the Veteran's once-per-game move is spent (§8.1)
    comms_used = false              # the Comms passive was given this Shooting phase
    comms_morale = false            # the Comms stratagem is on this Morale phase
    start_count = 16                # models at the start of the game (broken test, §6.8);
                                    # default: the number of that player's models listed
    points = 100                    # roster points (starting CP, §4.3); default: the
                                    # points of that player's models listed
    [[killteam.models]]
    player = 1
    datasheet = "sergeant"          # of that player's faction in the scenario
    specialism = "Leader"           # optional
    options = ["shock_axe"]         # optional wargear options
    cell = [3, 4]                   # none in a Deployment position
    wounds = 1                      # optional, default the profile's W
    flesh_wounds = 1                # optional
    states = ["ready", "moved"]     # optional tokens, see STATES; the phase's own
                                    # ("activated", "has shot", ...) hold at its start
    charge_targets = ["B2"]         # optional: this model declared a charge at them
                                    # (with "failed charge": and fell short)
    casts = 1                       # optional: powers attempted this round (psyker)
    denies = 1                      # optional: deny attempts this round
    id = "A1"                       # optional, default A1.. / B1.. in file order
    [[killteam.models]]
    player = 1
    datasheet = "trooper"
    out_of_action = true            # already out of action: give no cell (it counts for
                                    # the broken test and nerve tests, §6.8)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board import Cell
from engine.position import Position
from engine.rulesets.killteam.profiles import SPECIALISMS, Faction
from engine.rulesets.killteam.roster import equip
from engine.rulesets.killteam.state import KTState, Model
from engine.scenario import KeySpec, check_keys

PHASES = ("Deployment", "Initiative", "Movement", "Psychic", "Shooting", "Fight", "Morale")
"""Phases a position may start at (§5.1); Initiative means the start of the round, and
Deployment the start of the game (§4.3, §4.4)."""

STATES: Mapping[str, str] = {
    "shaken": "shaken",
    "ready": "ready",
    "moved": "moved",
    "advanced": "advanced",
    "fell back": "fell_back",
    "retreated": "retreated",
    "charged": "charge_successful",
    "injected": "injected",
    "warded": "warded",
    "fury": "fury",
    "failed charge": "charge_failed",
    "activated": "activated",
    "moved this phase": "moved_this_phase",
    "has shot": "has_shot",
    "has fought": "has_fought",
    "comms bonus": "comms_bonus",
}
"""Position state names -> Model flags (the digest's tokens, §3.4, and the flags a phase
sets that its rules read later: the game keeps them at the position's first phase)."""

SIDE_FLAGS: Mapping[str, str] = {
    "broken": "broken",
    "grenade_thrown": "grenade_used",
    "psyker_cast": "psyker_cast",
    "veteran_used": "veteran_used",
    "comms_used": "comms_passive_used",
    "comms_morale": "comms_morale",
}
"""Position side keys -> Team flags (§3.5, §6.4, §6.5.10, §8.1)."""

STRATAGEMS = ("Command Re-roll", *(f"{s} stratagem" for s in SPECIALISMS))

POSITION_KEYS: KeySpec = {
    "initiative": None,
    "first_deployer": None,
    "sides": dict.fromkeys(("cp", "vp", *SIDE_FLAGS, "stratagems_used", "start_count", "points")),
    "models": dict.fromkeys(
        (
            *("player", "datasheet", "options", "id", "specialism", "states", "casts"),
            *("denies", "out_of_action", "cell", "wounds", "flesh_wounds", "charge_targets"),
        )
    ),
}
"""The keys of a position's [killteam] table and its sides and models (a misspelt one is
refused rather than silently left at its default)."""


def load_killteam_position(
    state: KTState, position: Position, factions: tuple[Faction, Faction]
) -> None:
    """Replace ``state``'s models and resources with the position's (validated)."""
    rules = position.rules
    check_keys(rules, POSITION_KEYS, position.source, "killteam")
    if position.phase not in PHASES:
        raise position.error(
            "phase",
            f"{position.phase!r} is not a Kill Team phase (use one of: {', '.join(PHASES)})",
        )
    if position.phase == "Deployment" and position.round != 1:
        raise position.error("round", "a Deployment position starts the game: use round 1")
    initiative = rules.get("initiative", 1)
    if initiative not in (1, 2) or isinstance(initiative, bool):
        raise position.error("killteam.initiative", "must be 1 or 2")
    state.initiative = initiative - 1
    first = rules.get("first_deployer", 1)
    if first not in (1, 2) or isinstance(first, bool):
        raise position.error("killteam.first_deployer", "must be 1 or 2")
    state.first_deployer = first - 1
    state.round = position.round
    state.phase = position.phase
    _sides(state, position, rules.get("sides", []))
    models = rules.get("models")
    if not isinstance(models, list) or not models:
        raise position.error("killteam.models", "list the models ([[killteam.models]])")
    state.models.clear()
    for team in state.teams:
        team.start_count = team.points = 0
    for i, raw in enumerate(models):
        model = _model(state, position, factions, raw, f"killteam.models[{i}]")
        state.models[model.id] = model
        team = state.team(model.player)
        team.start_count += 1
        team.points += model.sheet.points + sum(w.points for w in model.weapons)
    _side_totals(state, position, rules.get("sides", []))
    _charges(state, position, models)


def _sides(state: KTState, position: Position, sides: Any) -> None:
    for seat, key, raw in position.side_tables("killteam", sides):
        team = state.team(seat)
        for field in ("cp", "vp"):
            value = raw.get(field, getattr(team, field))
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise position.error(f"{key}.{field}", "must be a whole number >= 0")
            setattr(team, field, value)
        for name, flag in SIDE_FLAGS.items():
            value = raw.get(name, False)
            if not isinstance(value, bool):
                raise position.error(f"{key}.{name}", "must be true or false")
            setattr(team, flag, value)
        used = raw.get("stratagems_used", [])
        if not isinstance(used, list) or not all(u in STRATAGEMS for u in used):
            raise position.error(
                f"{key}.stratagems_used", f"must list stratagems ({', '.join(STRATAGEMS)})"
            )
        team.stratagems_used = set(used)


def _side_totals(state: KTState, position: Position, sides: list[Any]) -> None:
    """Per-side ``start_count`` (a team that began larger than the models listed, §6.8)
    and ``points`` (the roster's points, for the starting CP of §4.3)."""
    for seat, raw in enumerate(sides):
        team = state.team(seat)
        key = f"killteam.sides[{seat}]"
        if "start_count" in raw:
            value = raw["start_count"]
            if not isinstance(value, int) or isinstance(value, bool) or value < team.start_count:
                raise position.error(
                    f"{key}.start_count",
                    f"must be a whole number, at least the {team.start_count} model(s) "
                    f"listed for player {seat + 1}",
                )
            team.start_count = value
        if "points" in raw:
            points = raw["points"]
            if not isinstance(points, int) or isinstance(points, bool) or points < 0:
                raise position.error(f"{key}.points", "must be a whole number >= 0")
            team.points = points


def _model(
    state: KTState, position: Position, factions: tuple[Faction, Faction], raw: Any, key: str
) -> Model:
    if not isinstance(raw, dict):
        raise position.error(key, "must be a table")
    player = raw.get("player")
    if player not in (1, 2):
        raise position.error(f"{key}.player", "must be 1 or 2")
    seat = player - 1
    faction = factions[seat]
    sheet = faction.datasheets.get(raw.get("datasheet", ""))
    if sheet is None:
        raise position.error(
            f"{key}.datasheet",
            f"not a {faction.name} datasheet (use one of: {', '.join(faction.datasheets)})",
        )
    try:
        weapons = equip(faction, sheet, list(raw.get("options", [])))
    except (ValueError, TypeError) as exc:
        raise position.error(f"{key}.options", str(exc)) from None
    count = sum(1 for m in state.models.values() if m.player == seat)
    mid = raw.get("id", f"{'AB'[seat]}{count + 1}")
    if not isinstance(mid, str) or mid in state.models:
        raise position.error(f"{key}.id", f"{mid!r} is not a new model id")
    specialism = raw.get("specialism")
    if specialism is not None and specialism not in sheet.specialisms:
        raise position.error(f"{key}.specialism", f"a {sheet.name} cannot be a {specialism}")
    model = Model(mid, seat, sheet, weapons, specialism, sheet.W)
    _place(state, position, model, raw, key)
    _wounds(model, position, raw, key)
    states = raw.get("states", [])
    if not isinstance(states, list):
        raise position.error(f"{key}.states", "must be a list of state names")
    for name in states:
        if name not in STATES:
            raise position.error(
                f"{key}.states", f"unknown state {name!r} (Kill Team knows: {', '.join(STATES)})"
            )
        setattr(model, STATES[name], True)
    if model.charge_failed:
        if model.charge_successful:
            raise position.error(f"{key}.states", "a charge cannot both fail and succeed")
        model.charge_declared = True
    for field in ("casts", "denies"):
        uses = raw.get(field, 0)
        if not isinstance(uses, int) or isinstance(uses, bool) or not 0 <= uses <= 9:
            raise position.error(f"{key}.{field}", "must be a whole number 0..9")
        setattr(model, f"{field}_used", uses)
    return model


def _place(
    state: KTState, position: Position, model: Model, raw: Mapping[str, Any], key: str
) -> None:
    """Its cell; none if it is out of action, or in a Deployment position (§4.4)."""
    out = raw.get("out_of_action", False)
    if not isinstance(out, bool):
        raise position.error(f"{key}.out_of_action", "must be true or false")
    deploying = position.phase == "Deployment"
    if out and deploying:
        raise position.error(f"{key}.out_of_action", "no model is out of action before the game")
    if out or deploying:
        if "cell" in raw:
            why = "out of action" if out else "placed by its player during the Deployment"
            raise position.error(f"{key}.cell", f"give no cell: the model is {why}")
        model.out_of_action = out
    else:
        model.cell = _cell(state, position, raw.get("cell"), f"{key}.cell")


def _cell(state: KTState, position: Position, raw: Any, key: str) -> Cell:
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        raise position.error(key, "must be [x, y]")
    cell = Cell(raw[0], raw[1])
    if cell not in state.board or not state.board.is_standable(cell):
        raise position.error(key, f"{cell} is off the map or inside a wall")
    other = state.model_at(cell)
    if other is not None:
        raise position.error(key, f"{cell} is already taken by {other.id}: two models in one cell")
    return cell


def _wounds(model: Model, position: Position, raw: Mapping[str, Any], key: str) -> None:
    wounds = raw.get("wounds", model.sheet.W)
    if not isinstance(wounds, int) or not 1 <= wounds <= model.sheet.W:
        raise position.error(f"{key}.wounds", f"must be 1..{model.sheet.W} (its W)")
    flesh = raw.get("flesh_wounds", 0)
    if not isinstance(flesh, int) or not 0 <= flesh <= 3:
        raise position.error(f"{key}.flesh_wounds", "must be 0..3")
    model.wounds, model.flesh_wounds = wounds, flesh


def _charges(state: KTState, position: Position, models: list[Any]) -> None:
    for i, raw in enumerate(models):
        targets = raw.get("charge_targets")
        if targets is None:
            continue
        model = list(state.models.values())[i]
        key = f"killteam.models[{i}].charge_targets"
        if not isinstance(targets, list) or not all(
            isinstance(t, str) and t in state.models and state.models[t].player != model.player
            for t in targets
        ):
            raise position.error(key, "must list enemy model ids")
        model.charge_declared = True
        model.charge_targets = set(targets)
        if model.charge_successful:
            for target in targets:
                state.models[target].charged_by.add(model.id)
