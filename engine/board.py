"""The battlefield: a square grid of terrain, with distance, movement and line of sight.

Written once here so every ruleset measures the same way; the geometry follows the grid
adaptation of the Kill Team digest (killteam §11), which the other digests reuse or
override. All arithmetic is on integers: line-of-sight segments are traced on a grid ten
times finer than the cells, so no float rounding can make two machines disagree. The
board's line of sight is in `engine.grid_sight`, its movement searches in
`engine.grid_paths`; here the cells, terrain, distance and the board's own tables.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.grid_paths import GridPaths, Reach
from engine.grid_sight import GridSight


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


@dataclass(eq=False)
class Board(GridSight, GridPaths):
    """A width x height grid of terrain and heights, with cached sight lines (its line of
    sight is `engine.grid_sight`'s, its movement searches `engine.grid_paths`')."""

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


def cells_within(board: Board, centre: Cell, radius: int) -> Iterable[Cell]:
    """Cells of the board at most ``radius`` inches from ``centre`` (flat distance)."""
    for y in range(max(0, centre.y - radius), min(board.height, centre.y + radius + 1)):
        for x in range(max(0, centre.x - radius), min(board.width, centre.x + radius + 1)):
            cell = Cell(x, y)
            if distance(centre, cell) <= radius:
                yield cell
