"""The battlefield as Apocalypse reads it (digest apocalypse §4.2, §11.3-§11.4).

The map's core terrain kinds stand for the digest's types: ``cover`` cells are OBSTACLE
(walls, barricades), ``difficult`` cells are RUINS, ``blocking`` cells are IMPASSABLE
(block moving and sight), and core ``impassable`` cells are impassable ground that does
not block sight. A terrain piece is a 4-connected area of one type. Sight lines are
tested against rectangles covering each kind (engine.footprints), cached per pair of
footprints.
"""

from __future__ import annotations

from engine.board import Board, Cell, Terrain
from engine.footprints import Grid, Rect
from engine.sight_arrays import sees_all
from engine.sight_lines import clear_lines, doubled, rectangles, sees

OBSTACLE = "OBSTACLE"
RUINS = "RUINS"
IMPASSABLE = "IMPASSABLE"
OPEN = "OPEN"

_KIND = {
    Terrain.OPEN: OPEN,
    Terrain.COVER: OBSTACLE,
    Terrain.DIFFICULT: RUINS,
    Terrain.BLOCKING: IMPASSABLE,
    Terrain.IMPASSABLE: IMPASSABLE,
}


class TerrainMap:
    """Static facts about the map: kinds, pieces, flag grids and sight-line walls."""

    def __init__(self, board: Board) -> None:
        self.board = board
        w, h = board.width, board.height
        self.cols, self.rows = w, h
        kinds = [_KIND[board.kind(Cell(x, y))] for y in range(h) for x in range(w)]
        self.kinds = kinds
        self.impassable = Grid(w, h, [k == IMPASSABLE for k in kinds])
        """No unit may end (or, unless it flies, pass) here."""
        self.ruins = Grid(w, h, [k == RUINS for k in kinds])
        """Only INFANTRY may enter (§4.2)."""
        self.impassable_or_ruins = Grid(w, h, [k in (IMPASSABLE, RUINS) for k in kinds])
        """What a non-INFANTRY unit may not cover."""
        self.climb = Grid(w, h, [k in (RUINS, OBSTACLE) for k in kinds])
        """Entering costs 1" more (§11.3 step 3); also "inside terrain" for obscuring."""
        walls = [
            Cell(x, y)
            for y in range(h)
            for x in range(w)
            if board.kind(Cell(x, y)) is Terrain.BLOCKING
        ]
        self.walls = Grid.from_cells(w, h, walls)
        self.wall_rects = rectangles(walls)
        self._wall_boxes = doubled(self.wall_rects)
        self._wall_sums = self.walls.sums
        self._stride = w + 1
        self.piece: dict[Cell, int] = {}
        """Cell -> terrain piece number, for OBSTACLE and RUINS cells."""
        self.cover_rects: list[tuple[Rect, int]] = []
        """Rectangles covering OBSTACLE and RUINS cells, each with its piece number."""
        self._pieces()
        self._sight: dict[tuple[Rect, Rect], bool] = {}
        self._behind: dict[tuple[Rect, Rect], bool] = {}

    def _pieces(self) -> None:
        number = 0
        for y in range(self.rows):
            for x in range(self.cols):
                kind = self.kinds[y * self.cols + x]
                if kind not in (RUINS, OBSTACLE) or Cell(x, y) in self.piece:
                    continue
                number += 1
                area = self._flood(Cell(x, y), kind, number)
                self.cover_rects.extend((r, number) for r in rectangles(area))

    def _flood(self, start: Cell, kind: str, number: int) -> list[Cell]:
        area, stack = [], [start]
        self.piece[start] = number
        while stack:
            cell = stack.pop()
            area.append(cell)
            for nx, ny in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                near = Cell(cell.x + nx, cell.y + ny)
                if (
                    0 <= near.x < self.cols
                    and 0 <= near.y < self.rows
                    and near not in self.piece
                    and self.kinds[near.y * self.cols + near.x] == kind
                ):
                    self.piece[near] = number
                    stack.append(near)
        return area

    def kind(self, cell: Cell) -> str:
        return self.kinds[cell.y * self.cols + cell.x]

    def visible(self, a: Rect, b: Rect) -> bool:
        """Some centre-to-centre sight line joins the footprints unblocked (§11.4 1-3).

        Hot path (all pairs of hundreds of units): a pair with no wall cell in its joint
        bounding box sees at once, from the prefix sums, before any cache lookup (hashing
        a pair of rectangles costs more than the count); only pairs that need line tests
        are cached.
        """
        ax0, ay0, ax1, ay1 = a
        bx0, by0, bx1, by1 = b
        x0, y0 = (ax0 if ax0 < bx0 else bx0), (ay0 if ay0 < by0 else by0)
        x1, y1 = (ax1 if ax1 > bx1 else bx1) + 1, (ay1 if ay1 > by1 else by1) + 1
        sums, st = self._wall_sums, self._stride
        if sums[y1 * st + x1] - sums[y0 * st + x1] - sums[y1 * st + x0] + sums[y0 * st + x0] == 0:
            return True
        key = (a, b)
        seen = self._sight.get(key)
        if seen is None:
            seen = sees(a, b, self._wall_boxes)
            self._sight[key] = self._sight[(b, a)] = seen
        return seen

    def sight_table(self, rects: list[Rect]) -> list[list[bool]]:
        """`visible` for every pair of ``rects`` (row i, column j), in one pass over
        arrays (engine.sight_arrays): 300 units' 44,850 pairs in a third of the time
        asking each costs. Leaves the per-pair cache as it is."""
        return sees_all(rects, self._wall_boxes)

    def behind_terrain(self, a: Rect, b: Rect) -> bool:
        """Every unblocked sight line crosses cover that ``a`` is not standing in (§11.4 4).

        Only pieces the shooter occupies are ignored; False when nothing is visible.
        Terrain never changes: each pair is traced once (every weapon of a shooter asks
        it of every target, and units that stay put ask it again each activation).
        """
        box = Rect(min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
        if not self.climb.any_in(box):
            return False
        key = (a, b)
        known = self._behind.get(key)
        if known is None:
            known = self._behind[key] = self._traced_behind(a, b)
        return known

    def _traced_behind(self, a: Rect, b: Rect) -> bool:
        """`behind_terrain`, traced."""
        own = {self.piece[c] for c in a.cells() if c in self.piece}
        cover = [r for r, n in self.cover_rects if n not in own]
        lines = clear_lines(a, b, self.wall_rects, first_only=False)
        if not lines:
            return False
        for s, t in lines:
            if not clear_lines(Rect(s.x, s.y, s.x, s.y), Rect(t.x, t.y, t.x, t.y), cover):
                continue
            return False
        return True

    def inside_terrain(self, a: Rect) -> bool:
        """Any cell of the footprint is RUINS or OBSTACLE (§11.4 5)."""
        return self.climb.any_in(a)
