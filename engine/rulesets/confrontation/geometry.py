"""Grid geometry of Confrontation: contact, freedom, sight, range and paths.

Digest confrontation §11.

Overrides of the core board where the digest differs from it:

* contact is edge (orthogonal) adjacency, never a corner (§11, Contact, PROPOSED);
* line of sight is one supercover line from centre to centre, blocked by any crossed
  BLOCKING cell, and at an exact corner only when both corner cells block (§11, LOS);
* movement is a Dijkstra over (cell, diagonal parity) with the 1-2-1 diagonal rule where
  a diagonal step is forbidden only if **both** cells beside it are obstacles (§11,
  "minimum gap = base width").

All models are 1x1 here (the §12 forces use infantry bases only).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Collection, Iterable
from functools import cache

from engine.board import Board, Cell, Terrain, distance
from engine.facing import in_front_half
from engine.rulesets.confrontation.state import CState, Fighter
from engine.wavefront import mask
from engine.wavefront import path_costs as wavefront_costs

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_STEPS = (*ORTHOGONAL, (1, 1), (1, -1), (-1, -1), (-1, 1))


def in_contact(a: Cell, b: Cell) -> bool:
    """Base contact: the cells share an edge (§11, Contact)."""
    return abs(a.x - b.x) + abs(a.y - b.y) == 1


@cache
def edge_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The four cells sharing an edge with ``cell`` (may be off the board); made once per
    cell (contact is asked for every fighter at every option list)."""
    return tuple(Cell(cell.x + dx, cell.y + dy) for dx, dy in ORTHOGONAL)


def enemies_in_contact(state: CState, fighter: Fighter) -> list[Fighter]:
    """Living enemies in base contact with ``fighter``."""
    if fighter.cell is None:
        return []
    occupied = state.occupied()
    out = []
    for cell in edge_neighbours(fighter.cell):
        other = occupied.get(cell)
        if other is not None and other.player != fighter.player:
            out.append(other)
    return out


def is_free(state: CState, fighter: Fighter) -> bool:
    """Not in contact with any enemy (§2, Free)."""
    return not enemies_in_contact(state, fighter)


def has_free_edge(state: CState, fighter: Fighter) -> bool:
    """Some edge neighbour holds no enemy; terrain and friends do not matter (§10 A4)."""
    assert fighter.cell is not None
    occupied = state.occupied()
    return any(
        (other := occupied.get(c)) is None or other.player == fighter.player
        for c in edge_neighbours(fighter.cell)
    )


def free_contact_cells(state: CState, target: Fighter) -> list[Cell]:
    """Empty standable cells in edge contact with ``target`` (§6.6, §10 A14)."""
    assert target.cell is not None
    occupied = state.occupied()
    return [
        c
        for c in edge_neighbours(target.cell)
        if c in state.board and state.board.is_standable(c) and c not in occupied
    ]


def range_gap(a: Cell, b: Cell) -> int:
    """Edge-to-edge distance in cells: the 5-10-5 distance minus one (§11)."""
    return distance(a, b) - 1


def has_line_of_sight(board: Board, a: Cell, b: Cell) -> bool:
    """Supercover line from centre to centre (§11, LOS; §10 A29: models never block)."""
    crossed, corners = supercover(a, b)
    if any(board.kind(c) is Terrain.BLOCKING for c in crossed):
        return False
    return not any(
        board.kind(c1) is Terrain.BLOCKING and board.kind(c2) is Terrain.BLOCKING
        for c1, c2 in corners
    )


def supercover(a: Cell, b: Cell) -> tuple[list[Cell], list[tuple[Cell, Cell]]]:
    """Cells strictly between ``a`` and ``b`` on the centre line, and exact corner pairs.

    The x boundary number i is crossed at t = (2i+1)/(2dx) and the y boundary j at
    (2j+1)/(2dy); comparing (2i+1)dy with (2j+1)dx keeps it exact. Equal means the line
    goes through a corner: the step is diagonal and the two cells beside it form a pair.
    """
    dx, dy = abs(b.x - a.x), abs(b.y - a.y)
    sx = 1 if b.x > a.x else -1
    sy = 1 if b.y > a.y else -1
    x, y, i, j = a.x, a.y, 0, 0
    crossed: list[Cell] = []
    corners: list[tuple[Cell, Cell]] = []
    while i < dx or j < dy:
        lhs, rhs = (2 * i + 1) * dy, (2 * j + 1) * dx
        if j == dy or (i < dx and lhs < rhs):
            x, i = x + sx, i + 1
        elif i == dx or lhs > rhs:
            y, j = y + sy, j + 1
        else:
            corners.append((Cell(x + sx, y), Cell(x, y + sy)))
            x, y, i, j = x + sx, y + sy, i + 1, j + 1
        if (x, y) != (b.x, b.y):
            crossed.append(Cell(x, y))
    return crossed, corners


def can_see(state: CState, viewer: Fighter, target: Fighter) -> bool:
    """Target in the front 180° and at least partly visible (§6.5)."""
    assert viewer.cell is not None and target.cell is not None
    return in_front_half(viewer.facing, viewer.cell, target.cell) and has_line_of_sight(
        state.board, viewer.cell, target.cell
    )


def path_costs(
    board: Board,
    sources: Iterable[Cell],
    blocked: Collection[Cell],
    budget: int | None = None,
    wanted: Collection[Cell] = (),
) -> dict[Cell, int]:
    """Cheapest 1-2-1 path cost from any source to every reachable cell (§11, Distance).

    Obstacles are the board's unstandable cells plus ``blocked`` (models in the way).
    Sources cost 0 whatever stands there (the mover's own cell). A diagonal step is
    forbidden when both cells beside it are obstacles. With ``wanted``, the search
    stops once every wanted cell at the smallest cost is settled: only the nearest
    wanted cells are then sure to be in the result.

    A pure function of its arguments, and asked the same question again and again (each
    declaration, each charge, while nothing moved): the last answers are kept. Without
    ``wanted``, a smaller budget's answer is a larger one's cells within it (each cell's
    cost is that of its cheapest path, which only passes cheaper cells), so a walk after
    a charge's reach was shown searches nothing.
    """
    starts = tuple(sources)
    wanted_key = frozenset(wanted)
    key = (board, starts, frozenset(blocked), budget if wanted_key else 0, wanted_key)
    with _LOCK:  # a game may be verified in a worker thread while another one plays
        known = _ANSWERS.pop(key, None)  # put back last: most recent last
    if known is not None and not _covers(known[0], budget):
        known = None
    if known is None:
        known = (budget, _path_costs(board, starts, blocked, budget, wanted))
    with _LOCK:
        _ANSWERS[key] = known
        while len(_ANSWERS) > _KEEP:
            del _ANSWERS[next(iter(_ANSWERS))]
    searched, costs = known
    if searched == budget or budget is None:
        return dict(costs)
    return {c: v for c, v in costs.items() if v <= budget}


def _covers(searched: int | None, budget: int | None) -> bool:
    """A search within ``searched`` answers one within ``budget`` (None: no limit)."""
    return searched is None or (budget is not None and searched >= budget)


_KEEP = 64
_LOCK = threading.Lock()
_ANSWERS: dict[tuple[object, ...], tuple[int | None, dict[Cell, int]]] = {}
"""The last `path_costs` answers with the budget searched, oldest first (boards are keys
by identity)."""


def _path_costs(
    board: Board,
    sources: Iterable[Cell],
    blocked: Collection[Cell],
    budget: int | None,
    wanted: Collection[Cell],
) -> dict[Cell, int]:
    w, h = board.width, board.height
    open_ = _open_mask(board) & ~mask(blocked, w, h)
    return wavefront_costs(
        w, open_, mask(sources, w, h), sides=open_, budget=budget, wanted=mask(wanted, w, h)
    )


_OPEN: weakref.WeakKeyDictionary[Board, int] = weakref.WeakKeyDictionary()
"""Standable cells per board as a bit set (engine.wavefront), forgotten with the board."""


def _open_mask(board: Board) -> int:
    """The board's standable cells, computed once per board."""
    found = _OPEN.get(board)
    if found is None:
        found = _OPEN[board] = mask(
            (c for c in board.cells() if board.is_standable(c)), board.width, board.height
        )
    return found


def obstacles(state: CState, mover: Fighter, through: set[str]) -> set[Cell]:
    """Cells a move may not cross: models other than the mover and its card mates (§11)."""
    return {
        c
        for c, other in state.occupied().items()
        if other.id != mover.id and other.id not in through
    }


def move_destinations(
    state: CState, mover: Fighter, budget: int, through: set[str]
) -> dict[Cell, int]:
    """Empty cells reachable within ``budget`` (the mover's own cell included at cost 0)."""
    assert mover.cell is not None
    costs = path_costs(state.board, [mover.cell], obstacles(state, mover, through), budget)
    occupied = state.occupied()
    return {c: cost for c, cost in costs.items() if c not in occupied or occupied[c].id == mover.id}


def cell_key(cell: Cell) -> str:
    """Option key of a cell ("x,y")."""
    return f"{cell.x},{cell.y}"


def parse_cell(key: str) -> Cell:
    """The cell of an option key "x,y"."""
    x, y = key.split(",")
    return Cell(int(x), int(y))
