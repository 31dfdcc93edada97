"""The Movement phase and every ordinary unit move (digest wh40k6 §6.1-§6.4, §6.6).

The active player first manifests blessings and maledictions (§6.7), brings on reserves
(§4.9), then activates units one at a time (D15): a falling-back unit tests to regroup,
an embarked unit may disembark (§6.15), any other unit moves (D16-D19). Difficult
terrain is the player's choice (D17): units that must roll for it (2D6 or 3D6, pick the
highest) roll once and the result caps every model this phase (§10 A-9); other unit
types take Dangerous Terrain tests instead (§6.2 table, §6.3). Vehicles get a speed from
the distance moved and choose their facing (§6.4, §11.5).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.facing import LONG_NAMES, ask_facing, towards
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.explosions import destroy_vehicle
from engine.rulesets.wh40k6.flyers import FIXED_SPEED, flyer_limits, flyer_move
from engine.rulesets.wh40k6.morale import (
    dangerous_test,
    end_of_phase_morale,
    is_gone_to_ground,
    is_locked,
    regroup,
)
from engine.rulesets.wh40k6.paths import (
    Field,
    can_fly,
    crossed,
    difficult_cells,
    difficult_within,
    touches,
)
from engine.rulesets.wh40k6.placement import Placement, place_unit
from engine.rulesets.wh40k6.psychic import start_of_movement_powers
from engine.rulesets.wh40k6.relic import check_relic
from engine.rulesets.wh40k6.reserves import arrive_reserves, roll_reserves
from engine.rulesets.wh40k6.state import Model, Moving, State, Unit
from engine.rulesets.wh40k6.transports import can_disembark, disembark, offer_embark
from engine.rulesets.wh40k6.vehicles import WRECKED, is_stunned
from engine.wording import agreeing, its, plural

END = "end"
TESTS = {
    t.ROLL_2: "dangerous",
    t.ROLL_3: "dangerous",
    t.NO_EFFECT: "dangerous",
    t.DANGEROUS: "difficult",
    t.DT_TEST: "difficult",
    t.DT_START_END: "start_end",
}
"""Which Dangerous Terrain tests a move takes, by the movement table's terrain column."""


DIFFICULT = Check.purpose("distance: the highest die")


def begin_phase(state: State) -> None:
    """Count models for the 25% Morale check and clear phase flags (§6.10)."""
    for unit in state.units.values():
        unit.activated = False
        unit.pinning_tested = False
        unit.at_phase_start = len(state.members(unit))


MOVING_ON = "Movement (next unit)"
"""The checkpoint between two units' moves (``ctx.boundary``): undo replays one unit's."""
MOVING_UNIT = "Movement (unit moving)"
"""A checkpoint inside one unit's placement (`State.moving` says how far it got): undo
replays a few of its choices."""


def movement_phase(state: State, ctx: RuleContext, *, resumed: bool = False) -> Procedure[None]:
    """T1: powers, reserves, then units one at a time; falling-back units last (§5).

    ``resumed``: from a checkpoint between two units (`MOVING_ON`); who has moved is
    in the state (``activated``), so the loop goes on as it would have."""
    player = state.active
    if not resumed:
        begin_phase(state)
        arriving = roll_reserves(state, ctx, player)
        yield from start_of_movement_powers(state, ctx, player)
        yield from arrive_reserves(state, ctx, arriving)
    elif state.moving is not None:  # from inside a unit's move (`MOVING_UNIT`)
        unit = state.units[state.moving.unit]
        models = state.on_table(unit)
        costs = yield from resume_move(state, ctx, MOVING_UNIT)
        yield from after_move(state, ctx, unit, models, costs)
    while True:
        if resumed:
            ctx.boundary(state.game_turn, MOVING_ON)
        resumed = True  # a checkpoint before every unit but the first (the phase's own)
        ready = [u for u in state.units_of(player) if can_activate(state, u)]
        if not ready:
            break
        options = [Option(END, "End the Movement phase", ends=True)]
        options += [
            Option(u.id, _activation_label(state, u), cell=state.lead_cell(u)) for u in ready
        ]
        choice = yield Decision(
            player, DecisionKind.PICK_OPTION, "Which unit moves next?", tuple(options)
        )
        if choice.key == END:
            break
        yield from activate(state, ctx, state.units[choice.key], inside=MOVING_UNIT)
    for unit in state.units_of(player):
        models = state.on_table(unit)
        must = unit.falling_back or any(m.profile.is_flyer for m in models)
        if must and not unit.activated and models:
            yield from activate(state, ctx, unit)
    yield from end_of_phase_morale(state, ctx, "Movement")


def _activation_label(state: State, unit: Unit) -> str:
    if unit.falling_back:
        return f"{unit.name}: Regroup test (falling back)"
    if unit.embarked_in is not None:
        return f"{unit.name}: disembark from {state.models[unit.embarked_in].name}"
    return f"Move {unit.name}"


def can_activate(state: State, unit: Unit) -> bool:
    """A unit that may still do something in this Movement phase (§6.1 item 6)."""
    if unit.activated or unit.destroyed or unit.arrived:
        return False
    if unit.embarked_in is not None:
        return can_disembark(state, unit)
    models = state.on_table(unit)
    if not models or is_locked(state, unit):
        return False
    if unit.falling_back:
        return True
    if is_gone_to_ground(state, unit):
        return False
    vehicle = models[0] if models[0].is_vehicle else None
    if vehicle is not None and vehicle.profile.is_flyer:
        return True
    return vehicle is None or not (vehicle.immobilised or is_stunned(state, vehicle))


def move_allowance(model: Model, packs: bool = True) -> int:
    """The unit's Movement-phase move from the table (§6.2); heavy vehicles and walkers
    at most combat speed (§6.4)."""
    allowance = t.MOVE_TABLE[model.profile.move_class(packs)].move
    if model.is_vehicle and model.profile.fire_class() in ("heavy", "walker"):
        allowance = min(allowance, t.COMBAT_SPEED)
    return allowance


def activate(state: State, ctx: RuleContext, unit: Unit, inside: str = "") -> Procedure[None]:
    """One unit's Movement-phase activation (§6.2 steps 1-5); ``inside`` names the
    checkpoints its placement may take (`MOVING_UNIT`), "" for none."""
    unit.activated = True
    if unit.falling_back:
        yield from regroup(state, ctx, unit)
        return
    if unit.embarked_in is not None:
        yield from disembark(state, ctx, unit)
        return
    models = state.on_table(unit)
    if models[0].profile.is_flyer:
        yield from zoom(state, ctx, models[0])
        return
    packs = True
    kind = models[0].profile.unit_type.value
    if kind == "jet_pack" or (kind == "jump" and _packs_risk_terrain(state, models)):
        packs = yield from ask_yes_no(
            unit.player,
            f"{'Do' if plural(unit.name) else 'Does'} {unit.name} "
            f"use {its(unit.name)} packs for this move?",
            subject=state.lead(unit),
        )
    unit.packs = packs
    row = t.MOVE_TABLE[models[0].profile.move_class(packs)]
    allowance = move_allowance(models[0], packs)
    through, allowance = yield from difficult_choice(state, ctx, unit, row, allowance)
    fly = all(can_fly(m, packs) for m in models)
    costs = yield from move_unit(
        state,
        ctx,
        unit,
        allowance,
        fly=fly,
        through=through,
        verb="move",
        tests=TESTS[row.difficult],
        inside=inside,
    )
    yield from after_move(state, ctx, unit, models, costs)


def after_move(
    state: State, ctx: RuleContext, unit: Unit, models: list[Model], costs: dict[str, int]
) -> Procedure[None]:
    """The end of an activation's move: a vehicle's speed and facing, embarking, the relic.
    ``models`` are the unit's models on the table when the move began."""
    if models[0].is_vehicle:
        yield from vehicle_speed_and_facing(state, ctx, models[0], costs.get(models[0].id, 0))
    yield from offer_embark(state, ctx, unit)
    check_relic(state, ctx, unit)


def zoom(state: State, ctx: RuleContext, flyer: Model) -> Procedure[None]:
    """A zooming flyer's move: pivot, then straight ahead (§6.2, flyers.py)."""
    low, high, pivot = flyer_limits(state, flyer)
    inches = yield from flyer_move(state, ctx, flyer, low, high, pivot)
    if inches >= 0:
        flyer.moved_inches = inches
        flyer.speed = t.COMBAT if inches <= FIXED_SPEED else t.CRUISING
        ctx.emit("SpeedSet", f'{flyer.name} flies {inches}": {flyer.speed}', model=flyer.id)


def _packs_risk_terrain(state: State, models: list[Model]) -> bool:
    """Jump packs move 12" over everything and cost nothing but Dangerous Terrain tests
    when the move starts or ends in difficult terrain: only then is the choice real."""
    placed = [(m, m.cell) for m in models if m.cell is not None]
    if any(touches(state, m, cell, "difficult") for m, cell in placed):
        return True
    reach = t.MOVE_TABLE["jump"].move
    return any(difficult_within(state, m.rect, reach) for m, _ in placed)


def difficult_choice(
    state: State, ctx: RuleContext, unit: Unit, row: t.MoveRow, allowance: int
) -> Procedure[tuple[bool, int]]:
    """D17: move through difficult terrain? Rolling types roll their maximum (§6.2 step 3)."""
    if row.difficult in (t.NO_EFFECT, t.DT_START_END):
        return True, allowance
    placed = [(m, m.cell) for m in state.on_table(unit) if m.cell is not None]
    models = [m for m, _ in placed]
    standing = [touches(state, m, cell, "difficult") for m, cell in placed]
    near = any(standing) or any(difficult_within(state, m.rect, allowance) for m in models)
    if not near:
        return False, allowance
    if all(standing):
        # Every model stands in it: any move goes through it, so "no" would be no move.
        yes = True
    else:
        if row.difficult in (t.ROLL_2, t.ROLL_3):
            prompt = (
                f"Move {unit.name} through difficult terrain "
                f"({row.difficult} for the maximum move)?"
            )
        else:
            prompt = f"Move {unit.name} through difficult terrain (Dangerous Terrain tests)?"
        yes = yield from ask_yes_no(unit.player, prompt, subject=state.lead(unit))
    if not yes:
        return False, allowance
    if row.difficult in (t.ROLL_2, t.ROLL_3):
        dice = 2 if row.difficult == t.ROLL_2 else 3
        reason = f"difficult terrain for {unit.name}"
        roll = ctx.dice.roll(dice, 6, player=unit.player, reason=reason, check=DIFFICULT)
        allowance = min(allowance, max(roll.faces))
        ctx.emit(
            "DifficultTerrainRolled",
            f'{unit.name} may move {allowance}" through difficult terrain',  # faces: dice line
            unit=unit.id,
            inches=allowance,
        )
    return True, allowance


def move_unit(
    state: State,
    ctx: RuleContext,
    unit: Unit,
    budget: int,
    *,
    fly: bool,
    through: bool,
    verb: str,
    tests: str,
    inside: str = "",
) -> Procedure[dict[str, int]]:
    """Ask for the unit's move, apply it and take Dangerous Terrain tests; returns costs.

    ``inside``: the name of the checkpoints its placement may take part way (the phase
    resumes there with `resume_move`), "" for none."""
    moving = Moving(unit.id, budget, fly, through, verb, tests)
    return (yield from _move(state, ctx, unit, moving, inside, resumed=False))


def resume_move(state: State, ctx: RuleContext, inside: str) -> Procedure[dict[str, int]]:
    """The rest of the move `State.moving` holds, restored at a checkpoint ``inside`` it."""
    moving = state.moving
    assert moving is not None
    return (yield from _move(state, ctx, state.units[moving.unit], moving, inside, resumed=True))


def _move(
    state: State, ctx: RuleContext, unit: Unit, moving: Moving, inside: str, *, resumed: bool
) -> Procedure[dict[str, int]]:
    budget, fly, through = moving.budget, moving.fly, moving.through
    models = state.on_table(unit)
    avoid: list[Cell] = [] if through or fly else difficult_cells(state)
    f = Field(state, unit.player, [m.id for m in models], avoid=avoid)
    allowed: dict[str, frozenset[Cell]] = {}
    costs: dict[str, dict[Cell, int]] = {}
    starts: dict[str, Cell] = {}
    for m in models:
        assert m.cell is not None
        starts[m.id] = m.cell
        stuck = avoid and touches(state, m, m.cell, "difficult")
        reach = {m.cell: 0} if stuck else f.reach(m, m.cell, budget, fly)
        reach[m.cell] = 0
        costs[m.id] = reach
        allowed[m.id] = frozenset(reach)
    placement = Placement(unit, models, allowed, moving.verb, starts, costs)
    if inside:
        state.moving = placement.progress = moving
        placement.mark = lambda: ctx.boundary(state.game_turn, inside)
        placement.resumed = resumed
    cells = yield from place_unit(ctx, placement)
    state.moving = None
    spent: dict[str, int] = {}
    for m in models:
        end = cells[m.id]
        spent[m.id] = costs[m.id].get(end, 0)
        if end == m.cell:
            continue
        m.cell = end
        m.moved = True
        unit.moved = True
    ctx.emit("UnitMoved", moved_text(unit.name, moving.verb, starts, cells, spent),
             unit=unit.id, player=unit.player)  # fmt: skip
    for m in models:
        start, end = starts[m.id], cells[m.id]
        if m.removed or start == end:
            continue
        if _must_test(state, f, m, start, end, budget, moving.tests, fly):
            dangerous_test(state, ctx, m)
            if m.is_vehicle and m.hp <= 0 and not m.removed:
                yield from destroy_vehicle(state, ctx, m, WRECKED)
    return spent


def moved_text(
    name: str, verb: str, starts: dict[str, Cell], ends: dict[str, Cell], spent: dict[str, int]
) -> str:
    """'Horde Mob Red runs up to 4" north-west': how far and which way, as Apocalypse's
    and fatigue's moves say where they went ("Horde Mob Red runs" alone left a player
    watching the computer to find the mob on the map)."""
    moved = [m for m in starts if starts[m] != ends[m]]
    if not moved:
        return f"{name} stay where they are" if plural(name) else f"{name} stays where it is"
    far = max(spent[m] for m in moved)
    span = f'{far}"' if len(starts) == 1 or {spent[m] for m in starts} == {far} else f'up to {far}"'
    dx = sum(ends[m].x - starts[m].x for m in moved)
    dy = sum(ends[m].y - starts[m].y for m in moved)
    way = towards(Cell(0, 0), Cell(dx, dy))
    heading = "" if way is None else f" {LONG_NAMES[way]}"
    return f"{name} {agreeing(name, moving_phrase(verb))} {span}{heading}"


def _must_test(
    state: State, f: Field, m: Model, start: Cell, end: Cell, budget: int, tests: str, fly: bool
) -> bool:
    if tests == "start_end":
        return touches(state, m, start, "difficult") or touches(state, m, end, "difficult")
    if tests == "difficult":
        return crossed(state, f, m, start, end, budget, "difficult", fly)
    return crossed(state, f, m, start, end, budget, "dangerous", fly)


def vehicle_speed_and_facing(
    state: State, ctx: RuleContext, vehicle: Model, inches: int
) -> Procedure[None]:
    """Speed from the distance moved (§6.4); then D19 facing (pivots never count)."""
    vehicle.moved_inches = inches
    vehicle.speed = (
        t.STATIONARY if inches == 0 else t.COMBAT if inches <= t.COMBAT_SPEED else t.CRUISING
    )
    ctx.emit("SpeedSet", f'{vehicle.name} moved {inches}": {vehicle.speed}', model=vehicle.id)
    if vehicle.removed or vehicle.immobilised or is_stunned(state, vehicle):
        return
    facing = yield from ask_facing(
        vehicle.player,
        f"Which way does {vehicle.name} face?",
        marked=vehicle.facing,
        subject=vehicle.id,
    )
    if facing != vehicle.facing:
        vehicle.facing = facing
        ctx.emit(
            "VehiclePivoted", f"{vehicle.name} turns to face {LONG_NAMES[facing]}", model=vehicle.id
        )


def moving_words(verb: str) -> str:
    """The words for a move of kind ``verb``: "move", "run", "turbo-boost", "move flat out"
    (the log said "Scrap Hauler flat outs")."""
    return "move flat out" if verb == "flat out" else verb


def moving_phrase(verb: str) -> str:
    """`moving_words` as a singular subject's: "moves", "moves flat out"."""
    first, space, rest = moving_words(verb).partition(" ")
    return first + "s" + space + rest
