"""Blast markers, flame templates and scatter on the grid, in exact integer arithmetic.

Area weapons hit every model under a marker instead of rolling to hit model by model.
Warhammer 40,000 has round blast markers (3" and 5"), a teardrop flame template and a
scatter roll (digest wh40k6 §6.8.16, §11.6); other systems use the same shapes with other
sizes, so the geometry lives here once and each ruleset keeps its own numbers and rules
(who is hit, what a "hit" on the scatter die means).

Distances use the board's "5-10-5" measure; angles are compared through squared integer
dot products, never floats.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.board import Cell, distance
from engine.facing import VECTORS, towards

BLAST_RADIUS = 1
"""A 3" blast marker covers the cells within 1" of its centre (a 3x3 square)."""
LARGE_BLAST_RADIUS = 2
"""A 5" large blast covers the cells within 2" (5x5 without its four corners)."""
TEMPLATE_LENGTH = 8
"""The teardrop flame template reaches about 8" from the firer."""


def blast_cells(centre: Cell, radius: int) -> frozenset[Cell]:
    """Cells under a round marker: every cell within ``radius`` inches of ``centre``.

    The caller clips to the board. Radius 1 gives the 3x3 square of a 3" blast, radius 2
    the 5x5 square minus its corners of a 5" large blast (wh40k6 §11.6).
    """
    return frozenset(
        Cell(centre.x + dx, centre.y + dy)
        for dx in range(-radius, radius + 1)
        for dy in range(-radius, radius + 1)
        if distance(centre, Cell(centre.x + dx, centre.y + dy)) <= radius
    )


def _within_cone(wx: int, wy: int, ax: int, ay: int) -> bool:
    """True if vector w is at most 22.5° off vector a (exact).

    cos² 22.5° = (2 + √2) / 4, so the test is 4(w·a)² − 2|w|²|a|² ≥ √2 |w|²|a|² with a
    positive dot product; both sides are squared once more to stay in integers.
    """
    d = wx * ax + wy * ay
    if d <= 0:
        return False
    norms = (wx * wx + wy * wy) * (ax * ax + ay * ay)
    lhs = 4 * d * d - 2 * norms
    return lhs >= 0 and lhs * lhs >= 2 * norms * norms


def template_cells(origin: Cell, aim: Cell, length: int = TEMPLATE_LENGTH) -> frozenset[Cell]:
    """Cells under a teardrop template laid from ``origin`` towards ``aim``.

    The cells at most ``length`` inches from the origin whose direction lies within
    ±22.5° of the aim, plus the first cell next to the origin in the aim's direction
    (wh40k6 §11.6), so even a template aimed between two neighbours covers a cell. The
    origin itself is never covered. Empty if ``aim`` is the origin.
    """
    ax, ay = aim.x - origin.x, aim.y - origin.y
    first = towards(origin, aim)
    if first is None:
        return frozenset()
    fx, fy = VECTORS[first]
    cells = {Cell(origin.x + fx, origin.y + fy)}
    for dx in range(-length, length + 1):
        for dy in range(-length, length + 1):
            cell = Cell(origin.x + dx, origin.y + dy)
            if (dx or dy) and distance(origin, cell) <= length and _within_cone(dx, dy, ax, ay):
                cells.add(cell)
    return frozenset(cells)


def scatter_distance(roll_2d6: int, skill: int) -> int:
    """Inches a blast scatters: 2D6 minus the firer's skill, never below 0 (wh40k6 §11.6)."""
    return max(0, roll_2d6 - skill)


def scatter_direction(d8: int) -> int:
    """The facing (0 = north, clockwise) a D8 scatter roll points to: 1 = north ... 8 = NW."""
    if not 1 <= d8 <= 8:
        raise ValueError(f"a D8 shows 1..8, not {d8}")
    return d8 - 1


def scattered(centre: Cell, facing: int, inches: int) -> Cell:
    """Where a marker lands after moving ``inches`` towards ``facing``.

    Straight steps cost 1"; diagonal steps cost 1, 2, 1, 2 ... (the board's measure), so
    a diagonal scatter moves the largest number of steps whose cost fits.
    """
    dx, dy = VECTORS[facing % 8]
    steps = 0
    if dx and dy:
        while (steps + 1) + (steps + 1) // 2 <= inches:
            steps += 1
    else:
        steps = inches
    return Cell(centre.x + dx * steps, centre.y + dy * steps)


def cells_on_board(cells: frozenset[Cell], width: int, height: int) -> Iterator[Cell]:
    """The cells of an area that lie on a ``width`` x ``height`` board, in row order."""
    for cell in sorted(cells, key=lambda c: (c.y, c.x)):
        if 0 <= cell.x < width and 0 <= cell.y < height:
            yield cell
