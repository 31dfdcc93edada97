"""The MOVE action and Giant Leap (digest fatigue §6.5, §6.27).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.board import Cell
from engine.decisions import DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.formation import (
    Reach,
    apply_placement,
    blocked_for,
    choose_formation,
    formed,
    is_coherent_placement,
    keep_shape,
    leap_reach,
    walk_reach,
)
from engine.rulesets.fatigue.geometry import dist, walk
from engine.rulesets.fatigue.prompts import cell_option, lead_of, parse_cell, pick
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.rulesets.fatigue.tables import COHERENCY
from engine.wording import says


def can_leap(state: FState, unit: Unit) -> bool:
    """Giant Leap X needs the special manoeuvres module (§12.4)."""
    return state.modules.special_manoeuvres and unit.spec.giant_leap > 0


def not_next_to_enemy(state: FState, unit: Unit) -> Callable[[Cell], bool]:
    """A MOVE may not end adjacent to an enemy model; engaging needs ATTACK (§6.5 step 3)."""
    near = {
        Cell(m.cell.x + dx, m.cell.y + dy)
        for m in state.enemy_models(unit.player)
        if m.cell is not None
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    }

    def allowed(cell: Cell) -> bool:
        return cell not in near

    return allowed


def move_destinations(state: FState, unit: Unit, reach: Reach) -> list[Cell]:
    """Cells the lead model may move to (§6.5 steps 2-4).

    A cell is offered when the auto-formation from it keeps the unit coherent; if no
    cell does (a unit already broken up by casualties or flight), every reachable cell
    is offered and the formation does its best (§6.31 item 3).
    """
    lead = unit.alive()[0]
    allowed = not_next_to_enemy(state, unit)
    cells = sorted((c for c in reach.get(lead.id, {}) if allowed(c)), key=lambda c: (c.y, c.x))
    if len(unit.alive()) == 1:
        return cells
    shifts = _shifts_whole(state, unit, reach, lead, allowed)
    coherent = [
        c for c in cells if shifts(c) or _coherent_from(state, unit, reach, lead, c, allowed)
    ]
    return coherent or cells


def _shifts_whole(
    state: FState, unit: Unit, reach: Reach, lead: Model, allowed: Callable[[Cell], bool]
) -> Callable[[Cell], bool]:
    """Whether the whole formation can move as it stands with the lead on a cell: the
    answer `_coherent_from` would give when it is yes, without forming the unit.

    The auto-formation puts each follower on its own cell moved as the lead moves when
    that cell is in its reach, allowed, not a later follower's present cell, and within
    coherency of a model placed before it (the lead first). Moving every cell alike keeps
    the distances, so that last test holds at every lead cell exactly when it holds for
    the formation as it stands: checked once here. Where any follower misses its cell,
    the answer is False and the caller forms the unit (the follower may still find
    another cell)."""
    assert lead.cell is not None
    followers = [m for m in unit.alive() if m.id != lead.id]
    spots = [lead.cell]
    for model in followers:
        assert model.cell is not None
        if all(dist(state, model.cell, spot) > COHERENCY for spot in spots):
            return lambda cell: False
        spots.append(model.cell)
    x0, y0 = lead.cell
    steps = [
        (m.cell.x, m.cell.y, reach.get(m.id, {}), {f.cell for f in followers[i + 1 :]})
        for i, m in enumerate(followers)
        if m.cell is not None
    ]

    def shifts(cell: Cell) -> bool:
        dx, dy = cell.x - x0, cell.y - y0
        for x, y, cells, later in steps:
            ideal = Cell(x + dx, y + dy)
            if ideal not in cells or ideal in later or not allowed(ideal):
                return False
        return True

    return shifts


def _coherent_from(
    state: FState,
    unit: Unit,
    reach: Reach,
    lead: Model,
    cell: Cell,
    allowed: Callable[[Cell], bool],
) -> bool:
    """The auto-formation with the lead on ``cell`` keeps the unit coherent (§6.31)."""
    placement, linked = formed(
        state, unit, reach, lead, cell, keep_shape(state, lead, cell), allowed
    )
    return linked or is_coherent_placement(state, placement)


def can_move(state: FState, unit: Unit) -> bool:
    """MOVE is legal: not engaged and the lead has somewhere to stand (§6.5 step 1)."""
    if unit.engaged or not unit.alive():
        return False
    lead = unit.alive()[0]
    assert lead.cell is not None
    x, y = lead.cell
    if can_leap(state, unit) or not any(
        m.cell is not None and abs(m.cell.x - x) <= 1 and abs(m.cell.y - y) <= 1
        for m in state.enemy_models(unit.player)
    ):
        return True  # the lead may at least stay where it is (`not_next_to_enemy`)
    allowed = not_next_to_enemy(state, unit)
    reach = walk(state, lead.cell, lead.profile.mobility, blocked_for(state, unit))
    return any(allowed(c) for c in reach)


def move_action(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """MOVE (FILL-IN, §6.5): walk or leap, keep coherency, turn, lose aim and camouflage."""
    leaping = False
    if can_leap(state, unit):
        key = yield from pick(
            unit.player,
            DecisionKind.PICK_OPTION,
            f"Move {unit.name}: walk or leap?",
            [
                Option("walk", "Walk (Mobility)"),
                Option("leap", f"Giant Leap {unit.spec.giant_leap}"),
            ],
            subject=lead_of(unit),
        )
        leaping = key == "leap"
    if leaping:
        reach = leap_reach(state, unit)
    else:
        reach = walk_reach(state, unit, lambda m: m.profile.mobility)
    cells = move_destinations(state, unit, reach)
    lead = unit.alive()[0]
    if not cells:
        ctx.emit("MoveBlocked", f"{says(unit.name, 'has')} nowhere to move", unit=unit.id)
        return
    key = yield from pick(
        unit.player,
        DecisionKind.PICK_CELL,
        f"Move {unit.name}: where does {lead.name} go?",
        [cell_option(c) for c in cells],
        subject=lead.id,
    )
    dest = parse_cell(key)
    allowed = not_next_to_enemy(state, unit)
    placement = yield from choose_formation(
        state, unit, reach, lead, dest, keep_shape(state, lead, dest), allowed, "Move"
    )
    apply_placement(state, ctx, unit, placement, "leaps" if leaping else "moves")
    unit.moved = True
    unit.aim = 0  # PROPOSED: Aim is lost on MOVE (§10 #9)
    reveal(ctx, unit)


def reveal(ctx: RuleContext, unit: Unit) -> None:
    """A camouflaged unit that moves, attacks or shoots is revealed (FILL-IN, §6.30 item 3)."""
    if unit.camouflaged:
        unit.camouflaged = False
        ctx.emit("UnitRevealed", f"{says(unit.name, 'is')} no longer camouflaged", unit=unit.id)
