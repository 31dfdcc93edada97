"""Command range and Deserter markers (digest apocalypse §6.3.1, §6.3.2 step 4, §6.7).

A unit on the battlefield more than 12" from its Commander (or the transport carrying
it), or whose Commander is in Reserve, gets a Deserter marker in the Orders phase; the
marker goes as soon as the unit is back within 12" (or embarks, PROPOSED A7), and a unit
still carrying it in the Damage phase is destroyed (§6.12.2 step 1).
"""

from __future__ import annotations

from engine.board import Cell
from engine.footprints import Rect, rect_distance, square
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.geometry import COMMAND_RANGE, command_rect, in_command
from engine.rulesets.apocalypse.state import BATTLEFIELD, ApocState, Unit
from engine.view import RangeView
from engine.wording import agreeing, says


def needs_marker(state: ApocState, unit: Unit) -> bool:
    """Out of command: not the Commander, on the battlefield, beyond 12" (§6.3.1 2-4)."""
    return unit.on_battlefield and not unit.is_commander and not in_command(state, unit)


def place_deserters(state: ApocState, ctx: RuleContext) -> None:
    """Orders phase step (a): mark every out-of-command unit (§6.3.1)."""
    for unit in state.units.values():
        if not unit.deserter and needs_marker(state, unit):
            mark(ctx, unit)


def mark(ctx: RuleContext, unit: Unit) -> None:
    """Give the unit a Deserter marker (§6.3.1, §6.3.2 step 4)."""
    unit.deserter = True
    ctx.emit(
        "DeserterMarked",
        f"{says(unit.name, 'is')} out of command: Deserter marker",
        player=unit.owner,
        unit=unit.uid,
    )


def check_deserters(state: ApocState, ctx: RuleContext) -> None:
    """Remove the markers of units now within 12" of their Commander (§6.7)."""
    for unit in state.units.values():
        if unit.deserter and unit.location == BATTLEFIELD and in_command(state, unit):
            clear(ctx, unit, "is back within command range")


def clear(ctx: RuleContext, unit: Unit, why: str) -> None:
    """Remove the unit's Deserter marker, saying why (§6.7)."""
    unit.deserter = False
    ctx.emit(
        "DeserterCleared",
        f"{unit.name} {agreeing(unit.name, why)}: Deserter marker removed",
        player=unit.owner,
        unit=unit.uid,
    )


def command_ranges(
    state: ApocState, cache: dict[tuple[str, Rect], frozenset[Cell]]
) -> tuple[RangeView, ...]:
    """Each Commander's 12" command range, for the view (§6.3.1); ``cache`` keeps the
    cells of a Commander that has not moved."""
    out = []
    for det in state.detachments.values():
        commander = state.commander(det)
        if commander is None:
            continue
        origin = command_rect(state, commander)
        if origin is None:
            continue
        key = (commander.uid, origin)
        cells = cache.get(key)
        if cells is None:
            r = COMMAND_RANGE
            cells = cache[key] = frozenset(
                Cell(x, y)
                for x in range(max(0, origin.x0 - r), min(state.cols, origin.x1 + r + 1))
                for y in range(max(0, origin.y0 - r), min(state.rows, origin.y1 + r + 1))
                if rect_distance(square(Cell(x, y), 1), origin) <= r
            )
        members = frozenset(u for u in det.unit_ids if state.units[u].alive)
        out.append(
            RangeView(f'Command range of {commander.name} ({COMMAND_RANGE}")', members, cells)
        )
    return tuple(out)
