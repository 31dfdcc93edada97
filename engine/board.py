"""The battlefield: a square grid of terrain, with distance, movement and line of sight.

Written once here so every ruleset measures the same way; the geometry follows the grid
adaptation of the Kill Team digest (killteam §11), which the other digests reuse or
override. All arithmetic is on integers: line-of-sight segments are traced on a grid ten
times finer than the cells, so no float rounding can make two machines disagree.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Container, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from engine.grid_segments import segment_cells, segment_spans


class Cell(NamedTuple):
    """A square of the battlefield; 1 cell = 1 inch."""

    x: int
    """Column, 0 at the west edge."""
    y: int
    """Row, 0 at the south edge."""

    def __str__(self) -> str:
        return f"({self.x},{self.y})"


class Terrain(enum.Enum):
    """What a cell is made of; rulesets decide what each kind does to them."""

    OPEN = "open"
    """Nothing in the way."""
    COVER = "cover"
    """Low obstacles (barricades, crates, ruin floors): passable, gives cover."""
    BLOCKING = "blocking"
    """Walls: block movement and line of sight."""
    DIFFICULT = "difficult"
    """Rubble, woods, water: passable at a cost the ruleset sets."""
    IMPASSABLE = "impassable"
    """Chasms, deep water: block movement but not line of sight."""


@dataclass(frozen=True, slots=True)
class Objective:
    """A named objective marker on a cell."""

    name: str
    cell: Cell


def distance(a: Cell, b: Cell, za: int = 0, zb: int = 0) -> int:
    """Inches between two cells, "5-10-5" diagonals, with height (killteam §11.2)."""
    dx = abs(a.x - b.x)
    dy = abs(a.y - b.y)
    p = max(dx, dy) + min(dx, dy) // 2
    if za == zb:
        return p
    v = abs(za - zb)
    return max(p, v) + min(p, v) // 2


def neighbours8(cell: Cell) -> Iterator[Cell]:
    """The eight cells around ``cell`` (may be off the board)."""
    x, y = cell
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx or dy:
                yield Cell(x + dx, y + dy)


# Sample points of a cell on the 10x grid: the centre and four inset corners (§11.4).
_SAMPLES = ((5, 5), (2, 2), (2, 8), (8, 2), (8, 8))


@dataclass(frozen=True, slots=True)
class Reach:
    """How a cell can be reached by a move."""

    cost: int
    """Inches of movement spent."""
    drop: int = 0
    """Height of the largest jump down on the way that needs a falling check (0: none)."""


@dataclass(eq=False)
class Board:
    """A width x height grid of terrain and heights, with cached sight lines."""

    width: int
    height: int
    terrain: tuple[tuple[Terrain, ...], ...]
    """``terrain[y][x]``."""
    elevation: tuple[tuple[int, ...], ...]
    """``elevation[y][x]``: height of the cell's floor in inches."""
    objectives: tuple[Objective, ...] = ()
    _segments: dict[tuple[Cell, Cell], list[frozenset[Cell] | None]] = field(
        default_factory=dict, repr=False
    )
    _sight: dict[tuple[Cell, Cell], bool] = field(default_factory=dict, repr=False)
    _reached: dict[Hashable, dict[Cell, Reach]] = field(default_factory=dict, repr=False)
    """The last `reachable` answers asked with a ``key``, oldest first."""

    def __post_init__(self) -> None:
        # Flat row-major copies for the hot loops (pathfinding, sight lines).
        w = self.width
        self._kinds = [k for row in self.terrain for k in row]
        self._zs = [z for row in self.elevation for z in row]
        self._blocking = [k is Terrain.BLOCKING for k in self._kinds]
        self._unflagged = [False] * len(self._kinds)
        self._standable = [k not in (Terrain.BLOCKING, Terrain.IMPASSABLE) for k in self._kinds]
        self._standable_rows = tuple(
            tuple(k not in (Terrain.BLOCKING, Terrain.IMPASSABLE) for k in row)
            for row in self.terrain
        )
        # 2D prefix sums of walls: "is there any wall in this rectangle?" in O(1).
        walls = [[0] * (w + 1) for _ in range(self.height + 1)]
        for y in range(self.height):
            acc = 0
            for x in range(w):
                acc += self._blocking[y * w + x]
                walls[y + 1][x + 1] = walls[y][x + 1] + acc
        self._walls = walls
        self._cell_list = [Cell(i % w, i // w) for i in range(w * self.height)]
        self._links_walk: list[tuple[tuple[int, int, int, int], ...]] | None = None
        self._links_fly: list[tuple[tuple[int, int, int, int], ...]] | None = None
        # A search's "may a step enter this cell?" before it asks: on foot walls and
        # impassable ground are refused without asking.
        self._unasked_walk: tuple[bool | None, ...] = tuple(
            None if s else False for s in self._standable
        )
        self._has_drops: bool | None = None
        self._unasked_fly: tuple[bool | None, ...] = (None,) * len(self._kinds)

    def __contains__(self, cell: object) -> bool:
        return (
            isinstance(cell, tuple)
            and len(cell) == 2
            and 0 <= cell[0] < self.width
            and 0 <= cell[1] < self.height
        )

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row from the south."""
        for y in range(self.height):
            for x in range(self.width):
                yield Cell(x, y)

    def kind(self, cell: Cell) -> Terrain:
        """The terrain of a cell on the board."""
        return self.terrain[cell.y][cell.x]

    def z(self, cell: Cell) -> int:
        """Floor height of a cell, in inches."""
        return self.elevation[cell.y][cell.x]

    def is_standable(self, cell: Cell) -> bool:
        """A model may end a move here (not a wall, not impassable ground)."""
        return self._standable_rows[cell[1]][cell[0]]

    def is_low_cover(self, cell: Cell) -> bool:
        """A cover cell at ground level (barricade, crates)."""
        return self.kind(cell) is Terrain.COVER and self.z(cell) == 0

    def range_to(self, a: Cell, b: Cell) -> int:
        """Distance in inches, floors' heights included."""
        floors = self.elevation
        return distance(a, b, floors[a[1]][a[0]], floors[b[1]][b[0]])

    def is_adjacent(self, a: Cell, b: Cell) -> bool:
        """Base contact: 8-neighbours whose floors differ by at most 1" (killteam §11.2).

        The floors read in place (not through `z`): rulesets ask it of every pair of
        models near each other, a hundred thousand times a game."""
        ax, ay = a
        bx, by = b
        if a == b or not (-1 <= ax - bx <= 1 and -1 <= ay - by <= 1):
            return False
        floors = self.elevation
        return -1 <= floors[ay][ax] - floors[by][bx] <= 1

    # -- line of sight ---------------------------------------------------------------

    def segment(self, a: Cell, b: Cell, k: int) -> frozenset[Cell]:
        """Cells crossed by segment ``k`` (0..24) from ``a`` to ``b``, end cells excluded.

        Segment ``5*i + j`` joins sample point ``i`` of ``a`` to sample ``j`` of ``b``.
        Traced lazily and cached: most sight checks stop at the first clear segment.
        """
        cached = self._segments.get((a, b))
        if cached is None:
            cached = self._segments[(a, b)] = [None] * 25
        seg = cached[k]
        if seg is None:
            (sx, sy), (tx, ty) = _SAMPLES[k // 5], _SAMPLES[k % 5]
            w = self.width
            traced = segment_cells(10 * a.x + sx, 10 * a.y + sy, 10 * b.x + tx, 10 * b.y + ty, w)
            traced.discard(a.y * w + a.x)
            traced.discard(b.y * w + b.x)
            cells = self._cell_list
            seg = cached[k] = frozenset(cells[i] for i in traced)
        return seg

    def segments(self, a: Cell, b: Cell) -> tuple[frozenset[Cell], ...]:
        """All 25 sample-point segments from ``a`` to ``b`` (see `segment`)."""
        return tuple(self.segment(a, b, k) for k in range(25))

    def _walls_between(self, a: Cell, b: Cell) -> bool:
        x0, x1 = min(a.x, b.x), max(a.x, b.x) + 1
        y0, y1 = min(a.y, b.y), max(a.y, b.y) + 1
        w = self._walls
        return w[y1][x1] - w[y0][x1] - w[y1][x0] + w[y0][x0] > 0

    def has_line_of_sight(
        self, a: Cell, b: Cell, blocks: Callable[[Cell], bool] | None = None
    ) -> bool:
        """True if some sample segment from ``a`` to ``b`` crosses no blocking cell.

        ``blocks`` decides what blocks; by default only BLOCKING terrain (walls) does,
        and that answer is cached (walls never move).
        """
        if blocks is None:
            key = (a, b)
            seen = self._sight.get(key)
            if seen is None:
                seen = not self._walls_between(a, b) or any(
                    not self._wall_on(a, b, k) for k in range(25)
                )
                self._sight[key] = self._sight[(b, a)] = seen
            return seen
        return self._any_clear(a, b, blocks)

    def _wall_on(self, a: Cell, b: Cell, k: int) -> bool:
        """Segment ``k`` from ``a`` to ``b`` crosses a wall (not on an end): `segment`
        without building its cells, each column's run of cells counted at once from the
        walls' prefix sums (a blocked pair traces all 25 segments) and the ends taken off."""
        w, blocking, width = self._walls, self._blocking, self.width
        ends = {a, b}
        ax, ay = a
        for rx, rfirst, rlast in _spans(b.x - ax, b.y - ay, k):
            cx, first, last = rx + ax, rfirst + ay, rlast + ay
            top, bottom = w[last + 1], w[first]
            n = top[cx + 1] - bottom[cx + 1] - top[cx] + bottom[cx]
            if n:
                for x, y in ends:
                    n -= x == cx and first <= y <= last and blocking[y * width + x]
                if n > 0:
                    return True
        return False

    def _cut(
        self,
        a: Cell,
        b: Cell,
        k: int,
        flags: Sequence[bool],
        skip: Container[int],
        extra: Container[int],
    ) -> bool:
        """Segment ``k`` crosses a cell flagged (by index) and not skipped, or an extra one."""
        w = self.width
        ends = (a.y * w + a.x, b.y * w + b.x)
        ax, ay = a
        for rx, first, last in _spans(b.x - ax, b.y - ay, k):
            cx = rx + ax
            for cy in range(first + ay, last + ay + 1):
                i = cy * w + cx
                if ((flags[i] and i not in skip) or i in extra) and i not in ends:
                    return True
        return False

    def clear_view_of(
        self,
        a: Cell,
        b: Cell,
        flags: Sequence[bool],
        *,
        skip: Container[int] = (),
        extra: Container[int] = (),
    ) -> bool:
        """`has_clear_view` where the cells that block are ``flags`` by index
        (``y * width + x``) but those in ``skip``, and those in ``extra``: the segments
        are traced without building them, each stopping at its first blocking cell."""
        for i in range(5):
            if not any(self._cut(a, b, 5 * i + j, flags, skip, extra) for j in range(5)):
                return True
        return False

    def segment_meets(self, a: Cell, b: Cell, k: int, cells: Container[int]) -> bool:
        """Segment ``k`` from ``a`` to ``b`` (`segment`) crosses one of ``cells`` (indexes
        ``y * width + x``): traced without building its cells, stopping at the first."""
        return self._cut(a, b, k, self._unflagged, (), cells)

    def _any_clear(self, a: Cell, b: Cell, blocks: Callable[[Cell], bool]) -> bool:
        return any(not any(blocks(c) for c in self.segment(a, b, k)) for k in range(25))

    def is_blocking(self, cell: Cell) -> bool:
        """Walls block sight."""
        return self._blocking[cell.y * self.width + cell.x]

    def has_clear_view(self, a: Cell, b: Cell, blocks: Callable[[Cell], bool]) -> bool:
        """True if from one sample point of ``a`` all five segments to ``b`` are clear.

        This is the "can see all of the target" test behind killteam §11.4's Obscured.
        """
        for i in range(5):
            if all(not any(blocks(c) for c in self.segment(a, b, 5 * i + j)) for j in range(5)):
                return True
        return False

    # -- movement --------------------------------------------------------------------

    def reachable(
        self,
        start: Cell,
        budget: int,
        *,
        can_enter: Callable[[Cell], bool],
        fly: bool = False,
        extra_cost: Callable[[Cell], int] | None = None,
        climb_down: bool = False,
        key: Hashable = None,
    ) -> dict[Cell, Reach]:
        """Cells a model can move to from ``start`` spending at most ``budget`` inches.

        Steps go to the 8 neighbours; orthogonal steps cost 1 and diagonal steps cost
        1, 2, 1, 2 ... along the path (killteam §11.3), found by Dijkstra over
        (cell, diagonal parity). Climbing more than 1" costs the height; dropping more
        than 1" is a free jump, with a falling check above 6" (or a climb of the same
        cost, whichever the caller prefers: both are returned as the cheapest `Reach`).
        No corner cutting past BLOCKING cells, no entering walls or impassable ground.
        ``can_enter`` says which other cells the path may use (the caller decides about
        models and enemies); the start is always included at cost 0. FLY models ignore
        heights, may cross anything ``can_enter`` allows and cut corners. With
        ``climb_down`` every drop of more than 6" is climbed (costing its height) instead
        of jumped, so no `Reach` needs a falling check.

        ``key``: the caller vouches that ``can_enter`` (and ``extra_cost``) answer as a
        pure function of it on this board, so the answer is kept and given again while
        nothing moved (a charge's odds, then its roll; each option of a decision). Any
        search is the same with or without it.
        """
        if key is None:
            return self._reachable(start, budget, can_enter, fly, extra_cost, climb_down)
        memo = (start, budget, fly, climb_down, key)
        known = self._reached.pop(memo, None)  # put back last: most recent last
        if known is None:
            known = self._reachable(start, budget, can_enter, fly, extra_cost, climb_down)
        self._reached[memo] = known
        if len(self._reached) > _REACH_KEPT:
            self._reached.pop(next(iter(self._reached)), None)
        return dict(known)

    def cheapest(
        self,
        start: Cell,
        budget: int,
        goals: Collection[Cell],
        *,
        can_enter: Callable[[Cell], bool],
        fly: bool = False,
    ) -> int | None:
        """The least cost `reachable` gives any of ``goals`` (None: none is reached),
        searching no further than it takes.

        The search stops when it first takes a goal off the queue at a cost reached
        without a jump down (no drop): every other goal then costs as much or more, and
        `reachable` prefers no drop. A first goal reached by a jump leaves it in doubt
        (a dearer path without one wins): the search then runs to the end."""
        w = self.width
        wanted = frozenset(c.y * w + c.x for c in goals if c in self)
        if not wanted:
            return None
        if fly or not self._drops():
            return self._nearest(start, budget, can_enter, fly, wanted)
        reach = self._reachable(start, budget, can_enter, fly, None, False, wanted)
        return min((r.cost for c, r in reach.items() if c.y * w + c.x in wanted), default=None)

    def _drops(self) -> bool:
        """Some step on foot jumps down more than 6" (a search must then weigh drops)."""
        if self._has_drops is None:
            links = self._links_walk if self._links_walk is not None else self._links(False)
            self._has_drops = any(down for out in links for _n, _d, _u, down in out)
        return self._has_drops

    def _nearest(
        self,
        start: Cell,
        budget: int,
        can_enter: Callable[[Cell], bool],
        fly: bool,
        goals: frozenset[int],
    ) -> int | None:
        """`cheapest` where no step jumps down: the states and steps of `_reachable`,
        searched towards the goals (A*), so a charge's search walks a lane to its targets,
        not the whole 13" around the charger.

        Each state's estimate is what reaching the goals' bounding box would cost on an
        open, flat board from that state (diagonal parity included): never more than the
        true cost (walls, corners and climbs only add), and consistent (one step changes
        it by at most the step's cost), so the first goal taken off the queue is reached
        at the least cost, the one `_reachable`'s search stops at."""
        w, cells = self.width, self._cell_list
        links = self._links_fly if fly else self._links_walk
        if links is None:
            links = self._links(fly)
        allowed: list[bool | None] = list(self._unasked_fly if fly else self._unasked_walk)
        gx0 = gx1 = gy0 = gy1 = -1
        for i in goals:
            x, y = i % w, i // w
            if gx0 < 0:
                gx0, gx1, gy0, gy1 = x, x, y, y
            else:
                gx0, gx1, gy0, gy1 = min(gx0, x), max(gx1, x), min(gy0, y), max(gy1, y)
        never = budget + 1
        size = len(allowed)
        cost_of = [never] * (4 * size)
        guess_of = [0] * (4 * size)
        buckets: list[list[int]] = [[] for _ in range(budget + 1)]
        x, y = start
        dx = gx0 - x if x < gx0 else (x - gx1 if x > gx1 else 0)
        dy = gy0 - y if y < gy0 else (y - gy1 if y > gy1 else 0)
        guess = dx + dy // 2 if dx >= dy else dy + dx // 2
        if guess > budget:
            return None
        origin = 4 * (y * w + x)
        cost_of[origin], guess_of[origin] = 0, guess
        buckets[guess].append(origin)
        for bound in range(guess, budget + 1):
            for state in buckets[bound]:
                cost = cost_of[state]
                if cost + guess_of[state] != bound:
                    continue  # reached more cheaply since it was queued
                idx, parity = state >> 2, state & 2
                if idx in goals:
                    return cost
                for nidx, diagonal, up, _down in links[idx]:
                    ok = allowed[nidx]
                    if ok is None:
                        ok = allowed[nidx] = can_enter(cells[nidx])
                    if not ok:
                        continue
                    if diagonal and parity:
                        total, npar = cost + 2 + up, 0
                    else:
                        total, npar = cost + 1 + up, parity ^ diagonal
                    nstate = 4 * nidx + npar
                    if cost_of[nstate] <= total:
                        continue
                    x, y = nidx % w, nidx // w
                    dx = gx0 - x if x < gx0 else (x - gx1 if x > gx1 else 0)
                    dy = gy0 - y if y < gy0 else (y - gy1 if y > gy1 else 0)
                    if dx >= dy:
                        guess = dx + (dy + (npar >> 1)) // 2
                    else:
                        guess = dy + (dx + (npar >> 1)) // 2
                    if total + guess > budget:
                        continue
                    cost_of[nstate], guess_of[nstate] = total, guess
                    buckets[total + guess].append(nstate)
        return None

    def _reachable(
        self,
        start: Cell,
        budget: int,
        can_enter: Callable[[Cell], bool],
        fly: bool,
        extra_cost: Callable[[Cell], int] | None,
        climb_down: bool,
        goals: frozenset[int] = frozenset(),
    ) -> dict[Cell, Reach]:
        w, cells = self.width, self._cell_list
        links = self._links_fly if fly else self._links_walk
        if links is None:
            links = self._links(fly)
        # None: not asked yet; on foot walls and impassable ground are refused at once.
        allowed: list[bool | None] = list(self._unasked_fly if fly else self._unasked_walk)
        # State = cell index * 4 + diagonal parity * 2 + jumped; a bucket queue suffices
        # because every step costs a whole number of inches >= 1.
        never = budget + 1
        size = len(allowed)
        cost_of = [never] * (4 * size)
        drop_of = [0] * (4 * size)
        origin = start.y * w + start.x
        cost_of[origin * 4] = 0
        buckets: list[list[int]] = [[] for _ in range(budget + 1)]
        buckets[0].append(origin * 4)
        # The best (drop, cost) each cell was reached at, and the cells in the order first
        # reached (the answer's order).
        best_cost = [never] * size
        best_drop: list[int | None] = [None] * size
        best_cost[origin], best_drop[origin] = 0, 0
        order = [origin]
        doubt = False  # a goal (`cheapest`) came off the queue after a jump down
        for cost in range(budget + 1):
            for state in buckets[cost]:
                if cost_of[state] != cost:
                    continue
                idx, parity, jumped = state >> 2, state & 2, state & 1
                drop = drop_of[state]
                if goals and idx in goals and not doubt:
                    if not drop:
                        return {cells[idx]: _reach(cost, 0)}
                    doubt = True
                for nidx, diagonal, up, down in links[idx]:
                    ok = allowed[nidx]
                    if ok is None:
                        ok = allowed[nidx] = can_enter(cells[nidx])
                    if not ok:
                        continue
                    if diagonal and parity:
                        total, npar = cost + 2, 0
                    else:
                        total, npar = cost + 1, parity ^ diagonal
                    if extra_cost is not None:
                        total += extra_cost(cells[nidx])
                    ndrop, njump = drop, jumped
                    if up:
                        total += up
                    elif down:
                        if climb_down:
                            total += down
                        else:
                            ndrop, njump = (down if down > drop else drop), 1
                    if total > budget:
                        continue
                    nstate = 4 * nidx + npar + njump
                    if cost_of[nstate] <= total:
                        continue
                    cost_of[nstate] = total
                    drop_of[nstate] = ndrop
                    buckets[total].append(nstate)
                    old = best_drop[nidx]
                    if old is None:
                        order.append(nidx)
                        best_cost[nidx], best_drop[nidx] = total, ndrop
                    elif ndrop < old or (ndrop == old and total < best_cost[nidx]):
                        best_cost[nidx], best_drop[nidx] = total, ndrop
        return {cells[i]: _reach(best_cost[i], best_drop[i]) for i in order}

    def _links(self, fly: bool) -> list[tuple[tuple[int, int, int, int], ...]]:
        """Per cell index: the neighbours a step may go to (walls never move), each with
        whether the step is diagonal (2, the parity bit of a search's state, or 0) and,
        on foot, the inches a climb adds (``up``: a rise of more than 1") or the height of
        a drop of more than 6" (``down``: a jump, or a climb down). On foot a diagonal may
        not cut a wall's corner."""
        w, h, blocking, zs = self.width, self.height, self._blocking, self._zs
        links: list[tuple[tuple[int, int, int, int], ...]] = []
        for idx in range(w * h):
            x, y = idx % w, idx // w
            out = []
            for dx, dy in _STEPS:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h):
                    continue
                if dx and dy and not fly and (blocking[y * w + nx] or blocking[ny * w + x]):
                    continue
                nidx = ny * w + nx
                dz = 0 if fly else zs[nidx] - zs[idx]
                up, down = (dz if dz > 1 else 0), (-dz if dz < -6 else 0)
                out.append((nidx, 2 if dx and dy else 0, up, down))
            links.append(tuple(out))
        if fly:
            self._links_fly = links
        else:
            self._links_walk = links
        return links


_REACH_KEPT = 64
"""`Board.reachable` answers kept per board (a move's and a charge's few searches)."""


@lru_cache(maxsize=1 << 17)
def _spans(dx: int, dy: int, k: int) -> tuple[tuple[int, int, int], ...]:
    """`segment_spans` of segment ``k`` (see `Board.segment`) from cell (0, 0) to cell
    (dx, dy): a segment between cells a and b is this one moved by a, its columns by
    a.x and its rows by a.y (the 10x grid moves by whole cells, so every division in
    the trace moves by a whole number), and the sight checks of a game ask the same few
    thousand offsets again and again."""
    (sx, sy), (tx, ty) = _SAMPLES[k // 5], _SAMPLES[k % 5]
    return tuple(segment_spans(sx, sy, 10 * dx + tx, 10 * dy + ty))


@lru_cache(maxsize=4096)
def _reach(cost: int, drop: int) -> Reach:
    """Reaches are immutable: one per (cost, drop) serves every search."""
    return Reach(cost, drop)


_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def cells_within(board: Board, centre: Cell, radius: int) -> Iterable[Cell]:
    """Cells of the board at most ``radius`` inches from ``centre`` (flat distance)."""
    for y in range(max(0, centre.y - radius), min(board.height, centre.y + radius + 1)):
        for x in range(max(0, centre.x - radius), min(board.width, centre.x + radius + 1)):
            cell = Cell(x, y)
            if distance(centre, cell) <= radius:
                yield cell
