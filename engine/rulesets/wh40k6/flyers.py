"""Zooming flyers: straight-line moves, fixed speed, snap shots only (digest wh40k6).

The digest keeps flyers out of its first version (§11.7) but gives their table rows
(§6.2: 18-36", one pivot of at most 90° at the start; §6.4; §6.8.5; §6.9 flat out 24",
minimum 12") and damage effects (§6.8.14: Crew Stunned lets a zooming flyer move only
18" without turning; Immobilised gives it a fixed speed). PROPOSED grid rules: a flyer
turns at most two eighths at the start of its move, then moves straight ahead along its
facing; it may not end on another model; other models move and see past it; it can only
be hit by snap shots and cannot be charged; fixed speed means exactly 18" straight ahead.
A flyer that cannot stay on the table goes into reserve and comes back like one (§4.9).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.facing import LONG_NAMES, NAMES, VECTORS
from engine.footprints import square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.paths import Field
from engine.rulesets.wh40k6.placement import cell_key, parse_cell
from engine.rulesets.wh40k6.state import Model, State
from engine.rulesets.wh40k6.vehicles import is_stunned

FIXED_SPEED = 18
LEAVE = "leave"


def flyer_limits(state: State, flyer: Model) -> tuple[int, int, int]:
    """(minimum, maximum, pivot in eighths) of this turn's move (§6.2, §6.8.14, TC-14)."""
    row = t.MOVE_TABLE["flyer"]
    if is_stunned(state, flyer) or flyer.immobilised:
        return FIXED_SPEED, FIXED_SPEED, 0
    return row.minimum, row.move, 2


def straight_cells(anchor: Cell, facing: int, low: int, high: int) -> list[tuple[Cell, int]]:
    """Anchors reached by moving straight ahead ``low``..``high`` inches, with the cost."""
    dx, dy = VECTORS[facing % 8]
    out: list[tuple[Cell, int]] = []
    steps = 1
    while True:
        cost = steps + (steps // 2 if dx and dy else 0)
        if cost > high:
            return out
        if cost >= low:
            out.append((Cell(anchor.x + dx * steps, anchor.y + dy * steps), cost))
        steps += 1


def flyer_move(
    state: State, ctx: RuleContext, flyer: Model, low: int, high: int, pivot: int
) -> Procedure[int]:
    """Pivot, then move straight ahead; returns the inches moved (-1: left the table)."""
    assert flyer.cell is not None
    if pivot:
        turns = [(flyer.facing + d) % 8 for d in range(-pivot, pivot + 1)]
        choice = yield Decision(
            flyer.player,
            DecisionKind.PICK_OPTION,
            f"{flyer.name} may pivot up to 90° before its move: which way?",
            tuple(
                Option(
                    NAMES[f],
                    f"Face {LONG_NAMES[f]}" + (" (current)" if f == flyer.facing else ""),
                )
                for f in sorted(set(turns))
            ),
            subject=flyer.id,
        )
        flyer.facing = NAMES.index(choice.key)
    f = Field(state, flyer.player, [flyer.id], halo=False)
    size = flyer.profile.size
    ends = [
        (c, cost)
        for c, cost in straight_cells(flyer.cell, flyer.facing, low, high)
        if 0 <= c.x <= state.width - size
        and 0 <= c.y <= state.height - size
        and not f.end.any_in(square(c, size))
    ]
    options = [Option(cell_key(c), f'{c} ({cost}")', cell=c) for c, cost in ends]
    options.append(Option(LEAVE, "Fly off the table (into reserve)"))
    choice = yield Decision(
        flyer.player,
        DecisionKind.PICK_CELL,
        f"Where does {flyer.name} fly?",
        tuple(options),
        subject=flyer.id,
    )
    if choice.key == LEAVE:
        unit = state.unit_of(flyer)
        flyer.cell = None
        unit.in_reserve = True
        ctx.emit("FlyerLeft", f"{flyer.name} flies off the table into reserve", model=flyer.id)
        return -1
    target = parse_cell(choice.key)
    flyer.cell = target
    flyer.moved = True
    return dict(ends)[target]
