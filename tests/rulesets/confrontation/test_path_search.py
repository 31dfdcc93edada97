"""The wavefront path search (bit sets) finds what a plain Dijkstra over (cell, diagonal
parity) finds (digest confrontation §11, Distance), on random maps, blockers, budgets and
wanted cells."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board, Cell
from engine.rulesets.confrontation.geometry import _path_costs
from tests.rulesets.confrontation.table import Table


def _dijkstra(
    board: Board,
    sources: list[Cell],
    blocked: set[Cell],
    budget: int | None,
    wanted: set[Cell],
) -> dict[Cell, int]:
    """§11 read plainly: orthogonal steps cost 1, diagonals 1, 2, 1, ... along the path,
    a diagonal needs one of the two cells beside it open; stop after the cost at which
    the first wanted cell is reached."""

    def open_(c: Cell) -> bool:
        return c in board and board.is_standable(c) and c not in blocked

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
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                there = Cell(x + dx, y + dy)
                if (dx, dy) == (0, 0) or not open_(there):
                    continue
                if dx and dy:
                    if not (open_(Cell(x + dx, y)) or open_(Cell(x, y + dy))):
                        continue
                    total, next_parity = cost + 1 + parity, parity ^ 1
                else:
                    total, next_parity = cost + 1, parity
                if budget is None or total <= budget:
                    heapq.heappush(queue, (total, there.x, there.y, next_parity))
    return best


CELLS = st.tuples(st.integers(0, 11), st.integers(0, 8)).map(lambda p: Cell(*p))


@settings(max_examples=150, deadline=None)
@given(
    walls=st.lists(st.lists(st.booleans(), min_size=12, max_size=12), min_size=9, max_size=9),
    sources=st.lists(CELLS, min_size=1, max_size=3),
    blocked=st.sets(CELLS, max_size=12),
    budget=st.one_of(st.none(), st.integers(0, 14)),
    wanted=st.sets(CELLS, max_size=3),
)
def test_the_wavefront_search_finds_the_plain_dijkstra_costs(
    walls: list[list[bool]],
    sources: list[Cell],
    blocked: set[Cell],
    budget: int | None,
    wanted: set[Cell],
) -> None:
    board = Table(rows=["".join("#" if w else "." for w in row) for row in walls]).state.board
    got = _path_costs(board, sources, blocked, budget, wanted)
    assert got == _dijkstra(board, sources, blocked, budget, wanted)


def test_a_diagonal_past_one_open_side_costs_one_then_two() -> None:
    """(0,0) -> (1,1) -> (2,2): the first diagonal costs 1, the second 2; the wall at
    (1,0) leaves the side (0,1) open, so the step is allowed (rows: north first)."""
    board = Table(rows=["....", "....", "....", ".#.."]).state.board
    costs = _path_costs(board, [Cell(0, 0)], set(), None, ())
    assert costs[Cell(1, 1)] == 1 and costs[Cell(2, 2)] == 3 and Cell(1, 0) not in costs
