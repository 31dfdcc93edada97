"""Where a unit may be set up: deployment, arrival from Reserve, disembarking.

Digest apocalypse §4.3 step 4a (wholly within the own deployment zone), §6.3.2 step 2
(EDGE: wholly within 6" of the own long edge, not in base contact with an enemy; DEEP and
the Ambush asset: D > 9 to every enemy unit), §6.8.2 step 2 (wholly within 6" of the
transport, not in base contact with an enemy, FILL-IN A37). Footprints never overlap
other units or impassable cells, and only INFANTRY stand in RUINS (§4.2, §11.1).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, cell_keys, new_option
from engine.footprints import Grid, Rect, clear_anchors, square, wholly_within
from engine.rulesets.apocalypse.geometry import DESERTER_NOTE, blocked_grid, enemy_halo
from engine.rulesets.apocalypse.state import ApocState, Unit

EDGE_DEPTH = 6
DEEP_DISTANCE = 9
DISEMBARK_RANGE = 6


def _bbox(cells: frozenset[Cell]) -> Rect:
    return Rect(
        min(c.x for c in cells),
        min(c.y for c in cells),
        max(c.x for c in cells),
        max(c.y for c in cells),
    )


def _free(state: ApocState, unit: Unit, within: Rect | None, avoid: Grid | None) -> list[Cell]:
    """Legal empty anchors for the unit, optionally inside a box and clear of ``avoid``."""
    return clear_anchors(_blocked_or_taken(state, unit), unit.sheet.footprint, within, avoid=avoid)


def _blocked_or_taken(state: ApocState, unit: Unit) -> Grid:
    """Cells the unit may not cover (`blocked_grid`) or other units cover, as one grid:
    a footprint is then checked in one rectangle count, not cell by cell."""
    taken = state.occupied(exclude=unit)
    if not taken:
        return blocked_grid(state, unit)
    flags = list(blocked_grid(state, unit).flags)
    for i in taken:
        flags[i] = True
    return Grid(state.cols, state.rows, flags)


def deployment_cells(state: ApocState, unit: Unit) -> list[Cell]:
    """Anchors wholly within the owner's deployment zone (§4.3 step 4a)."""
    zone = state.zones[unit.owner]
    if not zone:
        return []
    return _free(state, unit, _bbox(zone), _outside(state.cols, state.rows, zone))


@lru_cache(maxsize=8)
def _outside(cols: int, rows: int, zone: frozenset[Cell]) -> Grid:
    """The cells not in ``zone``: a footprint is wholly within it if it covers none.

    Zones are fixed for the game, so each is flagged once, not once per anchor."""
    return Grid(cols, rows, [Cell(i % cols, i // cols) not in zone for i in range(cols * rows)])


def edge_strip(state: ApocState, player: int) -> Rect:
    """Cells wholly within 6" of the player's long edge, the one his zone touches (§6.3.2)."""
    zone = state.zones[player]
    south = bool(zone) and min(c.y for c in zone) == 0
    if not zone:
        south = player == 0
    if south:
        return Rect(0, 0, state.cols - 1, EDGE_DEPTH - 1)
    return Rect(0, state.rows - EDGE_DEPTH, state.cols - 1, state.rows - 1)


def reserve_cells(state: ApocState, unit: Unit, *, deep: bool) -> list[Cell]:
    """Where a unit arriving from Reserve may be set up (§6.3.2 step 2)."""
    if deep:
        return _free(state, unit, None, enemy_halo(state, unit.owner, DEEP_DISTANCE))
    return _free(state, unit, edge_strip(state, unit.owner), enemy_halo(state, unit.owner, 1))


def disembark_cells(state: ApocState, unit: Unit, transport: Unit) -> list[Cell]:
    """Anchors wholly within 6" of the transport, not touching an enemy (§6.8.2 step 2)."""
    t = transport.rect
    r = DISEMBARK_RANGE
    box = Rect(t.x0 - r, t.y0 - r, t.x1 + r, t.y1 + r)
    size = unit.sheet.footprint
    return [
        c
        for c in _free(state, unit, box, enemy_halo(state, unit.owner, 1))
        if wholly_within(square(c, size), t, r)
    ]


def cell_options(
    cells: list[Cell], label: str, warn: Callable[[Cell], str] | None = None
) -> list[Option]:
    """One PICK_CELL option per anchor (key "x,y"); ``warn`` notes what a cell costs."""
    out = []
    for c, key in zip(cells, cell_keys(cells), strict=True):
        warning = warn(c) if warn is not None else ""
        if warning:
            text, detail = f"{label} ({key}): {warning}", DESERTER_NOTE
        else:
            text, detail = f"{label} ({key})", ""
        out.append(new_option((key, text, c, None, None, detail, False, False, False, False)))
    return out


def pick_cell(player: int, prompt: str, options: list[Option], subject: str) -> Decision:
    """A PICK_CELL Decision about a unit."""
    return Decision(player, DecisionKind.PICK_CELL, prompt, tuple(options), subject=subject)


def parse_cell(key: str) -> Cell:
    """The cell of an "x,y" option key."""
    x, y = key.split(",")
    return Cell(int(x), int(y))
