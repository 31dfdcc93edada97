"""The Move action (digest apocalypse §6.6, §11.3, §10 A13-A17, A41).

A unit moves its whole footprint up to its allowance (M, or 2M under Assault, +3" with
Forced March). In base contact it must Stay, Fall Back (end more than 1" from every
enemy) or Pile In (3", end touching an enemy it touched at the start). AIRCRAFT with a
minimum move must cover it or be destroyed. A unit may embark at the end of a Normal
move or Fall Back, or instead of moving when not engaged.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Option, Procedure, new_option
from engine.footprints import Grid, Rect, in_contact, square
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.command import check_deserters
from engine.rulesets.apocalypse.destruction import destroy_unit
from engine.rulesets.apocalypse.geometry import (
    DESERTER_NOTE,
    blocked_grid,
    command_warnings,
    contacts,
    enemy_halo,
)
from engine.rulesets.apocalypse.placement import parse_cell, pick_cell
from engine.rulesets.apocalypse.state import BATTLEFIELD, EMBARKED, ApocState, Unit
from engine.rulesets.apocalypse.transports import disembark_move, offer_embark
from engine.token_reach import token_reach
from engine.wording import agreeing, says

PILE_IN = 3


def reach(state: ApocState, unit: Unit, budget: int) -> dict[Cell, int]:
    """Anchors the unit can reach spending at most ``budget`` inches (§11.3)."""
    assert unit.anchor is not None
    return token_reach(
        unit.anchor,
        unit.sheet.footprint,
        budget,
        blocked_grid(state, unit),
        state.terrain.climb,
        occupied=state.occupied(exclude=unit),
        fly="FLY" in unit.sheet.keywords,
    )


def move_action(state: ApocState, ctx: RuleContext, unit: Unit, allowance: int) -> Procedure[None]:
    """One unit's Move action in step 1 (§6.6 steps 1-9)."""
    if unit.location == EMBARKED:
        yield from disembark_move(state, ctx, unit)
        return
    unit.move_done = True
    engaged = contacts(state, unit)
    if engaged and "AIRCRAFT" not in unit.sheet.keywords:
        yield from _engaged_move(state, ctx, unit, allowance, engaged)
        return
    yield from _normal_move(state, ctx, unit, allowance)


def _normal_move(state: ApocState, ctx: RuleContext, unit: Unit, allowance: int) -> Procedure[None]:
    """Move up to the allowance, or stay; then maybe embark (§6.6 steps 3-5, 7)."""
    assert unit.anchor is not None
    start = unit.anchor
    cells = reach(state, unit, allowance)
    minimum = unit.sheet.min_move
    options = [] if minimum else [Option("stay", "Stay where it is")]
    warn = command_warnings(state, unit)
    size = unit.sheet.footprint
    foes = _foe_cells(state, unit)
    for cell, cost in sorted(cells.items(), key=lambda kv: (kv[0].y, kv[0].x)):
        if cell != start and (minimum is None or cost >= minimum):
            x, y = cell
            key = f"{x},{y}"
            label = f'Move to ({key}) ({cost}")'
            warning = warn(cell)
            if foes.count(x - 1, y - 1, x + size, y + size):
                contact = _contact_note(state, unit, square(cell, size))
                notes = [n for n in (contact, warning) if n]
                if notes:
                    label += f": {'; '.join(notes)}"
            elif warning:
                label += f": {warning}"
            detail = DESERTER_NOTE if warning else ""
            options.append(
                new_option((key, label, cell, None, None, detail, False, False, False, False))
            )
    if not options:
        yield from destroy_unit(state, ctx, unit, "cannot make its minimum move")
        return
    choice = yield pick_cell(
        unit.owner, f'{unit.name}: move where? (up to {allowance}")', options, unit.uid
    )
    if choice.key != "stay":
        _relocate(state, ctx, unit, parse_cell(choice.key), "moves", cells)
        check_deserters(state, ctx)
    yield from offer_embark(state, ctx, unit)


def _foe_cells(state: ApocState, unit: Unit) -> Grid:
    """Cells the unit's enemies cover: a footprint with none of them in the ring around it
    touches no enemy, which most of a move's cells are, so their note is "" at once."""
    cols, rows = state.cols, state.rows
    flags = [False] * (cols * rows)
    for i, other in state.index.items():
        if other.owner != unit.owner:
            flags[i] = True
    return Grid(cols, rows, flags)


def _contact_note(state: ApocState, unit: Unit, rect: Rect) -> str:
    """ "base contact with Legion Captain": a move that ends there may fight (§6.10)."""
    foes = [u.name for u in state.around(rect) if u.owner != unit.owner]
    return f"base contact with {', '.join(foes)}" if foes else ""


def _engaged_move(
    state: ApocState, ctx: RuleContext, unit: Unit, allowance: int, engaged: list[Unit]
) -> Procedure[None]:
    """Stay, Fall Back or Pile In (§6.6 step 2, A15-A17)."""
    assert unit.anchor is not None
    start = unit.anchor
    size = unit.sheet.footprint
    away = enemy_halo(state, unit.owner, 1)
    k = size - 1
    back = reach(state, unit, allowance)
    fall = {c: v for c, v in back.items() if not away.count(c.x, c.y, c.x + k, c.y + k)}
    near = reach(state, unit, PILE_IN)
    pile = {
        c: v
        for c, v in near.items()
        if c != start and any(in_contact(square(c, size), e.rect) for e in engaged)
    }
    options = [Option("stay", "Stay in base contact")]
    options += [
        Option(f"{c.x},{c.y}", f'Fall Back to {c} ({v}")', cell=c, detail="No shooting or fighting")
        for c, v in sorted(fall.items(), key=lambda kv: (kv[0].y, kv[0].x))
    ]
    options += [
        Option(f"{c.x},{c.y}", f'Pile In to {c} ({v}")', cell=c)
        for c, v in sorted(pile.items(), key=lambda kv: (kv[0].y, kv[0].x))
    ]
    choice = yield pick_cell(
        unit.owner,
        f"{says(unit.name, 'is')} in base contact: stay, fall back or pile in?",
        options,
        unit.uid,
    )
    if choice.key == "stay":
        return
    cell = parse_cell(choice.key)
    if cell in fall:
        unit.fell_back = True
        _relocate(state, ctx, unit, cell, "falls back", fall)
        check_deserters(state, ctx)
        yield from offer_embark(state, ctx, unit)
        return
    _relocate(state, ctx, unit, cell, "piles in", pile)
    check_deserters(state, ctx)


def _relocate(
    state: ApocState, ctx: RuleContext, unit: Unit, cell: Cell, verb: str, costs: dict[Cell, int]
) -> None:
    state.put(unit, BATTLEFIELD, cell)
    unit.moved = True
    ctx.emit(
        "UnitMoved",
        f'{unit.name} {agreeing(unit.name, verb)} to {cell} ({costs[cell]}")',
        player=unit.owner,
        unit=unit.uid,
        x=cell.x,
        y=cell.y,
    )
