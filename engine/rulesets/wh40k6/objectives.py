"""Objective markers: how many, who places them, where they may go (wh40k6 §4.2, §4.6).

Players alternate placing markers, the table-half winner first (D6): not within 6" of a
table edge, more than 12" from another marker, not in impassable terrain. The Emperor's
Will puts one marker in each player's own deployment zone; Crusade and Big Guns Never
Tire roll D3+2 markers; The Scouring places six worth 4, 3, 3, 2, 2 and 1 VP in
placement order (PROPOSED); The Relic sits in the table centre.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from functools import cache
from itertools import compress

from engine.board import Cell, distance
from engine.checks import TABLE
from engine.decisions import Decision, DecisionKind, Procedure, cell_options
from engine.footprints import table_cells
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.geometry import terrain_cells
from engine.rulesets.wh40k6.placement import parse_cell
from engine.rulesets.wh40k6.state import State
from engine.wording import says


def legal_marker_cells(state: State, zone: frozenset[Cell] | None = None) -> list[Cell]:
    """Cells where the next marker may go (§4.6 restrictions), row by row from the south.

    Impassable cells and the cells within the spacing of each marker are struck off a
    flag per cell, then each row's legal stretch (away from the edges) read at once:
    measuring every cell against every marker was 5% of a wh40k6 bot game."""
    width, height, edge = state.width, state.height, t.OBJECTIVE_EDGE
    free = bytearray(b"\x01") * (width * height)
    for x, y in terrain_cells(state, "impassable"):
        if 0 <= x < width and 0 <= y < height:
            free[y * width + x] = 0
    for o in state.objectives:
        for dx, dy in _spacing_disc():
            x, y = o.x + dx, o.y + dy
            if 0 <= x < width and 0 <= y < height:
                free[y * width + x] = 0
    cells = table_cells(width, height)
    out: list[Cell] = []
    for row in range(edge * width, (height - edge) * width, width):
        out += compress(
            cells[row + edge : row + width - edge], free[row + edge : row + width - edge]
        )
    return out if zone is None else [c for c in out if c in zone]


@cache
def _spacing_disc() -> tuple[tuple[int, int], ...]:
    """Offsets of the cells within `OBJECTIVE_SPACING` of a marker (as `distance` measures)."""
    r = t.OBJECTIVE_SPACING
    return tuple(
        (dx, dy)
        for dy in range(-r, r + 1)
        for dx in range(-r, r + 1)
        if distance(Cell(0, 0), Cell(dx, dy)) <= r
    )


def relic_spot(state: State) -> Cell:
    """Where The Relic is placed: the legal marker cell nearest the centre (mission 6)."""
    centre = Cell(state.width // 2, state.height // 2)
    spots = sorted(
        (c for c in legal_marker_cells(state)), key=lambda c: (distance(c, centre), c.y, c.x)
    )
    return spots[0] if spots else centre


def place_objectives(state: State, ctx: RuleContext, first: int) -> Procedure[None]:
    """Step 6 of §4.1 for the chosen mission."""
    kind = t.MISSIONS[state.mission].objectives
    if kind == "none":
        return
    if kind == "relic":
        state.relic = relic_spot(state)
        ctx.emit("ObjectivePlaced", f"The Relic is placed at {state.relic}")
        return
    plan: list[tuple[int, frozenset[Cell] | None]]
    if kind == "own_zones":
        plan = [(first, state.side(first).zone), (1 - first, state.side(1 - first).zone)]
        values = [t.OBJECTIVE_VP, t.OBJECTIVE_VP]
    else:
        count = (
            6
            if kind == "six"
            else ctx.dice.d3(player=-1, reason="number of objectives", check=TABLE) + 2
        )
        plan = [(first if n % 2 == 0 else 1 - first, None) for n in range(count)]
        values = list(t.SCOURING_VP) if kind == "six" else [t.OBJECTIVE_VP] * count
    for (player, zone), value in zip(plan, values, strict=True):
        cells = legal_marker_cells(state, zone)
        if not cells:
            ctx.emit("ObjectiveSkipped", "No legal place is left for another objective marker")
            continue
        choice = yield Decision(
            player,
            DecisionKind.PICK_CELL,
            f"Place objective marker {len(state.objectives) + 1} ({value} VP)",
            cell_options(cells, "Objective at "),
        )
        cell = parse_cell(choice.key)
        state.objectives.append(cell)
        state.objective_values.append(value)
        ctx.emit(
            "ObjectivePlaced",
            f"{says(state.side(player).name, 'places')} objective {len(state.objectives)} "
            f"at {cell} ({value} VP)",
            player=player,
        )
