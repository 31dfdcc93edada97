"""Sight lines between whole-unit footprints, traced against terrain rectangles.

Lines run from cell centre to cell centre in doubled coordinates (so centres are
integers) and are tested against rectangles of terrain, never cell by cell, fast enough
for all pairs of hundreds of units (engine.footprints holds the footprints themselves).
What blocks sight stays in each ruleset, which passes the rectangles in.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.board import Cell
from engine.footprints import Rect, overlaps


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
