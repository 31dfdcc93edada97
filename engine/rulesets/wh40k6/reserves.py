"""Reserves: declaring them, rolling for them and bringing them on (digest wh40k6 §4.9).

Before deployment up to half the units (rounded down) may be held back (D10). From game
turn 2, at the start of its owner's Movement phase, each reserve unit rolls a D6: 3+ in
turns 2 and 3, automatic from turn 4. Arriving units move on from their own table edge:
the player picks the order (D14), an entry cell on the edge, then places the unit within
its move of that cell (entering the edge cell costs 1"). They cannot charge that turn.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.paths import Field, can_fly
from engine.rulesets.wh40k6.placement import Placement, cell_key, parse_cell, place_unit
from engine.rulesets.wh40k6.state import State, Unit
from engine.wording import agrees, says

DONE = "done"
RESERVE_ROLL = {2: 3, 3: 3}
"""Game turn -> D6 needed for a reserve to arrive; automatic from turn 4."""


def declare_reserves(state: State, ctx: RuleContext, player: int) -> Procedure[None]:
    """D10: hold up to half the units (rounded down) in reserve before deploying."""
    limit = len(state.units_of(player)) // 2
    while state.reserves_allowed:
        held = [u for u in state.units_of(player) if u.in_reserve]
        if len(held) >= limit:
            return
        free = [u for u in state.units_of(player) if not u.in_reserve and not u.infiltrating]
        options = [Option(DONE, f"Deploy the rest ({len(held)} of at most {limit} in reserve)")]
        options += [Option(u.id, f"Hold {u.name} in reserve") for u in free]
        choice = yield Decision(
            player, DecisionKind.PICK_OPTION, "Hold a unit in reserve?", tuple(options)
        )
        if choice.key == DONE:
            return
        unit = state.units[choice.key]
        unit.in_reserve = True
        said = f"{unit.name} {agrees(unit.name, 'is')} held in reserve"
        ctx.emit("UnitReserved", said, unit=unit.id, player=player)


def roll_reserves(state: State, ctx: RuleContext, player: int) -> list[Unit]:
    """T0: roll for every reserve unit from game turn 2 (§4.9); returns the arrivals."""
    if state.game_turn < 2:
        return []
    arriving: list[Unit] = []
    for unit in state.units_of(player):
        if not unit.in_reserve:
            continue
        needed = RESERVE_ROLL.get(state.game_turn)
        if needed is not None:
            words = ("arrives", "delayed")
            check = Check.at_least("reserves", needed, f"turn {state.game_turn}", words)
            reason = f"reserve roll for {unit.name}"
            face = ctx.dice.d6(player=player, reason=reason, check=check)
            if not check.passes(face):
                ctx.emit(
                    "ReservesDelayed",
                    f"{says(unit.name, 'stays')} in reserve ({face})",
                    unit=unit.id,
                )
                continue
        arriving.append(unit)
    return arriving


def arrive_reserves(state: State, ctx: RuleContext, arriving: list[Unit]) -> Procedure[None]:
    """D14: bring the arrivals on in the player's order."""
    arriving = list(arriving)
    ordered = len(arriving) > 1
    while arriving:
        unit = arriving[0]
        if len(arriving) > 1:
            choice = yield Decision(
                unit.player,
                DecisionKind.ORDER,
                "Which reserve unit arrives next?",
                tuple(Option(u.id, u.name) for u in arriving),
            )
            unit = state.units[choice.key]
        elif ordered:
            ctx.answered(f"{says(unit.name, 'is')} the last reserve unit to arrive.", unit.player)
        arriving.remove(unit)
        yield from bring_on(state, ctx, unit)


def bring_on(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """D14: pick an entry cell on the own edge, then place the unit within its move."""
    models = state.members(unit)
    first = models[0]
    f = Field(state, unit.player, [m.id for m in models])
    edges = state.side(unit.player).edges
    entries = [
        c
        for c in _edge_cells(state, edges, first.profile.size)
        if not f.end.any_in(square(c, first.profile.size))
    ]
    if not entries:
        ctx.emit(
            "ReservesDelayed", f"{says(unit.name, 'finds')} no way onto the table", unit=unit.id
        )
        return
    choice = yield Decision(
        unit.player,
        DecisionKind.PICK_CELL,
        f"Where does {unit.name} move onto the table?",
        tuple(Option(cell_key(c), f"Enter at {c}", cell=c) for c in entries),
    )
    entry = parse_cell(choice.key)
    move = t.MOVE_TABLE[first.profile.move_class()].move
    if first.is_vehicle and first.profile.fire_class() in ("heavy", "walker"):
        move = min(move, t.COMBAT_SPEED)
    allowed = {m.id: frozenset(f.reach(m, entry, move - 1, can_fly(m))) for m in models}
    if len(frozenset().union(*allowed.values())) < len(models):
        ctx.emit("ReservesDelayed", f"{says(unit.name, 'finds')} no room to arrive", unit=unit.id)
        return
    cells = yield from place_unit(ctx, Placement(unit, models, allowed, "arrive"))
    for m in models:
        m.cell = cells[m.id]
        m.moved = True
    unit.in_reserve = False
    unit.arrived = True
    unit.moved = True
    if first.is_vehicle:
        first.speed = t.COMBAT if move <= t.COMBAT_SPEED else t.CRUISING
        first.moved_inches = move
        first.facing = {"south": 0, "north": 4, "west": 2, "east": 6}[edges[0]]
    ctx.emit(
        "ReservesArrived", f"{says(unit.name, 'arrives')} from reserve at {entry}", unit=unit.id
    )


def _edge_cells(state: State, edges: tuple[str, ...], size: int) -> list[Cell]:
    """Anchors whose footprint lies on the table and touches one of the edges, row by row:
    whole rows on the south and north edges, the end anchors of the others."""
    top, right = state.height - size, state.width - size
    ends = sorted({x for x, edge in ((0, "west"), (right, "east")) if edge in edges})
    cells: list[Cell] = []
    for y in range(top + 1):
        if ("south" in edges and y == 0) or ("north" in edges and y == top):
            cells.extend(Cell(x, y) for x in range(right + 1))
        else:
            cells.extend(Cell(x, y) for x in ends)
    return cells
