"""Units that stand as one token covering several cells: footprints, distances, grids.

A unit of several models moved as one piece (a squad on its bases, a tank, a titan) is
drawn on the grid as one rectangle of cells (`engine.units` covers units whose models
stand apart and keep coherency). Rulesets that move whole units measure between the
nearest cells of two units, test "wholly within" and ask which cells are clear. This
module does those things once, fast enough for hundreds of units: distances are O(1) on
rectangles and legality tests use prefix sums, all in integers. Moving a footprint lives
in `engine.token_reach`, sight lines between footprints in `engine.sight_lines`.

First used by the Apocalypse ruleset (digest apocalypse §11); the rules of each system
(what may be entered, what blocks sight) stay in the ruleset, passed in as flags.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Sequence
from functools import cache
from itertools import accumulate
from operator import add
from typing import NamedTuple

from engine.board import Cell
from engine.view import ModelView


class Rect(NamedTuple):
    """Inclusive cell rectangle: columns x0..x1, rows y0..y1."""

    x0: int
    y0: int
    x1: int
    y1: int

    def cells(self) -> Iterator[Cell]:
        """Every cell of the rectangle, row by row from the south-west corner."""
        for y in range(self.y0, self.y1 + 1):
            for x in range(self.x0, self.x1 + 1):
                yield Cell(x, y)

    def __contains__(self, cell: object) -> bool:
        return (
            isinstance(cell, tuple)
            and len(cell) == 2
            and self.x0 <= cell[0] <= self.x1
            and self.y0 <= cell[1] <= self.y1
        )

    @property
    def anchor(self) -> Cell:
        """The lowest-x, lowest-y cell (where a footprint is said to stand)."""
        return Cell(self.x0, self.y0)


def square(anchor: Cell, size: int) -> Rect:
    """The ``size`` x ``size`` footprint whose south-west cell is ``anchor``."""
    return Rect(anchor.x, anchor.y, anchor.x + size - 1, anchor.y + size - 1)


def gap_distance(dx: int, dy: int) -> int:
    """Inches across a gap of dx columns and dy rows: the 1-2-1 diagonal rule."""
    dx, dy = abs(dx), abs(dy)
    return dx + dy // 2 if dx >= dy else dy + dx // 2


def _gaps(a: Rect, b: Rect) -> tuple[int, int]:
    """Columns and rows between two footprints (`rect_distance` inlines it; tests hold
    the two to each other)."""
    return max(0, b.x0 - a.x1, a.x0 - b.x1), max(0, b.y0 - a.y1, a.y0 - b.y1)


def rect_distance(a: Rect, b: Rect) -> int:
    """Distance between the nearest cells of two footprints (0 if they overlap).

    `_gaps` written out with comparisons (the calls to max cost more than the sums: the
    rulesets measure a hundred thousand pairs a game)."""
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    gx, other = bx0 - ax1, ax0 - bx1
    if other > gx:
        gx = other
    if gx < 0:
        gx = 0
    gy, other = by0 - ay1, ay0 - by1
    if other > gy:
        gy = other
    if gy < 0:
        gy = 0
    return gx + gy // 2 if gx >= gy else gy + gx // 2


def in_contact(a: Rect, b: Rect) -> bool:
    """Base contact: the footprints touch (8-neighbours) without overlapping."""
    return rect_distance(a, b) == 1


def overlaps(a: Rect, b: Rect) -> bool:
    """True if the two rectangles share a cell."""
    return a.x0 <= b.x1 and b.x0 <= a.x1 and a.y0 <= b.y1 and b.y0 <= a.y1


def wholly_within(a: Rect, b: Rect, inches: int) -> bool:
    """Every cell of ``a`` is within ``inches`` of some cell of ``b``.

    The farthest cell of ``a`` is one of its corners (the gap to ``b`` grows away from
    ``b`` along each axis), so four corners decide it.
    """
    gx = max(max(0, b.x0 - x, x - b.x1) for x in (a.x0, a.x1))
    gy = max(max(0, b.y0 - y, y - b.y1) for y in (a.y0, a.y1))
    return gap_distance(gx, gy) <= inches


# -- flat grids ------------------------------------------------------------------------


class Grid:
    """Per-cell flags (bools, or bytes 0 and 1) of a cols x rows board with O(1) rectangle
    counts (prefix sums)."""

    __slots__ = ("_sums", "cols", "flags", "rows")

    def __init__(self, cols: int, rows: int, flags: Sequence[int]) -> None:
        self.cols = cols
        self.rows = rows
        self.flags = flags
        self._sums: list[int] | None = None

    @property
    def sums(self) -> list[int]:
        """The prefix sums (row-major, ``cols + 1`` wide, a zero row and column first),
        summed when first asked: a move's grids are read by their flags alone."""
        sums = self._sums
        if sums is None:
            cols, flags = self.cols, self.flags
            stride = cols + 1
            sums = [0] * (stride * (self.rows + 1))
            for y in range(self.rows):
                above = y * stride + 1
                here = above + stride
                runs = accumulate(map(bool, flags[y * cols : y * cols + cols]))
                sums[here : here + cols] = map(add, sums[above : above + cols], runs)
            self._sums = sums
        return sums

    @classmethod
    def from_cells(cls, cols: int, rows: int, cells: Iterable[Cell]) -> Grid:
        """A grid flagging exactly ``cells`` (those on the board)."""
        flags = [False] * (cols * rows)
        for x, y in cells:
            if 0 <= x < cols and 0 <= y < rows:
                flags[y * cols + x] = True
        return cls(cols, rows, flags)

    @classmethod
    def from_rects(
        cls, cols: int, rows: int, rects: Iterable[Rect], cells: Iterable[Cell] = ()
    ) -> Grid:
        """A grid flagging the cells of ``rects`` and ``cells`` (those on the board): the
        same grid as `from_cells` of all their cells, a row of a rectangle set at once.
        Its flags are bytes (0 or 1), made and copied in C: every wh40k6 move builds two
        such grids, and reads their rows as bytes."""
        flags = bytearray(cols * rows)
        for x0, y0, x1, y1 in rects:
            x0, x1 = max(x0, 0), min(x1, cols - 1)
            if x0 > x1:
                continue
            run = b"\x01" * (x1 - x0 + 1)
            for start in range(max(y0, 0) * cols + x0, (min(y1, rows - 1) + 1) * cols, cols):
                flags[start : start + len(run)] = run
        for x, y in cells:
            if 0 <= x < cols and 0 <= y < rows:
                flags[y * cols + x] = 1
        return cls(cols, rows, flags)

    def count(self, x0: int, y0: int, x1: int, y1: int) -> int:
        """Flagged cells in the inclusive rectangle (clipped to the board).

        Clipped by comparisons rather than min and max (the calls cost more than the
        sum: rulesets count a hundred thousand rectangles a game)."""
        cols = self.cols
        if x0 < 0:
            x0 = 0
        if y0 < 0:
            y0 = 0
        if x1 >= cols:
            x1 = cols - 1
        if y1 >= self.rows:
            y1 = self.rows - 1
        if x0 > x1 or y0 > y1:
            return 0
        s, st = self._sums or self.sums, cols + 1
        low, high = y0 * st, (y1 + 1) * st
        return s[high + x1 + 1] - s[low + x1 + 1] - s[high + x0] + s[low + x0]

    def any_in(self, rect: Rect) -> bool:
        """True if a flagged cell lies in ``rect``."""
        return self.count(rect.x0, rect.y0, rect.x1, rect.y1) > 0

    def __getitem__(self, cell: Cell) -> bool:
        return bool(self.flags[cell.y * self.cols + cell.x])


def halo(cols: int, rows: int, rects: Iterable[Rect], radius: int) -> Grid:
    """Cells within ``radius`` inches of any of the rectangles (the rectangles included)."""
    flags = [False] * (cols * rows)
    for r in rects:
        for y in range(max(0, r.y0 - radius), min(rows, r.y1 + radius + 1)):
            gy = max(0, r.y0 - y, y - r.y1)
            base = y * cols
            for x in range(max(0, r.x0 - radius), min(cols, r.x1 + radius + 1)):
                gx = max(0, r.x0 - x, x - r.x1)
                if (gx + gy // 2 if gx >= gy else gy + gx // 2) <= radius:
                    flags[base + x] = True
    return Grid(cols, rows, flags)


def clear_anchors(
    blocked: Grid,
    size: int,
    within: Rect | None = None,
    occupied: Container[int] = (),
    *,
    avoid: Grid | None = None,
) -> list[Cell]:
    """Anchors whose ``size`` x ``size`` footprint lies on the board and avoids ``blocked``
    (and ``avoid``, a grid of the same board), row by row from the south-west.

    ``within`` limits the footprint to a rectangle (a deployment zone, an edge strip);
    ``occupied`` holds flat indices (``y * cols + x``) of cells other tokens cover.
    Without them, each board row is one integer's bits and a whole row of anchors is
    settled at once (an OR of the k+1 rows a footprint covers, then of it shifted by
    0..k): a deployment zone has a thousand anchors.
    """
    cols = blocked.cols
    box = within or Rect(0, 0, cols - 1, blocked.rows - 1)
    x0, y0 = max(box.x0, 0), max(box.y0, 0)
    x1, y1 = min(box.x1, cols - 1) - size + 1, min(box.y1, blocked.rows - 1) - size + 1
    k = size - 1
    if x1 < x0 or y1 < y0:
        return []
    if occupied:
        return [
            Cell(x, y)
            for y in range(y0, y1 + 1)
            for x in range(x0, x1 + 1)
            if not blocked.count(x, y, x + k, y + k)
            and not _covers(occupied, cols, x, y, k)
            and not (avoid is not None and avoid.count(x, y, x + k, y + k))
        ]
    rows = _row_bits(blocked, y0, y1 + k)
    if avoid is not None:
        rows = [a | b for a, b in zip(rows, _row_bits(avoid, y0, y1 + k), strict=True)]
    span = ((1 << (x1 - x0 + 1)) - 1) << x0
    cells = table_cells(cols, blocked.rows)
    out = []
    for y in range(y0, y1 + 1):
        covered = rows[y - y0]
        for dy in range(1, k + 1):
            covered |= rows[y - y0 + dy]
        spread = covered
        for dx in range(1, k + 1):
            spread |= covered >> dx
        free = span & ~spread
        if free:
            base = y * cols
            text = bin(free)[:1:-1]
            at = text.find("1")
            while at >= 0:
                out.append(cells[base + at])
                at = text.find("1", at + 1)
    return out


_BINARY = bytes.maketrans(b"\x00\x01", b"01")


def _row_bits(grid: Grid, first: int, last: int) -> list[int]:
    """Rows ``first`` to ``last`` of the grid, each as an integer (column ``x`` is bit
    ``x``, set where flagged)."""
    flags, cols = grid.flags, grid.cols
    return [
        int(bytes(map(bool, flags[y * cols : y * cols + cols][::-1])).translate(_BINARY), 2)
        for y in range(first, last + 1)
    ]


@cache
def table_cells(cols: int, rows: int) -> list[Cell]:
    """Every cell of a board, row by row (index ``y * cols + x``): made once per size."""
    return [Cell(x, y) for y in range(rows) for x in range(cols)]


def _covers(occupied: Container[int], cols: int, x: int, y: int, k: int) -> bool:
    """True if the footprint at (x, y) of side k+1 covers an occupied cell."""
    for yy in range(y, y + k + 1):
        base = yy * cols
        for xx in range(x + base, x + base + k + 1):
            if xx in occupied:
                return True
    return False


# -- views -------------------------------------------------------------------------------


def footprint_owner(model_id: str) -> str:
    """The id of the unit a `footprint_views` part belongs to (its own id otherwise)."""
    return model_id.partition("~")[0]


def footprint_views(view: ModelView, rect: Rect) -> tuple[ModelView, ...]:
    """A unit's view repeated on every cell of its footprint.

    The view on the anchor keeps the unit's id (Decisions name units by it); the others
    get ``"<id>~<n>"`` and a "part of" state, so a UI that draws one model per cell
    shows the whole footprint and clicking any of its cells names the unit.
    """
    out = [view]
    n = 0
    for cell in rect.cells():
        if cell == rect.anchor:
            continue
        n += 1
        out.append(
            ModelView(
                f"{view.id}~{n}",
                view.player,
                view.name,
                view.glyph,
                cell,
                view.wounds,
                view.max_wounds,
                (f"part of {view.id}", *view.states),
                view.profile,
                view.weapons,
                view.facing,
                view.removed,
            )
        )
    return tuple(out)
