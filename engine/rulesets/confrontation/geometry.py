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

from engine.board import Board, Cell, Terrain, distance
from engine.facing import in_front_half
from engine.rulesets.confrontation.state import CState, Fighter

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_STEPS = (*ORTHOGONAL, (1, 1), (1, -1), (-1, -1), (-1, 1))


def in_contact(a: Cell, b: Cell) -> bool:
    """Base contact: the cells share an edge (§11, Contact)."""
    return abs(a.x - b.x) + abs(a.y - b.y) == 1


def edge_neighbours(cell: Cell) -> list[Cell]:
    """The four cells sharing an edge with ``cell`` (may be off the board)."""
    return [Cell(cell.x + dx, cell.y + dy) for dx, dy in ORTHOGONAL]


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
    declaration, each charge, while nothing moved): the last answers are kept.
    """
    starts = tuple(sources)
    key = (board, starts, frozenset(blocked), budget, frozenset(wanted))
    with _LOCK:  # a game may be verified in a worker thread while another one plays
        known = _ANSWERS.pop(key, None)  # put back last: most recent last
    if known is None:
        known = _path_costs(board, starts, blocked, budget, wanted)
    with _LOCK:
        _ANSWERS[key] = known
        while len(_ANSWERS) > _KEEP:
            del _ANSWERS[next(iter(_ANSWERS))]
    return dict(known)


_KEEP = 64
_LOCK = threading.Lock()
_ANSWERS: dict[tuple[object, ...], dict[Cell, int]] = {}
"""The last `path_costs` answers, oldest first (boards are keys by identity)."""


def _path_costs(
    board: Board,
    sources: Iterable[Cell],
    blocked: Collection[Cell],
    budget: int | None,
    wanted: Collection[Cell],
) -> dict[Cell, int]:
    width = board.width
    open_ = _open_cells(board, blocked)
    links = _grid(board)[1]
    never = 1 << 30
    seen = [never] * (2 * len(open_))
    buckets: list[list[int]] = [[]]  # Dial's queue: step costs are 1 or 2
    for src in sources:
        seen[2 * (src.y * width + src.x)] = 0
        buckets[0].append(2 * (src.y * width + src.x))
    best: dict[int, int] = {}
    targets = {c.y * width + c.x for c in wanted}
    found = never
    limit = never if budget is None else budget
    cost = 0
    while cost < len(buckets) and cost <= found:
        for state in buckets[cost]:
            if seen[state] != cost:
                continue
            here, parity = state >> 1, state & 1
            if here not in best:
                best[here] = cost
                if here in targets and found == never:
                    found = cost
            for nxt, side_a, side_b in links[here]:
                if not open_[nxt]:
                    continue
                if side_a < 0:
                    total, key = cost + 1, 2 * nxt + parity
                elif open_[side_a] or open_[side_b]:
                    total, key = cost + 1 + parity, 2 * nxt + (parity ^ 1)
                else:
                    continue
                if total > limit or seen[key] <= total:
                    continue
                seen[key] = total
                while len(buckets) <= total:
                    buckets.append([])
                buckets[total].append(key)
        cost += 1
    return {Cell(i % width, i // width): c for i, c in best.items()}


def _open_cells(board: Board, blocked: Collection[Cell]) -> list[bool]:
    """Standable cells by index, minus the ``blocked`` ones."""
    open_ = _grid(board)[0]
    if not blocked:
        return open_
    open_ = list(open_)
    for c in blocked:
        if c in board:
            open_[c.y * board.width + c.x] = False
    return open_


Link = tuple[int, int, int]
"""A step to a neighbour index, with the two side cells of a diagonal (-1 if orthogonal)."""

_LINKS: dict[tuple[int, int], list[list[Link]]] = {}
"""Neighbour links by board size (the same for every board of that size)."""

_STANDABLE: weakref.WeakKeyDictionary[Board, list[bool]] = weakref.WeakKeyDictionary()
"""Standable flags per board, forgotten with the board."""


def _grid(board: Board) -> tuple[list[bool], list[list[Link]]]:
    """Standable flags and neighbour links by cell index, computed once per board."""
    w, h = board.width, board.height
    flags = _STANDABLE.get(board)
    if flags is None:
        flags = [board.is_standable(Cell(i % w, i // w)) for i in range(w * h)]
        _STANDABLE[board] = flags
    links = _LINKS.get((w, h))
    if links is None:
        links = [_links(i, w, h) for i in range(w * h)]
        _LINKS[(w, h)] = links
    return flags, links


def _links(i: int, w: int, h: int) -> list[Link]:
    y, x = divmod(i, w)
    out: list[Link] = []
    for dx, dy in _STEPS:
        nx, ny = x + dx, y + dy
        if 0 <= nx < w and 0 <= ny < h:
            diagonal = dx != 0 and dy != 0
            out.append(
                (ny * w + nx, y * w + nx if diagonal else -1, ny * w + x if diagonal else -1)
            )
    return out


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


def touches_enemy(state: CState, player: int, cell: Cell, ignore: str = "") -> bool:
    """True if a fighter of ``player`` standing on ``cell`` would be in contact with an enemy."""
    occupied = state.occupied()
    return any(
        (other := occupied.get(c)) is not None and other.player != player and other.id != ignore
        for c in edge_neighbours(cell)
    )


def cell_key(cell: Cell) -> str:
    """Option key of a cell ("x,y")."""
    return f"{cell.x},{cell.y}"


def parse_cell(key: str) -> Cell:
    """The cell of an option key "x,y"."""
    x, y = key.split(",")
    return Cell(int(x), int(y))
