"""Which cells of a grid a straight segment touches, exactly, in integers.

Segments run on a grid ten times finer than the cells (cell corners and centres are
integers there); Kill Team's sight lines and terrain traces are made of them. Kept apart
from `engine.board` so its exact arithmetic can be read and tested on its own.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations


def segment_cells(x0: int, y0: int, x1: int, y1: int, width: int) -> set[int]:
    """Indexes ``y * width + x`` of the cells (closed squares of side 10) a segment touches."""
    return {
        cy * width + cx
        for cx, first, last in segment_spans(x0, y0, x1, y1)
        for cy in range(first, last + 1)
    }


def segment_spans(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int, int]]:
    """Per column a segment (on the 10x grid) touches: the column, first and last row.

    Exact in integers: column by column, the segment's y-extent within the column is
    kept as a numerator over ``dx``; a segment touching a cell boundary touches both cells.
    """
    if x0 > x1:
        x0, y0, x1, y1 = x1, y1, x0, y0
    out = []
    dx, dy = x1 - x0, y1 - y0
    for cx in range(x0 // 10, x1 // 10 + 1):
        if dx == 0:
            lo, hi, step = min(y0, y1), max(y0, y1), 10
        else:
            xa = max(10 * cx, x0)
            xb = min(10 * cx + 10, x1)
            ya = y0 * dx + (xa - x0) * dy
            yb = y0 * dx + (xb - x0) * dy
            lo, hi, step = (ya, yb, 10 * dx) if ya <= yb else (yb, ya, 10 * dx)
        first = lo // step - (1 if lo % step == 0 else 0)
        out.append((cx, first, hi // step))
    return out
