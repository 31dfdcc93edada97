"""Steps, paths, leaps and sight on the grid (digest fatigue §11, §6.27).

1 cell = 1 step. Distance is the "1-2-1" rule (or Chebyshev under METRIC = chebyshev);
adjacency is Chebyshev 1. Terrain comes from the core Board: open and difficult ground
are walkable, COVER and IMPASSABLE cells are low obstacles (impassable on foot, clear
sight, cover), BLOCKING cells are walls (§4.2).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache

from engine.board import Board, Cell, Terrain
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import LOW_OBSTACLE_HEIGHT, WALL_HEIGHT
from engine.units import group_distance
from engine.wavefront import climb_masks, mask, path_costs

DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""Unit vectors of the 8 facings, in eighths of a turn from north (+y), clockwise."""


def dist(state: FState, a: Cell, b: Cell) -> int:
    """Steps between two cells (§11.1): 1-2-1 diagonals, or Chebyshev by switch."""
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    if state.modules.chebyshev:
        return max(dx, dy)
    return max(dx, dy) + min(dx, dy) // 2


def adjacent(a: Cell, b: Cell) -> bool:
    """Base contact / within 1 step: Chebyshev distance 1 (§6.2)."""
    return a != b and abs(a.x - b.x) <= 1 and abs(a.y - b.y) <= 1


def unit_dist(state: FState, a: Unit, b: Unit) -> int:
    """Shortest distance between any two models of the units (§6.2); large if absent."""
    d = group_distance(a.cells(), b.cells(), lambda p, q: dist(state, p, q))
    return 1 << 20 if d is None else d


def nearest(state: FState, cell: Cell, others: Iterable[Cell]) -> int:
    """Distance from ``cell`` to the nearest of ``others`` (large if none)."""
    return min((dist(state, cell, o) for o in others), default=1 << 20)


def _terrain(state: FState) -> dict[tuple[int, int], tuple[bool, bool]]:
    """Cell -> (walkable, difficult), computed once per game (hot in path-finding)."""
    if not state.terrain:
        board = state.board
        for cell in board.cells():
            kind = board.kind(cell)
            state.terrain[cell] = (
                kind in (Terrain.OPEN, Terrain.DIFFICULT),
                kind is Terrain.DIFFICULT,
            )
            state.heights[cell] = _height(state, cell)
    return state.terrain


def is_walkable(state: FState, cell: Cell) -> bool:
    """On the board and open or difficult ground (§4.2)."""
    return _terrain(state).get(cell, (False, False))[0]


def is_obstacle(state: FState, cell: Cell) -> bool:
    """A low obstacle or a wall: no model may stand or walk there."""
    return cell in state.board and not is_walkable(state, cell)


def is_wall(state: FState, cell: Cell) -> bool:
    return cell in state.board and state.board.kind(cell) is Terrain.BLOCKING


def is_difficult(state: FState, cell: Cell) -> bool:
    return _terrain(state).get(cell, (False, False))[1]


def is_low_obstacle(state: FState, cell: Cell) -> bool:
    return cell in state.board and state.board.kind(cell) in (Terrain.COVER, Terrain.IMPASSABLE)


def height(state: FState, cell: Cell) -> int:
    """Height of a cell (§11.4): obstacles have their own; ground only with ELEVATION."""
    _terrain(state)
    return state.heights.get(cell, 0)


def _height(state: FState, cell: Cell) -> int:
    z = state.board.z(cell)
    if is_wall(state, cell):
        return z or WALL_HEIGHT
    if is_low_obstacle(state, cell):
        return z or LOW_OBSTACLE_HEIGHT
    return z if state.modules.elevation else 0


def walk(
    state: FState, start: Cell, budget: int, blocked: AbstractSet[Cell] = frozenset()
) -> dict[Cell, int]:
    """Cells reachable on foot with path cost <= ``budget`` (§11.1), with their cost.

    Dijkstra over (cell, diagonal parity): orthogonal steps cost 1, diagonal steps
    1, 2, 1, 2 (1 under Chebyshev); entering difficult ground doubles the step; no
    diagonal between two blocked orthogonal cells; with ELEVATION a step may climb or
    drop at most 1. ``blocked`` holds the occupied cells that may not be entered (the
    caller decides whose models block).
    """
    board = state.board
    w, h = board.width, board.height
    walkable, difficult, climbs = _masks(state)
    return path_costs(
        w,
        walkable & ~mask(blocked, w, h),
        mask((start,), w, h),
        sides=walkable,
        budget=budget,
        difficult=difficult,
        climbs=climbs,
        chebyshev=state.modules.chebyshev,
    )


Masks = tuple[int, int, tuple[int, ...] | None]
_MASKS: weakref.WeakKeyDictionary[Board, dict[bool, Masks]] = weakref.WeakKeyDictionary()
"""Per board (and ELEVATION switch): walkable and difficult cells as bit sets
(engine.wavefront), and with ELEVATION the cells each step direction may leave."""


def _masks(state: FState) -> Masks:
    """`_terrain` as bit sets for `walk`, built once per board: a step may not climb or
    drop more than 1 with ELEVATION (§11.1)."""
    board = state.board
    per = _MASKS.setdefault(board, {})
    found = per.get(state.modules.elevation)
    if found is None:
        terrain = _terrain(state)
        w, h = board.width, board.height
        cells = list(board.cells())
        walkable = mask((c for c in cells if terrain[c][0]), w, h)
        difficult = mask((c for c in cells if terrain[c][1]), w, h)
        climbs = climb_masks(state.heights, w, h) if state.modules.elevation else None
        found = per[state.modules.elevation] = (walkable, difficult, climbs)
    return found


def line_cells(state: FState, a: Cell, b: Cell) -> frozenset[Cell]:
    """Cells the centre-to-centre segment touches, ends excluded (supercover, §11.3)."""
    return state.board.segment(a, b, 0)


def leap(
    state: FState, start: Cell, reach: int, blocked: AbstractSet[Cell] = frozenset()
) -> dict[Cell, int]:
    """Landing cells of a Giant Leap X (SEED + PROPOSED, §6.27), with their distance.

    Any free walkable cell within ``dist <= X`` whose straight line crosses no cell
    higher than X; models on the line are ignored and difficult ground costs nothing.
    """
    out: dict[Cell, int] = {start: 0}
    for y in range(start.y - reach, start.y + reach + 1):
        for x in range(start.x - reach, start.x + reach + 1):
            cell = Cell(x, y)
            d = dist(state, start, cell)
            if cell == start or d > reach or not is_walkable(state, cell) or cell in blocked:
                continue
            if all(height(state, c) <= reach for c in line_cells(state, start, cell)):
                out[cell] = d
    return out


def has_los(state: FState, a: Cell, b: Cell) -> bool:
    """Line of sight: no wall between the cells' centres; models never block (§11.3)."""
    return _clear(state.board, a, b)


@lru_cache(maxsize=16384)
def _clear(board: Board, a: Cell, b: Cell) -> bool:
    """`has_los` of the board alone (walls never move): asked for every shooter and
    target at every activation, traced once per pair."""
    return not any(c in board and board.kind(c) is Terrain.BLOCKING for c in board.segment(a, b, 0))


def is_covered(state: FState, shooters: list[Cell], target: Cell) -> bool:
    """A target model is in cover (FILL-IN, §11.3).

    It stands in difficult ground, or every visible line to it crosses a low obstacle
    or difficult ground (PROPOSED reading of "have an intermediate LoS cell").
    """
    if is_difficult(state, target):
        return True
    lines = [line_cells(state, s, target) for s in shooters if has_los(state, s, target)]
    return bool(lines) and all(
        any(is_low_obstacle(state, c) or is_difficult(state, c) for c in line) for line in lines
    )


def facing_of(dx: int, dy: int) -> int | None:
    """The 8-way facing nearest to a vector (PROPOSED §3.3 facing, §6.5 step 6)."""
    if dx == 0 and dy == 0:
        return None
    ax, ay = abs(dx), abs(dy)
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if (ay + ax) ** 2 < 2 * ax * ax:  # within 22.5 degrees of the x axis
        sy = 0
    elif (ax + ay) ** 2 < 2 * ay * ay:  # within 22.5 degrees of the y axis
        sx = 0
    return DIRECTIONS.index((sx, sy))


def step_toward(cell: Cell, facing: int) -> Cell:
    """The neighbour of ``cell`` in the direction of ``facing``."""
    dx, dy = DIRECTIONS[facing]
    return Cell(cell.x + dx, cell.y + dy)
