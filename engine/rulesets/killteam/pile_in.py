"""Pile In and Consolidate: the 3" moves around a fight (digest killteam §6.6.2, §11.6).

Both moves share one rule on the grid: measured against the enemy model that was nearest
when the move began, the model must end closer to it, or (if it started within 1" of it)
end within 1" of it again; staying put is always allowed. Must not import tui.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.grid_paths import Reach
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import enemies
from engine.rulesets.killteam.moves import SAFE_DROP, falling_check
from engine.rulesets.killteam.state import KTState, Model

CLOSE_IN = 3
"""Inches a model may move when it piles in or consolidates (§11.5)."""


def close_in_cells(state: KTState, model: Model) -> dict[Cell, Reach]:
    """Where a Pile In or Consolidate may end, start included (§11.6).

    The rule measures against E, the nearest enemy at the start; when several enemies are
    equally near the player chooses E (§11.6). Choosing E only changes which cells are
    legal, so a cell is offered when it is legal for any of the tied enemies: picking the
    cell is picking E, and no separate Decision is needed.
    """
    assert model.cell is not None
    start = model.cell
    board = state.board
    foes = [e.cell for e in enemies(state, model) if e.cell is not None]
    legal: dict[Cell, Reach] = {start: Reach(0)}
    if not foes:
        return legal
    near = min(board.range_to(start, f) for f in foes)
    nearest = [f for f in foes if board.range_to(start, f) == near]
    occupied = state.occupied()
    fly = model.is_fly

    def can_enter(cell: Cell) -> bool:
        # The path may pass next to enemies (§11.6) but not through them or walls (FLY may).
        if fly:
            return True
        other = occupied.get(cell)
        return board.is_standable(cell) and (other is None or other.player == model.player)

    for cell, reach in board.reachable(start, CLOSE_IN, can_enter=can_enter, fly=fly).items():
        if cell in occupied or not board.is_standable(cell):
            continue
        if any(_closes_on(state, start, cell, foe) for foe in nearest):
            legal[cell] = reach
    return legal


def _closes_on(state: KTState, start: Cell, end: Cell, foe: Cell) -> bool:
    """Ends closer to ``foe``, or started and ended within 1" of it (§11.6)."""
    board = state.board
    if board.range_to(end, foe) < board.range_to(start, foe):
        return True
    return board.is_adjacent(start, foe) and board.is_adjacent(end, foe)


def close_in(state: KTState, ctx: RuleContext, model: Model, what: str) -> Procedure[None]:
    """Ask where the model piles in or consolidates and move it (§6.6.2 steps 1 and 8).

    ``what`` is "Pile In" or "Consolidate". When staying is the only legal end, nothing
    is asked.
    """
    assert model.cell is not None
    legal = close_in_cells(state, model)
    if len(legal) == 1:
        ctx.answered(f"{what}: {model.name} stays where it is (no other legal cell).", model.player)
        return
    start = model.cell
    options = [Option(f"{start.x},{start.y}", f"Stay at {start}", cell=start)]
    options += [
        Option(f"{c.x},{c.y}", f'{c} ({r.cost}")', cell=c)
        for c, r in sorted(legal.items(), key=lambda item: (item[0].y, item[0].x))
        if c != start
    ]
    choice = yield Decision(
        model.player,
        DecisionKind.PICK_CELL,
        f'{what}: where does {model.name} move (up to {CLOSE_IN}")?',
        tuple(options),
        subject=model.id,
    )
    x, y = (int(v) for v in choice.key.split(","))
    end = Cell(x, y)
    if end == start:
        return
    model.cell = end
    ctx.emit(
        "ModelMoved", f"{model.name} moves {start} -> {end} ({what})", model=model.id, x=x, y=y
    )
    if legal[end].drop > SAFE_DROP and not model.is_fly:
        yield from falling_check(state, ctx, model, legal[end].drop)
