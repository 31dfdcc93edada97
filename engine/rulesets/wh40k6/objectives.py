"""Objective markers: how many, who places them, where they may go (wh40k6 §4.2, §4.6).

Players alternate placing markers, the table-half winner first (D6): not within 6" of a
table edge, more than 12" from another marker, not in impassable terrain. The Emperor's
Will puts one marker in each player's own deployment zone; Crusade and Big Guns Never
Tire roll D3+2 markers; The Scouring places six worth 4, 3, 3, 2, 2 and 1 VP in
placement order (PROPOSED); The Relic sits in the table centre.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell, distance
from engine.checks import TABLE
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.placement import cell_key, parse_cell
from engine.rulesets.wh40k6.state import State


def legal_marker_cells(state: State, zone: frozenset[Cell] | None = None) -> list[Cell]:
    """Cells where the next marker may go (§4.6 restrictions)."""
    out = []
    edge = t.OBJECTIVE_EDGE  # cells nearer an edge are never legal: not visited at all
    for y in range(edge, state.height - edge):
        for x in range(edge, state.width - edge):
            c = Cell(x, y)
            if zone is not None and c not in zone:
                continue
            if state.feature(c).impassable:
                continue
            if any(distance(c, o) <= t.OBJECTIVE_SPACING for o in state.objectives):
                continue
            out.append(c)
    return out


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
            tuple(Option(cell_key(c), f"Objective at {c}", cell=c) for c in cells),
        )
        cell = parse_cell(choice.key)
        state.objectives.append(cell)
        state.objective_values.append(value)
        ctx.emit(
            "ObjectivePlaced",
            f"{state.side(player).name} places objective {len(state.objectives)} at {cell} "
            f"({value} VP)",
            player=player,
        )
