"""Confrontation's paths (engine.wavefront: obstacles are walls and models in the way, a
diagonal needs one side free of both) are those of a plain Dijkstra over (cell, diagonal
parity) (digest confrontation §11, Distance), on random maps, blockers, budgets and
wanted cells."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Cell
from engine.rulesets.confrontation.geometry import _path_costs
from tests.engine.test_wavefront import _dijkstra
from tests.rulesets.confrontation.table import Table

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
    open_ = {c for c in board.cells() if board.is_standable(c)} - blocked
    assert got == _dijkstra(open_, open_, set(), None, False, sources, budget, wanted)


def test_a_diagonal_past_one_open_side_costs_one_then_two() -> None:
    """(0,0) -> (1,1) -> (2,2): the first diagonal costs 1, the second 2; the wall at
    (1,0) leaves the side (0,1) open, so the step is allowed (rows: north first)."""
    board = Table(rows=["....", "....", "....", ".#.."]).state.board
    costs = _path_costs(board, [Cell(0, 0)], set(), None, ())
    assert costs[Cell(1, 1)] == 1 and costs[Cell(2, 2)] == 3 and Cell(1, 0) not in costs
