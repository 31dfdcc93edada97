"""The charge: an exclusive move into base contact.

Digest confrontation §6.6, §11 "Charge on the grid".

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell, distance
from engine.decisions import Decision, DecisionKind, Procedure, cell_options
from engine.facing import orthogonal_towards, towards
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.disengage import disengage
from engine.rulesets.confrontation.geometry import (
    enemies_in_contact,
    free_contact_cells,
    move_destinations,
    obstacles,
    parse_cell,
    path_costs,
)
from engine.rulesets.confrontation.state import CState, Fighter


def charge_reach(state: CState, f: Fighter, allowance: int, through: set[str]) -> dict[Cell, int]:
    """Empty cells the charger can reach within ``allowance`` (§6.6 step 3)."""
    return move_destinations(state, f, allowance, through)


def resolve_charge(
    state: CState,
    ctx: RuleContext,
    f: Fighter,
    target_id: str,
    through: set[str],
    *,
    after_disengage: bool,
) -> Procedure[None]:
    """§6.6 steps 1-7 (disengaging first for a disengage-then-charge, §6.7).

    PROPOSED: the charge counts as made even when it fails (step 1); the allowance after
    a disengagement is 1 x MOV (A1).
    """
    f.charged = True
    target = state.fighters[target_id]
    if after_disengage:
        ok = yield from disengage(state, ctx, f)
        if not ok:
            return
    if not target.on_table:
        ctx.emit("ChargeCancelled", f"{f.name}'s target is gone", model=f.id)
        return
    allowance = f.profile.mov if after_disengage else 2 * f.profile.mov
    reach = charge_reach(state, f, allowance, through)
    contacts = [c for c in free_contact_cells(state, target) if c in reach]
    assert f.cell is not None and target.cell is not None
    if contacts:
        cell = yield from _pick_cell(
            ctx, f, contacts, f"Charge: where does {f.name} contact {target.name}?"
        )
        start = f.cell
        f.cell = cell
        facing = orthogonal_towards(cell, target.cell)
        f.facing = f.facing if facing is None else facing
        ctx.emit(
            "ChargeMade",
            f"{f.name} charges {target.name}: {start} -> {cell}",
            model=f.id,
            target=target.id,
            x=cell.x,
            y=cell.y,
        )
    else:
        yield from _failed_charge(state, ctx, f, target, reach, through)
    _engage(state, ctx, f)


def _failed_charge(
    state: CState,
    ctx: RuleContext,
    f: Fighter,
    target: Fighter,
    reach: dict[Cell, int],
    through: set[str],
) -> Procedure[None]:
    """§6.6 step 5 (§11): the full allowance along a shortest path towards the target.

    The cells where the remaining path to a free contact cell is shortest, reached with
    the most of the allowance, all tie: the player picks among them (D13b). Straight
    distance only stands in when no free contact cell can be reached at all.
    """
    assert target.cell is not None and f.cell is not None
    goals = free_contact_cells(state, target)
    remaining = path_costs(state.board, goals, obstacles(state, f, through), wanted=reach)
    aim = target.cell
    by_path = any(c in remaining for c in reach)

    def left(c: Cell) -> tuple[int, int]:
        return (remaining.get(c, 1 << 20) if by_path else distance(c, aim), -reach[c])

    best = min(left(c) for c in reach)
    candidates = sorted((c for c in reach if left(c) == best), key=lambda c: (c.y, c.x))
    cell = yield from _pick_cell(
        ctx, f, candidates, f"Failed charge: where does {f.name} stop, closest to {target.name}?"
    )
    start = f.cell
    f.cell = cell
    facing = towards(cell, target.cell)
    f.facing = f.facing if facing is None else facing
    ctx.emit(
        "ChargeFailed",
        f"{f.name} charges {target.name} but falls short: "
        + (f"{start} -> {cell}" if cell != start else f"stays at {cell}"),
        model=f.id,
        target=target.id,
        x=cell.x,
        y=cell.y,
    )


def _engage(state: CState, ctx: RuleContext, f: Fighter) -> None:
    """§6.6 steps 6-7 (A14): every enemy now touching the charger is charged and engaged."""
    for e in enemies_in_contact(state, f):
        e.engaged = True
        ctx.emit("FighterEngaged", f"{e.name} is engaged by {f.name}", model=e.id, by=f.id)


def _pick_cell(ctx: RuleContext, f: Fighter, cells: list[Cell], prompt: str) -> Procedure[Cell]:
    """D13: the contact cell (or the stopping cell of a failed charge)."""
    if len(cells) == 1:
        ctx.answered(f"{f.name} goes to {cells[0]}: the only cell it can reach.", f.player)
        return cells[0]
    choice = yield Decision(
        f.player,
        DecisionKind.PICK_CELL,
        prompt,
        cell_options(cells, "cell "),
        subject=f.id,
    )
    return parse_cell(choice.key)
