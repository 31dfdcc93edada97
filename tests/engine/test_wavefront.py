"""engine.wavefront finds what a plain Dijkstra over (cell, diagonal parity) finds, on
random grids: closed cells, sides that let a diagonal pass, difficult ground, heights,
Chebyshev diagonals, budgets and wanted cells."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Cell
from engine.wavefront import DIRECTIONS, climb_masks, mask, path_costs

W, H = 9, 7


def _dijkstra(
    open_: set[Cell],
    sides: set[Cell],
    difficult: set[Cell],
    heights: dict[Cell, int] | None,
    chebyshev: bool,
    sources: list[Cell],
    budget: int | None,
    wanted: set[Cell],
) -> dict[Cell, int]:
    """The movement rule read plainly, cell by cell."""
    queue = [(0, c.x, c.y, 0) for c in sources]
    heapq.heapify(queue)
    done: set[tuple[Cell, int]] = set()
    best: dict[Cell, int] = {}
    found: int | None = None
    while queue:
        cost, x, y, parity = heapq.heappop(queue)
        if found is not None and cost > found:
            break
        here = Cell(x, y)
        if (here, parity) in done:
            continue
        done.add((here, parity))
        best.setdefault(here, cost)
        if here in wanted and found is None:
            found = cost
        for dx, dy in DIRECTIONS:
            there = Cell(x + dx, y + dy)
            if there not in open_:
                continue
            if heights is not None and abs(heights[there] - heights[here]) > 1:
                continue
            if dx and dy:
                if Cell(x + dx, y) not in sides and Cell(x, y + dy) not in sides:
                    continue
                step = 1 if chebyshev else 1 + parity
                after = parity if chebyshev else parity ^ 1
            else:
                step, after = 1, parity
            total = cost + step * (2 if there in difficult else 1)
            if budget is None or total <= budget:
                heapq.heappush(queue, (total, there.x, there.y, after))
    return best


ALL = [Cell(x, y) for y in range(H) for x in range(W)]
FLAGS = st.lists(st.booleans(), min_size=W * H, max_size=W * H)
CELLS = st.sampled_from(ALL)


@settings(max_examples=200, deadline=None)
@given(
    closed=FLAGS,
    blocked=st.sets(CELLS, max_size=8),
    rough=FLAGS,
    levels=st.one_of(st.none(), st.lists(st.integers(0, 3), min_size=W * H, max_size=W * H)),
    chebyshev=st.booleans(),
    sources=st.lists(CELLS, min_size=1, max_size=2),
    budget=st.one_of(st.none(), st.integers(0, 12)),
    wanted=st.sets(CELLS, max_size=2),
)
def test_the_wavefront_finds_the_plain_dijkstra_costs(
    closed: list[bool],
    blocked: set[Cell],
    rough: list[bool],
    levels: list[int] | None,
    chebyshev: bool,
    sources: list[Cell],
    budget: int | None,
    wanted: set[Cell],
) -> None:
    sides = {c for c, shut in zip(ALL, closed, strict=True) if not shut}
    open_ = sides - blocked
    difficult = {c for c, r in zip(ALL, rough, strict=True) if r and c in sides}
    heights = None if levels is None else dict(zip(ALL, levels, strict=True))
    climbs = None if heights is None else climb_masks(heights, W, H)
    got = path_costs(
        W,
        mask(open_, W, H),
        mask(sources, W, H),
        sides=mask(sides, W, H),
        budget=budget,
        wanted=mask(wanted, W, H),
        difficult=mask(difficult, W, H),
        climbs=climbs,
        chebyshev=chebyshev,
    )
    want = _dijkstra(open_, sides, difficult, heights, chebyshev, sources, budget, wanted)
    assert got == want


def test_difficult_ground_doubles_the_step_into_it() -> None:
    """Steps east into difficult, then open, then open ground cost 2, 1 and 1."""
    everything = mask(ALL, W, H)
    rough = mask([Cell(1, 0)], W, H)
    row = [c for c in ALL if c.y == 0]
    got = path_costs(
        W, mask(row, W, H), mask([Cell(0, 0)], W, H), sides=everything, difficult=rough
    )
    assert [got[Cell(x, 0)] for x in range(4)] == [0, 2, 3, 4]
