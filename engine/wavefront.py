"""Cheapest 1-2-1 paths over a whole grid at once, on bit sets.

Confrontation and fatigue move models by the same rule (orthogonal steps cost 1, diagonal
steps 1, 2, 1, ... along a path; a diagonal needs one of the two cells beside it open).
A cell by cell Dijkstra over (cell, diagonal parity) costs microseconds per step in
Python; here a whole set of cells is one integer with a bit per cell, rows of
``width + 1`` bits whose spare last bit is never open (so no step wraps onto the next
row), and one step of every cell of a set in one direction is one shift. Each state is
expanded at the first cost it is reached at, as in the Dijkstra, so the costs are the
same.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.board import Cell

DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1))
"""Steps in the order `climbs` masks are given: the four orthogonal ones first."""


def mask(cells: Iterable[Cell], width: int, height: int) -> int:
    """The bit set of ``cells`` (those on a ``width`` x ``height`` grid)."""
    row, out = width + 1, 0
    for x, y in cells:
        if 0 <= x < width and 0 <= y < height:
            out |= 1 << (y * row + x)
    return out


def climb_masks(heights: Mapping[Cell, int], width: int, height: int) -> tuple[int, ...]:
    """Per direction of `DIRECTIONS`, the cells whose step that way climbs or drops at
    most 1 (``heights`` of every cell of the grid): the ``climbs`` of `path_costs`."""
    return tuple(
        mask(
            (
                c
                for c, z in heights.items()
                if (n := Cell(c.x + dx, c.y + dy)) in heights and abs(heights[n] - z) <= 1
            ),
            width,
            height,
        )
        for dx, dy in DIRECTIONS
    )


def _shift(bits: int, by: int) -> int:
    return bits << by if by >= 0 else bits >> -by


def path_costs(
    width: int,
    open_: int,
    sources: int,
    *,
    sides: int,
    budget: int | None = None,
    wanted: int = 0,
    difficult: int = 0,
    climbs: Sequence[int] | None = None,
    chebyshev: bool = False,
) -> dict[Cell, int]:
    """Cheapest cost from any of ``sources`` (cost 0, open or not) to each cell reached.

    ``open_``: the cells a step may enter. ``sides``: the cells that let a diagonal pass
    beside them. ``difficult``: cells whose entering step costs double. ``climbs``: per
    direction of `DIRECTIONS`, the cells a step in that direction may leave (heights).
    ``chebyshev``: every diagonal costs 1. ``budget``: no path costs more. ``wanted``:
    stop once the cost at which the first wanted cell is reached is done.
    """
    row = width + 1
    side_ok = [  # sources whose diagonal step has an open side
        _shift(sides, -dx) | _shift(sides, -dy * row) for dx, dy in DIRECTIONS[4:]
    ]
    ways = _Ways(row, open_, difficult, side_ok, climbs, chebyshev)
    limit = -1 if budget is None else budget
    pending: dict[int, list[int]] = {0: [sources, 0]}
    visited, reached, found = [0, 0], 0, -1
    best: dict[Cell, int] = {}
    level = 0
    while pending and (found < 0 or level <= found):
        fronts = pending.pop(level, None)
        if fronts is not None:
            for parity in (0, 1):
                fronts[parity] &= ~visited[parity]
                visited[parity] |= fronts[parity]
            fresh = (fronts[0] | fronts[1]) & ~reached
            if fresh:
                reached |= fresh
                _record(best, fresh, row, level)
                if found < 0 and fresh & wanted:
                    found = level
            for parity in (0, 1):
                if fronts[parity]:
                    _spread(pending, fronts[parity], parity, level, limit, ways)
        level += 1
    return best


@dataclass(frozen=True, slots=True)
class _Ways:
    """How steps go on one search's grid."""

    row: int
    open_: int
    difficult: int
    side_ok: list[int]
    climbs: Sequence[int] | None
    chebyshev: bool


def _spread(
    pending: dict[int, list[int]], new: int, parity: int, level: int, limit: int, ways: _Ways
) -> None:
    """Every step from the states ``new`` (cost ``level``, diagonal ``parity``)."""
    row, climbs = ways.row, ways.climbs
    straight = diagonal = 0
    for d, (dx, dy) in enumerate(DIRECTIONS):
        src = new if climbs is None else new & climbs[d]
        if d < 4:
            straight |= _shift(src, dy * row + dx)
        else:
            diagonal |= _shift(src & ways.side_ok[d - 4], dy * row + dx)
    step = 1 if ways.chebyshev else 1 + parity
    turn = parity if ways.chebyshev else parity ^ 1
    for states, price, after in ((straight, 1, parity), (diagonal, step, turn)):
        states &= ways.open_
        if states:
            _push(pending, level + price, after, states & ~ways.difficult, limit)
            _push(pending, level + 2 * price, after, states & ways.difficult, limit)


def _push(pending: dict[int, list[int]], cost: int, parity: int, states: int, limit: int) -> None:
    if states and (limit < 0 or cost <= limit):
        fronts = pending.setdefault(cost, [0, 0])
        fronts[parity] |= states


def _record(best: dict[Cell, int], cells: int, row: int, cost: int) -> None:
    """Each cell of the bit set ``cells`` costs ``cost``."""
    bits = format(cells, "b")[::-1]
    table = _cells_by_bit(row, len(bits))
    i = bits.find("1")
    while i >= 0:
        best[table[i]] = cost
        i = bits.find("1", i + 1)


_BY_BIT: dict[int, list[Cell]] = {}
"""Per row length: the cell of each bit index (``y * row + x``), made once and grown."""


def _cells_by_bit(row: int, size: int) -> list[Cell]:
    """The cells of bit indexes 0 to ``size - 1`` on rows ``row`` bits long."""
    table = _BY_BIT.get(row)
    if table is None or len(table) < size:
        table = _BY_BIT[row] = [Cell(i % row, i // row) for i in range(size)]
    return table
