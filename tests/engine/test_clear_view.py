"""Board.clear_view_of (flags by index, segments traced without building them) answers as
has_clear_view with the same cells blocking (killteam §11.4's "can see all of it")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.board import Board, Cell, Terrain

W, H = 8, 6
INDEXES = st.integers(0, W * H - 1)


@settings(max_examples=150, deadline=None)
@given(
    flags=st.lists(st.booleans(), min_size=W * H, max_size=W * H),
    skip=st.sets(INDEXES, max_size=6),
    extra=st.sets(INDEXES, max_size=4),
    a=st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)),
    b=st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)),
)
def test_clear_view_of_answers_as_has_clear_view(
    flags: list[bool],
    skip: set[int],
    extra: set[int],
    a: tuple[int, int],
    b: tuple[int, int],
) -> None:
    board = Board(W, H, ((Terrain.OPEN,) * W,) * H, ((0,) * W,) * H)
    start, end = Cell(*a), Cell(*b)

    def blocks(cell: Cell) -> bool:
        i = cell.y * W + cell.x
        return (flags[i] and i not in skip) or i in extra

    want = board.has_clear_view(start, end, blocks)
    assert board.clear_view_of(start, end, flags, skip=skip, extra=extra) == want


KINDS = st.sampled_from((Terrain.OPEN, Terrain.OPEN, Terrain.COVER, Terrain.BLOCKING))


@settings(max_examples=150, deadline=None)
@given(
    kinds=st.lists(KINDS, min_size=W * H, max_size=W * H),
    a=st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)),
    b=st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)),
)
def test_kill_team_terrain_saves_trace_only_the_cells_near_the_target(
    kinds: list[Terrain], a: tuple[int, int], b: tuple[int, int]
) -> None:
    """Kill Team's -1 to injury (obscured by terrain within 1" of the target) asks the
    segments about the cover and walls around the target only: the same answer as
    building all 25 segments and looking through their cells."""
    from engine.rulesets.killteam.geometry import _hidden, _terrain_saves

    rows = tuple(tuple(kinds[y * W : y * W + W]) for y in range(H))
    board = Board(W, H, rows, ((0,) * W,) * H)
    origin, spot = Cell(*a), Cell(*b)
    want = _hidden(board, origin, spot, frozenset()) and (
        board.kind(spot) is Terrain.COVER
        or any(
            board.kind(c) in (Terrain.COVER, Terrain.BLOCKING)
            and max(abs(c.x - spot.x), abs(c.y - spot.y)) <= 1
            for seg in board.segments(origin, spot)
            for c in seg
        )
    )
    assert _terrain_saves.__wrapped__(board, origin, spot) == want
