"""The battlefield: a square grid of terrain, with distance, movement and line of sight.

Written once here so every ruleset measures the same way; the geometry follows the grid
adaptation of the Kill Team digest (killteam §11), which the other digests reuse or
override. All arithmetic is on integers: line-of-sight segments are traced on a grid ten
times finer than the cells, so no float rounding can make two machines disagree.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import enum
import heapq
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple


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
    _segments: dict[tuple[Cell, Cell], tuple[frozenset[Cell], ...]] = field(
        default_factory=dict, repr=False
    )

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
        return self.kind(cell) not in (Terrain.BLOCKING, Terrain.IMPASSABLE)

    def is_low_cover(self, cell: Cell) -> bool:
        """A cover cell at ground level (barricade, crates)."""
        return self.kind(cell) is Terrain.COVER and self.z(cell) == 0

    def range_to(self, a: Cell, b: Cell) -> int:
        """Distance in inches, floors' heights included."""
        return distance(a, b, self.z(a), self.z(b))

    def is_adjacent(self, a: Cell, b: Cell) -> bool:
        """Base contact: 8-neighbours whose floors differ by at most 1" (killteam §11.2)."""
        return (
            a != b
            and abs(a.x - b.x) <= 1
            and abs(a.y - b.y) <= 1
            and abs(self.z(a) - self.z(b)) <= 1
        )

    # -- line of sight ---------------------------------------------------------------

    def segments(self, a: Cell, b: Cell) -> tuple[frozenset[Cell], ...]:
        """Cells crossed by the 25 sample-point segments from ``a`` to ``b``.

        Grouped by shooter sample point: entry ``5*i + j`` is the segment from sample
        ``i`` of ``a`` to sample ``j`` of ``b``. The end cells themselves are excluded.
        """
        key = (a, b)
        cached = self._segments.get(key)
        if cached is None:
            ends = {a, b}
            cached = tuple(
                frozenset(_trace(10 * a.x + sx, 10 * a.y + sy, 10 * b.x + tx, 10 * b.y + ty) - ends)
                for sx, sy in _SAMPLES
                for tx, ty in _SAMPLES
            )
            self._segments[key] = cached
        return cached

    def has_line_of_sight(
        self, a: Cell, b: Cell, blocks: Callable[[Cell], bool] | None = None
    ) -> bool:
        """True if some sample segment from ``a`` to ``b`` crosses no blocking cell.

        ``blocks`` decides what blocks; by default only BLOCKING terrain (walls) does.
        """
        test = blocks or self.is_blocking
        return any(not any(test(c) for c in seg) for seg in self.segments(a, b))

    def is_blocking(self, cell: Cell) -> bool:
        """Walls block sight."""
        return self.kind(cell) is Terrain.BLOCKING

    def has_clear_view(self, a: Cell, b: Cell, blocks: Callable[[Cell], bool]) -> bool:
        """True if from one sample point of ``a`` all five segments to ``b`` are clear.

        This is the "can see all of the target" test behind killteam §11.4's Obscured.
        """
        segs = self.segments(a, b)
        return any(
            not any(blocks(c) for seg in segs[5 * i : 5 * i + 5] for c in seg) for i in range(5)
        )

    # -- movement --------------------------------------------------------------------

    def reachable(
        self,
        start: Cell,
        budget: int,
        *,
        can_enter: Callable[[Cell], bool],
        fly: bool = False,
        extra_cost: Callable[[Cell], int] | None = None,
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
        heights, may cross anything ``can_enter`` allows and cut corners.
        """
        best: dict[Cell, Reach] = {start: Reach(0)}
        seen: dict[tuple[Cell, int, bool], int] = {(start, 0, False): 0}
        heap: list[tuple[int, int, int, int, int, bool]] = [(0, 0, start.x, start.y, 0, False)]
        while heap:
            cost, drop, x, y, parity, jumped = heapq.heappop(heap)
            here = Cell(x, y)
            if seen.get((here, parity, jumped), 1 << 30) < cost:
                continue
            for nxt in neighbours8(here):
                if nxt not in self or not can_enter(nxt):
                    continue
                if not fly and not self.is_standable(nxt):
                    continue
                diagonal = nxt.x != x and nxt.y != y
                if (
                    diagonal
                    and not fly
                    and (
                        self.kind(Cell(nxt.x, y)) is Terrain.BLOCKING
                        or self.kind(Cell(x, nxt.y)) is Terrain.BLOCKING
                    )
                ):
                    continue
                step = (1 + parity) if diagonal else 1
                new_parity = (parity ^ 1) if diagonal else parity
                if extra_cost is not None:
                    step += extra_cost(nxt)
                new_drop, new_jumped = drop, jumped
                if not fly:
                    dz = self.z(nxt) - self.z(here)
                    if dz > 1:
                        step += dz
                    elif dz < -6:
                        new_drop, new_jumped = max(drop, -dz), True
                total = cost + step
                if total > budget:
                    continue
                state = (nxt, new_parity, new_jumped)
                if seen.get(state, 1 << 30) <= total:
                    continue
                seen[state] = total
                heapq.heappush(heap, (total, new_drop, nxt.x, nxt.y, new_parity, new_jumped))
                old = best.get(nxt)
                if old is None or (old.drop, old.cost) > (new_drop, total):
                    best[nxt] = Reach(total, new_drop)
        return best


def _trace(x0: int, y0: int, x1: int, y1: int) -> set[Cell]:
    """Cells (closed squares of side 10) touched by the segment, exact in integers."""
    if x0 > x1:
        x0, y0, x1, y1 = x1, y1, x0, y0
    crossed: set[Cell] = set()
    dx, dy = x1 - x0, y1 - y0
    for cx in range(x0 // 10, x1 // 10 + 1):
        xa = max(10 * cx, x0)
        xb = min(10 * cx + 10, x1)
        if dx == 0:
            lo, hi, den = min(y0, y1), max(y0, y1), 1
        else:
            # y(x) = y0 + (x - x0) * dy / dx, kept as numerator over dx (dx > 0).
            ya = y0 * dx + (xa - x0) * dy
            yb = y0 * dx + (xb - x0) * dy
            lo, hi, den = min(ya, yb), max(ya, yb), dx
        step = 10 * den
        first = lo // step - (1 if lo % step == 0 else 0)
        last = hi // step
        for cy in range(first, last + 1):
            crossed.add(Cell(cx, cy))
    return crossed


def cells_within(board: Board, centre: Cell, radius: int) -> Iterable[Cell]:
    """Cells of the board at most ``radius`` inches from ``centre`` (flat distance)."""
    for y in range(max(0, centre.y - radius), min(board.height, centre.y + radius + 1)):
        for x in range(max(0, centre.x - radius), min(board.width, centre.x + radius + 1)):
            cell = Cell(x, y)
            if distance(centre, cell) <= radius:
                yield cell
