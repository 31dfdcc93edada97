"""Sight between every pair of many footprints at once, in arrays (numpy).

`engine.sight_lines.sees` answers one pair in Python; asking it of all 44,850 pairs of
300 units costs a few microseconds a pair, mostly the interpreter's (85 ms). Here the
pairs are answered together, by the same integer tests, in the order that settles most
pairs soonest (32 ms):

1. no wall meets the pair's joint bounding box: it sees;
2. one of three lines (middle cell to middle cell, south-west corner to south-west
   corner, north-east to north-east) crosses no wall: it sees;
3. one wall alone cuts every line between them (`sight_lines._hides`): it does not;
4. what is left (one pair in sixty) goes to `sees`, line by line.

Every step is exact (a clear line proves sight, a hiding wall disproves it), so the
answers are `sees`'s; tests hold the two to each other. numpy is imported on first use:
it takes longer to import than a small battle takes to play.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.footprints import Rect
from engine.sight_lines import sees

Box = tuple[int, int, int, int]


def sees_all(rects: Sequence[Rect], walls: Sequence[Box]) -> list[list[bool]]:
    """`sees` (a, b, walls) for every pair of ``rects``: row i, column j (both ways)."""
    import numpy as np

    n = len(rects)
    array = np.array(rects, dtype=_dtype(np, rects)).reshape(-1, 4)
    i, j = np.triu_indices(n, 1)
    table = np.ones((n, n), dtype=bool)
    found = _sees(np, array, i, j, rects, walls)
    table[i, j] = found
    table[j, i] = found
    out: list[list[bool]] = table.tolist()
    return out


SMALL = 4_000
"""Cell coordinates below this (maps are at most 400 cells a side) keep every product of
the tests within 32 bits, which halve the memory the arrays sweep."""


def _dtype(np: Any, rects: Sequence[Rect]) -> Any:
    small = all(-SMALL < v < SMALL for r in rects for v in r)
    return np.int32 if small else np.int64


def _sees(np: Any, rects: Any, i: Any, j: Any, plain: Sequence[Rect], walls: Sequence[Box]) -> Any:
    """Whether ``rects[i]`` sees ``rects[j]``, for the index arrays ``i`` and ``j``."""
    seen = np.ones(len(i), dtype=bool)
    if not walls or not len(i):
        return seen
    w = np.array(walls, dtype=rects.dtype).reshape(-1, 4)
    wx0, wy0, wx1, wy1 = (w[None, :, k] for k in range(4))
    # 1. walls meeting the joint bounding box (doubled: cells' open boxes)
    s, t = rects[i], rects[j]
    lo, hi = 2 * np.minimum(s[:, :2], t[:, :2]), 2 * np.maximum(s[:, 2:], t[:, 2:]) + 2
    near = (wx0 < hi[:, 0:1]) & (lo[:, 0:1] < wx1) & (wy0 < hi[:, 1:2]) & (lo[:, 1:2] < wy1)
    todo = np.flatnonzero(near.any(axis=1))
    s, t, near = s[todo], t[todo], near[todo]
    # 2. a few lines: between the middle cells, the south-west and the north-east corners
    for line in range(3):
        if line == 0:
            p, q = (s[:, :2] + s[:, 2:]) // 2, (t[:, :2] + t[:, 2:]) // 2
        else:
            p, q = (s[:, :2], t[:, :2]) if line == 1 else (s[:, 2:], t[:, 2:])
        p, q = 2 * p + 1, 2 * q + 1
        cut = _crosses(np, p[:, 0:1], p[:, 1:2], q[:, 0:1], q[:, 1:2], wx0, wy0, wx1, wy1)
        cut = (cut & near).any(axis=1)
        todo, s, t, near = todo[cut], s[cut], t[cut], near[cut]
    # 3. a wall hiding every line: centres in doubled coordinates
    hides = (_hides(np, 2 * s + 1, 2 * t + 1, (wx0, wy0, wx1, wy1)) & near).any(axis=1)
    seen[todo] = False
    for k in todo[~hides].tolist():
        seen[k] = sees(plain[i[k]], plain[j[k]], walls)
    return seen


def _crosses(
    np: Any, px: Any, py: Any, qx: Any, qy: Any, bx0: Any, by0: Any, bx1: Any, by1: Any
) -> Any:
    """`sight_lines.segment_crosses` on arrays (lines down, walls across)."""
    lox, hix = np.maximum(bx0, np.minimum(px, qx)), np.minimum(bx1, np.maximum(px, qx))
    loy, hiy = np.maximum(by0, np.minimum(py, qy)), np.minimum(by1, np.maximum(py, qy))
    dx, dy = qx - px, qy - py
    c1, c2 = dx * (loy - py), dx * (hiy - py)
    d1, d2 = dy * (lox - px), dy * (hix - px)
    e = (c1 - d1, c1 - d2, c2 - d1, c2 - d2)
    lo = np.minimum(np.minimum(e[0], e[1]), np.minimum(e[2], e[3]))
    hi = np.maximum(np.maximum(e[0], e[1]), np.maximum(e[2], e[3]))
    oblique = (lox < hix) & (loy < hiy) & (lo < 0) & (hi > 0)
    upright = (bx0 < px) & (px < bx1) & (loy < hiy)
    level = (by0 < py) & (py < by1) & (lox < hix)
    return np.where(dx == 0, upright, np.where(dy == 0, level, oblique))


def _hides(np: Any, a: Any, b: Any, w: tuple[Any, ...]) -> Any:
    """`sight_lines._hides` on arrays: ``a`` and ``b`` rectangles of centres, one pair a
    row, ``w`` the walls across."""
    ax0, ay0, ax1, ay1 = (a[:, i : i + 1] for i in range(4))
    bx0, by0, bx1, by1 = (b[:, i : i + 1] for i in range(4))
    wx0, wy0, wx1, wy1 = w
    south = (ay1 <= wy0) & (by0 >= wy1)
    north = (by1 <= wy0) & (ay0 >= wy1)
    west = (ax1 <= wx0) & (bx0 >= wx1)
    east = (bx1 <= wx0) & (ax0 >= wx1)
    return np.select(
        [south, north, west, east],
        [
            _across(np, (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1), w),
            _across(np, (bx0, by0, bx1, by1), (ax0, ay0, ax1, ay1), w),
            _across(np, (ay0, ax0, ay1, ax1), (by0, bx0, by1, bx1), (wy0, wx0, wy1, wx1)),
            _across(np, (by0, bx0, by1, bx1), (ay0, ax0, ay1, ax1), (wy0, wx0, wy1, wx1)),
        ],
        False,
    )


def _across(np: Any, a: tuple[Any, ...], b: tuple[Any, ...], w: tuple[Any, ...]) -> Any:
    """`sight_lines._hides_across` on arrays."""
    wx0, wy0, wx1, wy1 = w
    out = True
    for py in (a[1], a[3]):
        for qy in (b[1], b[3]):
            d = qy - py
            px, qx = a[0], b[0]
            edge = wx0 * d
            west = (px * d + (qx - px) * (wy0 - py) <= edge) & (
                px * d + (qx - px) * (wy1 - py) <= edge
            )
            px, qx = a[2], b[2]
            edge = wx1 * d
            east = (px * d + (qx - px) * (wy0 - py) >= edge) & (
                px * d + (qx - px) * (wy1 - py) >= edge
            )
            out = out & ~west & ~east
    return out
