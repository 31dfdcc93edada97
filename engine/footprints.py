"""Units that stand as one token covering several cells: footprints, distances, paths, sight.

A unit of several models moved as one piece (a squad on its bases, a tank, a titan) is
drawn on the grid as one rectangle of cells (`engine.units` covers units whose models
stand apart and keep coherency). Rulesets that move whole units measure between the
nearest cells of two units, test "wholly within", move the whole footprint along
8-directional steps with the 1-2-1 diagonal rule, and trace sight lines between cell
centres. This module does those things once, fast enough for hundreds of units:
distances are O(1) on rectangles, legality tests use prefix sums, sight lines are tested
against terrain rectangles (never cell by cell), all in integers (doubled coordinates,
so cell centres are integers too).

First used by the Apocalypse ruleset (digest apocalypse §11); the rules of each system
(what may be entered, what blocks sight) stay in the ruleset, passed in as flags.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Sequence
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
    return max(0, b.x0 - a.x1, a.x0 - b.x1), max(0, b.y0 - a.y1, a.y0 - b.y1)


def rect_distance(a: Rect, b: Rect) -> int:
    """Distance between the nearest cells of two footprints (0 if they overlap)."""
    gx, gy = _gaps(a, b)
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
    """Per-cell flags of a cols x rows board with O(1) rectangle counts (prefix sums)."""

    __slots__ = ("cols", "flags", "rows", "sums")

    def __init__(self, cols: int, rows: int, flags: Sequence[bool]) -> None:
        self.cols = cols
        self.rows = rows
        self.flags = flags
        stride = cols + 1
        sums = [0] * (stride * (rows + 1))
        for y in range(rows):
            above = y * stride + 1
            here = above + stride
            runs = accumulate(map(bool, flags[y * cols : y * cols + cols]))
            sums[here : here + cols] = map(add, sums[above : above + cols], runs)
        self.sums = sums

    @classmethod
    def from_cells(cls, cols: int, rows: int, cells: Iterable[Cell]) -> Grid:
        """A grid flagging exactly ``cells`` (those on the board)."""
        flags = [False] * (cols * rows)
        for x, y in cells:
            if 0 <= x < cols and 0 <= y < rows:
                flags[y * cols + x] = True
        return cls(cols, rows, flags)

    def count(self, x0: int, y0: int, x1: int, y1: int) -> int:
        """Flagged cells in the inclusive rectangle (clipped to the board)."""
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.cols - 1), min(y1, self.rows - 1)
        if x0 > x1 or y0 > y1:
            return 0
        s, st = self.sums, self.cols + 1
        return (
            s[(y1 + 1) * st + x1 + 1]
            - s[y0 * st + x1 + 1]
            - s[(y1 + 1) * st + x0]
            + s[y0 * st + x0]
        )

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
) -> list[Cell]:
    """Anchors whose ``size`` x ``size`` footprint lies on the board and avoids ``blocked``.

    ``within`` limits the footprint to a rectangle (a deployment zone, an edge strip);
    ``occupied`` holds flat indices (``y * cols + x``) of cells other tokens cover.
    """
    cols = blocked.cols
    box = within or Rect(0, 0, cols - 1, blocked.rows - 1)
    x0, y0 = max(box.x0, 0), max(box.y0, 0)
    x1, y1 = min(box.x1, cols - 1) - size + 1, min(box.y1, blocked.rows - 1) - size + 1
    out = []
    k = size - 1
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if not blocked.count(x, y, x + k, y + k) and not _covers(occupied, cols, x, y, k):
                out.append(Cell(x, y))
    return out


def _covers(occupied: Container[int], cols: int, x: int, y: int, k: int) -> bool:
    """True if the footprint at (x, y) of side k+1 covers an occupied cell."""
    for yy in range(y, y + k + 1):
        base = yy * cols
        for xx in range(x + base, x + base + k + 1):
            if xx in occupied:
                return True
    return False


# -- moving a footprint ------------------------------------------------------------------

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def token_reach(
    start: Cell,
    size: int,
    budget: int,
    blocked: Grid,
    climb: Grid,
    *,
    occupied: Container[int] = (),
    fly: bool = False,
) -> dict[Cell, int]:
    """Anchors a ``size`` x ``size`` token can move to with at most ``budget`` inches.

    Each step moves the whole footprint one cell in one of 8 directions. Orthogonal steps
    cost 1; diagonal steps cost 1, 2, 1, 2 ... counted over the whole move (Dijkstra over
    anchor and diagonal parity, with a bucket queue since costs are small integers). A
    step costs 1 more when it newly covers a ``climb`` cell. Every position on the way
    must avoid ``blocked`` and the ``occupied`` cells (flat indices of other tokens), and a
    diagonal step needs one of its two orthogonal neighbours clear (no squeezing past
    corners). A flying token may cross anything on the board, pays no climbing, and only
    its end position must avoid ``blocked``. The start is included at cost 0; the caller
    leaves the token's own cells out of ``occupied``.

    The search runs on the window of anchors the budget can reach, as a flat list with a
    border of never-enterable anchors (so no bounds checks in the inner loop).
    """
    cols, rows = blocked.cols, blocked.rows
    if cols < size or rows < size:
        return {}
    k = size - 1
    lo_x, hi_x = max(0, start.x - budget), min(cols - size, start.x + budget)
    lo_y, hi_y = max(0, start.y - budget), min(rows - size, start.y + budget)
    pw, ph = hi_x - lo_x + 3, hi_y - lo_y + 3
    legal = _legal_window(blocked, occupied, k, lo_x, lo_y, pw, ph)
    passable = legal
    if fly:
        passable = [True] * (pw * ph)
        for x in range(pw):
            passable[x] = passable[(ph - 1) * pw + x] = False
        for y in range(ph):
            passable[y * pw] = passable[y * pw + pw - 1] = False
    climbing = not fly and climb.count(lo_x, lo_y, hi_x + k, hi_y + k) > 0
    steep = _footprint_flags(climb, k, lo_x, lo_y, pw, ph) if climbing else []
    orthogonal = [(dy * pw + dx, dx, dy) for dx, dy in _STEPS if not (dx and dy)]
    diagonal = [(dy * pw + dx, dx, dy, dy * pw, dx) for dx, dy in _STEPS if dx and dy]
    never = budget + 1
    best = [never] * (2 * pw * ph)
    origin = 2 * ((start.y - lo_y + 1) * pw + start.x - lo_x + 1)
    best[origin] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 2)]
    buckets[0].append(origin)
    for cost in range(budget + 1):
        for code in buckets[cost]:
            if best[code] != cost:
                continue
            i, parity = code >> 1, code & 1
            # Orthogonal steps cost 1 and keep the parity; diagonals cost 1 + parity.
            total = cost + 1
            if total <= budget:
                for off, dx, dy in orthogonal:
                    j = i + off
                    if not passable[j]:
                        continue
                    t = total
                    if climbing and steep[j] and _climbs_from(climb, i, pw, lo_x, lo_y, dx, dy, k):
                        t += 1
                        if t > budget:
                            continue
                    c2 = 2 * j + parity
                    if best[c2] > t:
                        best[c2] = t
                        buckets[t].append(c2)
            total = cost + 1 + parity
            if total > budget:
                continue
            nparity = parity ^ 1
            for off, dx, dy, o1, o2 in diagonal:
                j = i + off
                if not passable[j]:
                    continue
                if not fly and not (passable[i + o1] or passable[i + o2]):
                    continue
                t = total
                if climbing and steep[j] and _climbs_from(climb, i, pw, lo_x, lo_y, dx, dy, k):
                    t += 1
                    if t > budget:
                        continue
                c2 = 2 * j + nparity
                if best[c2] > t:
                    best[c2] = t
                    buckets[t].append(c2)
    reach: dict[Cell, int] = {}
    for j in range(pw * ph):
        cost = min(best[2 * j], best[2 * j + 1])
        if cost <= budget and (legal[j] or cost == 0):
            reach[Cell(lo_x - 1 + j % pw, lo_y - 1 + j // pw)] = cost
    return reach


def _legal_window(
    blocked: Grid, occupied: Container[int], k: int, lo_x: int, lo_y: int, pw: int, ph: int
) -> list[bool]:
    """Anchor legality over a padded window (border anchors are never legal).

    Built row by row: a cell is bad if blocked or occupied, and an anchor is legal if
    none of the (k+1) x (k+1) cells of its footprint is bad.
    """
    cols, flags = blocked.cols, blocked.flags
    width = pw - 2 + k
    bad_rows = []
    for y in range(lo_y, lo_y + ph - 2 + k):
        base = y * cols + lo_x
        bad_rows.append([bool(flags[i]) or i in occupied for i in range(base, base + width)])
    legal = [False] * (pw * ph)
    for wy in range(ph - 2):
        rows = bad_rows[wy : wy + k + 1]
        column_bad = [any(col) for col in zip(*rows, strict=True)] if k else rows[0]
        start = (wy + 1) * pw + 1
        for wx in range(pw - 2):
            if not any(column_bad[wx : wx + k + 1]):
                legal[start + wx] = True
    return legal


def _footprint_flags(grid: Grid, k: int, lo_x: int, lo_y: int, pw: int, ph: int) -> list[bool]:
    """Per anchor of a padded window: its footprint covers a flagged cell of ``grid``."""
    out = [False] * (pw * ph)
    for wy in range(1, ph - 1):
        y = lo_y + wy - 1
        for wx in range(1, pw - 1):
            x = lo_x + wx - 1
            out[wy * pw + wx] = grid.count(x, y, x + k, y + k) > 0
    return out


def _climbs_from(
    climb: Grid, i: int, pw: int, lo_x: int, lo_y: int, dx: int, dy: int, k: int
) -> bool:
    """`_climbs` for a step from window anchor ``i`` by (dx, dy)."""
    x, y = lo_x - 1 + i % pw, lo_y - 1 + i // pw
    return _climbs(climb, x, y, x + dx, y + dy, k)


def _climbs(climb: Grid, x: int, y: int, ax: int, ay: int, k: int) -> bool:
    """True if the footprint at (ax, ay) covers a climb cell the one at (x, y) did not.

    Two prefix-sum counts: the new footprint's climb cells, less those of its overlap
    with the old one (a step of one cell always leaves an overlap, possibly empty)."""
    new = climb.count(ax, ay, ax + k, ay + k)
    if not new:
        return False
    both = climb.count(max(x, ax), max(y, ay), min(x, ax) + k, min(y, ay) + k)
    return new > both


# -- sight lines -------------------------------------------------------------------------


def segment_crosses(px: int, py: int, qx: int, qy: int, box: Rect) -> bool:
    """True if the segment between two cell centres crosses the open interior of ``box``.

    Points are in doubled coordinates (the centre of cell (x, y) is (2x+1, 2y+1)); the box
    is a cell rectangle, so its open interior is (2*x0, 2*x1+2) x (2*y0, 2*y1+2). A line
    that only touches a corner or an edge does not cross. The segment is the line clipped
    to its own bounding box, so clip the box to that and ask whether the line passes
    strictly between the clipped box's corners.
    """
    bx0, by0, bx1, by1 = 2 * box.x0, 2 * box.y0, 2 * box.x1 + 2, 2 * box.y1 + 2
    lox, hix = max(bx0, min(px, qx)), min(bx1, max(px, qx))
    loy, hiy = max(by0, min(py, qy)), min(by1, max(py, qy))
    if px == qx:
        return bx0 < px < bx1 and loy < hiy
    if py == qy:
        return by0 < py < by1 and lox < hix
    if lox >= hix or loy >= hiy:
        return False
    dx, dy = qx - px, qy - py
    a = dx * (loy - py)
    b = dx * (hiy - py)
    c = dy * (lox - px)
    d = dy * (hix - px)
    corners = (a - c, a - d, b - c, b - d)
    return min(corners) < 0 < max(corners)


def centre(cell: Cell) -> tuple[int, int]:
    """The centre of a cell in doubled coordinates."""
    return 2 * cell.x + 1, 2 * cell.y + 1


def clear_lines(
    a: Rect, b: Rect, walls: Sequence[Rect], *, first_only: bool = True
) -> list[tuple[Cell, Cell]]:
    """Sight lines (cell centre to cell centre) from ``a`` to ``b`` crossing no wall.

    With ``first_only`` the search stops at the first clear line (a visibility test).
    Only walls meeting the two footprints' joint bounding box can cut a line.
    """
    box = Rect(min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
    near = [w for w in walls if overlaps(w, box)]
    out: list[tuple[Cell, Cell]] = []
    for s in a.cells():
        px, py = 2 * s.x + 1, 2 * s.y + 1
        for t in b.cells():
            qx, qy = 2 * t.x + 1, 2 * t.y + 1
            if not any(segment_crosses(px, py, qx, qy, w) for w in near):
                out.append((s, t))
                if first_only:
                    return out
    return out


def doubled(walls: Iterable[Rect]) -> list[tuple[int, int, int, int]]:
    """Walls as open boxes in doubled coordinates, the form `sees` takes."""
    return [(2 * w.x0, 2 * w.y0, 2 * w.x1 + 2, 2 * w.y1 + 2) for w in walls]


def sees(a: Rect, b: Rect, walls: Sequence[tuple[int, int, int, int]]) -> bool:
    """True if some centre-to-centre line from ``a`` to ``b`` crosses none of the walls.

    The same test as `segment_crosses`, inlined for speed (all pairs of hundreds of
    units): only walls meeting the joint bounding box are tried, a wall is skipped by four
    comparisons when it misses the line's own bounding box, axis-parallel lines are told
    apart once per line rather than once per wall, and the wall that cut the last line is
    tried first on the next one (a pair hidden behind one wall then costs one test per
    line).
    """
    sx0, sy0, sx1, sy1 = a
    tx0, ty0, tx1, ty1 = b
    ux0, uy0 = 2 * (sx0 if sx0 < tx0 else tx0), 2 * (sy0 if sy0 < ty0 else ty0)
    ux1 = 2 * (sx1 if sx1 > tx1 else tx1) + 2
    uy1 = 2 * (sy1 if sy1 > ty1 else ty1) + 2
    near = [w for w in walls if w[0] < ux1 and ux0 < w[2] and w[1] < uy1 and uy0 < w[3]]
    if not near:
        return True
    probe = True
    qxs = range(2 * tx0 + 1, 2 * tx1 + 2, 2)
    qys = range(2 * ty0 + 1, 2 * ty1 + 2, 2)
    for py in range(2 * sy0 + 1, 2 * sy1 + 2, 2):
        for px in range(2 * sx0 + 1, 2 * sx1 + 2, 2):
            for qy in qys:
                miny, maxy = (py, qy) if py < qy else (qy, py)
                dy = qy - py
                for qx in qxs:
                    minx, maxx = (px, qx) if px < qx else (qx, px)
                    dx = qx - px
                    k = 0
                    if dx == 0 or dy == 0:
                        if dx == dy:
                            return True
                        # Axis-parallel: cut by a wall straddling the row or column it
                        # runs along (index i) where the two overlap (index j).
                        i, v, lo, hi = (0, px, miny, maxy) if dx == 0 else (1, py, minx, maxx)
                        j = 1 - i
                        for w in near:
                            if w[i] < v < w[i + 2] and w[j] < hi and lo < w[j + 2]:
                                break
                            k += 1
                        else:
                            return True
                    else:
                        for bx0, by0, bx1, by1 in near:
                            if bx0 >= maxx or bx1 <= minx or by0 >= maxy or by1 <= miny:
                                k += 1
                                continue
                            # The line passes strictly between the corners of the wall
                            # clipped to the line's bounding box.
                            c1 = dx * ((by0 if by0 > miny else miny) - py)
                            c2 = dx * ((by1 if by1 < maxy else maxy) - py)
                            d1 = dy * ((bx0 if bx0 > minx else minx) - px)
                            d2 = dy * ((bx1 if bx1 < maxx else maxx) - px)
                            e1, e2, e3, e4 = c1 - d1, c1 - d2, c2 - d1, c2 - d2
                            if (e1 < 0 or e2 < 0 or e3 < 0 or e4 < 0) and (
                                e1 > 0 or e2 > 0 or e3 > 0 or e4 > 0
                            ):
                                break
                            k += 1
                        else:
                            return True
                    if probe:
                        # The first line is cut: a wall that alone cuts every line
                        # (the usual hidden pair) settles it without trying them all.
                        probe = False
                        ac = (2 * sx0 + 1, 2 * sy0 + 1, 2 * sx1 + 1, 2 * sy1 + 1)
                        bc = (2 * tx0 + 1, 2 * ty0 + 1, 2 * tx1 + 1, 2 * ty1 + 1)
                        for w in near:
                            if _hides(ac, bc, w):
                                return False
                    if k:
                        near.insert(0, near.pop(k))
    return False


def _hides(
    a: tuple[int, int, int, int], b: tuple[int, int, int, int], w: tuple[int, int, int, int]
) -> bool:
    """True if the wall ``w`` alone cuts every line between the centres ``a`` and ``b``.

    ``a`` and ``b`` are the rectangles of their footprints' cell centres, all in doubled
    coordinates. Decided in O(1) when the two lie on opposite sides of the wall's row
    band (or column band), so every line spans the band; otherwise False (not known).
    """
    if a[3] <= w[1] and b[1] >= w[3]:
        return _hides_across(a, b, w)
    if b[3] <= w[1] and a[1] >= w[3]:
        return _hides_across(b, a, w)
    if a[2] <= w[0] and b[0] >= w[2]:
        return _hides_across((a[1], a[0], a[3], a[2]), (b[1], b[0], b[3], b[2]), _t(w))
    if b[2] <= w[0] and a[0] >= w[2]:
        return _hides_across((b[1], b[0], b[3], b[2]), (a[1], a[0], a[3], a[2]), _t(w))
    return False


def _t(w: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return w[1], w[0], w[3], w[2]


def _hides_across(
    a: tuple[int, int, int, int], b: tuple[int, int, int, int], w: tuple[int, int, int, int]
) -> bool:
    """`_hides` for ``a`` wholly south of the wall's open row band and ``b`` north of it.

    A line spanning the band misses the open wall iff its x at both band edges is at
    most the wall's west edge (passes west) or at least its east edge (passes east).
    That x never decreases as either end moves east, so the westmost ends decide
    "passes west" and the eastmost "passes east"; over the rows the extreme is at a
    corner row (the x at an edge is monotone in each end's row), so four rows pairs
    per side are tried, in integers (x scaled by the line's rise, which is positive).
    """
    wx0, wy0, wx1, wy1 = w
    for py in (a[1], a[3]):
        for qy in (b[1], b[3]):
            d = qy - py
            px, qx = a[0], b[0]
            edge = wx0 * d
            if px * d + (qx - px) * (wy0 - py) <= edge and px * d + (qx - px) * (wy1 - py) <= edge:
                return False
            px, qx = a[2], b[2]
            edge = wx1 * d
            if px * d + (qx - px) * (wy0 - py) >= edge and px * d + (qx - px) * (wy1 - py) >= edge:
                return False
    return True


def rectangles(cells: Iterable[Cell]) -> list[Rect]:
    """Cover a set of cells exactly with rectangles (row runs merged downwards).

    A segment crosses the interior of some cell of the set iff it crosses the interior of
    one of these rectangles (a seam between rectangles is a grid line, which an oblique
    segment meets only in points and a centre-to-centre axis segment never follows).
    """
    todo = set(cells)
    out: list[Rect] = []
    for cell in sorted(todo, key=lambda c: (c.y, c.x)):
        if cell not in todo:
            continue
        x1 = cell.x
        while Cell(x1 + 1, cell.y) in todo:
            x1 += 1
        y1 = cell.y
        while all(Cell(x, y1 + 1) in todo for x in range(cell.x, x1 + 1)):
            y1 += 1
        rect = Rect(cell.x, cell.y, x1, y1)
        todo.difference_update(rect.cells())
        out.append(rect)
    return out


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
