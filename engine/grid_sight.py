"""Line of sight on the board's grid: the 25 sample-point segments between two cells,
traced on a grid ten times finer than the cells (killteam §11.4), walls found from prefix
sums, and the clear-view test behind Obscured.

`GridSight` is one of `engine.board.Board`'s bases: the board holds the terrain and the
cached tables these methods read. Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.grid_segments import segment_cells, segment_spans

if TYPE_CHECKING:
    from engine.board import Cell

# Sample points of a cell on the 10x grid: the centre and four inset corners (§11.4).
_SAMPLES = ((5, 5), (2, 2), (2, 8), (8, 2), (8, 8))


class GridSight:
    """Sight lines over a `Board`'s cells (its walls never move, so answers are kept)."""

    width: int
    _segments: dict[tuple[Cell, Cell], list[frozenset[Cell] | None]]
    _sight: dict[tuple[Cell, Cell], bool]
    _walls: list[list[int]]
    _blocking: list[bool]
    _unflagged: list[bool]
    _cell_list: list[Cell]

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


@lru_cache(maxsize=1 << 17)
def _spans(dx: int, dy: int, k: int) -> tuple[tuple[int, int, int], ...]:
    """`segment_spans` of segment ``k`` (see `Board.segment`) from cell (0, 0) to cell
    (dx, dy): a segment between cells a and b is this one moved by a, its columns by
    a.x and its rows by a.y (the 10x grid moves by whole cells, so every division in
    the trace moves by a whole number), and the sight checks of a game ask the same few
    thousand offsets again and again."""
    (sx, sy), (tx, ty) = _SAMPLES[k // 5], _SAMPLES[k % 5]
    return tuple(segment_spans(sx, sy, 10 * dx + tx, 10 * dy + ty))
