"""Board: distance (5-10-5), movement costs, line of sight (digest killteam §11)."""

from __future__ import annotations

from engine.board import Cell, Terrain, distance
from engine.scenario import parse_scenario


def board_of(rows: list[str]):  # type: ignore[no-untyped-def]
    text = (
        'name="t"\nruleset="killteam"\ndescription="t"\nrounds=1\nsides=["a","b"]\n[map]\n'
        "rows = [" + ",".join(f'"{r}"' for r in rows) + "]\n"
    )
    return parse_scenario(text, "<t>").board


def test_distance_every_second_diagonal_costs_two() -> None:
    assert distance(Cell(0, 0), Cell(7, 0)) == 7
    assert distance(Cell(0, 0), Cell(3, 3)) == 4
    assert distance(Cell(0, 0), Cell(4, 2)) == 5
    assert distance(Cell(0, 0), Cell(0, 0), 0, 9) == 9
    assert distance(Cell(0, 0), Cell(4, 0), 0, 3) == 5


def test_rows_are_read_north_first() -> None:
    board = board_of(["#...", "....", "....", "...o"])
    assert board.kind(Cell(0, 3)) is Terrain.BLOCKING
    assert board.kind(Cell(3, 0)) is Terrain.COVER


def test_reachable_costs_alternate_diagonals() -> None:
    board = board_of(["." * 8] * 8)
    reach = board.reachable(Cell(0, 0), 3, can_enter=lambda c: True)
    assert reach[Cell(2, 2)].cost == 3
    assert Cell(3, 3) not in reach
    assert reach[Cell(3, 0)].cost == 3


def test_no_corner_cutting_past_walls() -> None:
    board = board_of(["....", "....", ".#..", "...."])  # wall at (1,1)
    reach = board.reachable(Cell(0, 0), 1, can_enter=lambda c: True)
    assert Cell(1, 1) not in reach
    reach = board.reachable(Cell(1, 0), 1, can_enter=lambda c: True)
    assert Cell(0, 1) not in reach and Cell(2, 1) not in reach  # both cut past (1,1)
    assert Cell(0, 0) in reach and Cell(2, 0) in reach


def test_climbing_costs_height_and_jumping_down_is_free() -> None:
    board = board_of(["......", "......", "PP....", "......"])  # platform z=3 at y=1
    reach = board.reachable(Cell(0, 0), 3, can_enter=lambda c: True)
    assert Cell(0, 1) not in reach  # 1 step + 3 climb = 4 > 3
    up = board.reachable(Cell(0, 0), 4, can_enter=lambda c: True)
    assert up[Cell(0, 1)].cost == 4
    down = board.reachable(Cell(0, 1), 1, can_enter=lambda c: True)
    assert down[Cell(0, 0)].cost == 1 and down[Cell(0, 0)].drop == 0


def test_walls_block_sight_models_do_not_matter_to_the_board() -> None:
    board = board_of(["........", "...#....", "...#....", "...#....", "........"])
    assert not board.has_line_of_sight(Cell(1, 2), Cell(6, 2))
    assert board.has_line_of_sight(Cell(1, 0), Cell(6, 0))
    assert board.has_line_of_sight(Cell(1, 4), Cell(6, 3))  # over the wall's end


def test_sight_is_symmetric_on_an_open_row() -> None:
    board = board_of(["......", "......", "..o...", "......"])
    a, b = Cell(0, 1), Cell(5, 1)
    assert board.has_line_of_sight(a, b) and board.has_line_of_sight(b, a)
    assert any(Cell(2, 1) in seg for seg in board.segments(a, b))


def test_segment_through_a_corner_touches_all_four_cells() -> None:
    board = board_of(["....", "....", "....", "...."])
    segs = board.segments(Cell(0, 0), Cell(2, 2))
    centre_to_centre = segs[0]
    assert Cell(1, 1) in centre_to_centre
    assert {Cell(0, 1), Cell(1, 0)} <= centre_to_centre | {Cell(0, 0)}


def test_cheapest_stops_early_yet_answers_as_the_whole_search() -> None:
    """`Board.cheapest` (the search stopped at the first goal settled without a jump
    down) gives the least cost the whole `reachable` search gives any goal, on random
    boards with walls, floors a drop of more than 6" apart, cells the mover may not
    enter, walking and flying, goals near and far (some out of reach, some walls)."""
    import random

    from engine.board import Board, Cell, Terrain

    rng = random.Random(23)
    jumped = early = 0
    for _ in range(300):
        w, h = rng.randrange(4, 12), rng.randrange(4, 10)
        kinds = (Terrain.OPEN,) * 5 + (Terrain.BLOCKING, Terrain.IMPASSABLE, Terrain.COVER)
        terrain = tuple(tuple(rng.choice(kinds) for _ in range(w)) for _ in range(h))
        floors = (0, 0, 0, 1, 3, 8, 14)
        elevation = tuple(tuple(rng.choice(floors) for _ in range(w)) for _ in range(h))
        board = Board(w, h, terrain, elevation)
        barred = {Cell(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randrange(4))}
        start = Cell(rng.randrange(w), rng.randrange(h))
        goals = {Cell(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randrange(1, 4))}
        budget, fly = rng.randrange(1, 16), rng.random() < 0.2

        def can_enter(cell: Cell, barred: set[Cell] = barred) -> bool:
            return cell not in barred

        reach = board.reachable(start, budget, can_enter=can_enter, fly=fly)
        want = min((reach[c].cost for c in goals if c in reach), default=None)
        got = board.cheapest(start, budget, goals, can_enter=can_enter, fly=fly)
        assert got == want, (start, goals, budget, fly)
        jumped += any(reach[c].drop for c in goals if c in reach)
        early += want is not None
    assert jumped > 5 and early > 100


def test_cheapest_without_drops_searches_towards_the_goals_to_the_same_answer() -> None:
    """Where no step jumps down (floors at most 5" apart) `Board.cheapest` searches
    towards the goals (A*, each state's estimate the open flat board's cost to the goals'
    bounding box): on random boards with walls, climbs, cells the mover may not enter and
    goals spread apart, on foot and flying, it gives the least cost the whole `reachable`
    search gives any goal, at every budget."""
    import random

    from engine.board import Board, Cell, Terrain

    rng = random.Random(29)
    found = 0
    for _ in range(300):
        w, h = rng.randrange(4, 16), rng.randrange(4, 14)
        kinds = (Terrain.OPEN,) * 5 + (Terrain.BLOCKING, Terrain.IMPASSABLE, Terrain.COVER)
        terrain = tuple(tuple(rng.choice(kinds) for _ in range(w)) for _ in range(h))
        floors = (0, 0, 0, 1, 2, 3, 5)
        elevation = tuple(tuple(rng.choice(floors) for _ in range(w)) for _ in range(h))
        board = Board(w, h, terrain, elevation)
        assert not board._drops()
        barred = {Cell(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randrange(6))}
        start = Cell(rng.randrange(w), rng.randrange(h))
        goals = {Cell(rng.randrange(w), rng.randrange(h)) for _ in range(rng.randrange(1, 5))}
        fly = rng.random() < 0.2

        def can_enter(cell: Cell, barred: set[Cell] = barred) -> bool:
            return cell not in barred

        for budget in range(0, 16):
            reach = board.reachable(start, budget, can_enter=can_enter, fly=fly)
            want = min((reach[c].cost for c in goals if c in reach), default=None)
            got = board.cheapest(start, budget, goals, can_enter=can_enter, fly=fly)
            assert got == want, (start, goals, budget, fly)
            found += want is not None and want > 3
    assert found > 500


def test_walls_only_sight_counts_each_column_as_the_cell_by_cell_trace() -> None:
    """Walls-only sight (`Board.has_line_of_sight`) counts a segment's walls column by
    column from prefix sums: on random boards, every one of the 25 segments between
    random cells (ends on walls, on the edges and equal ends too) crosses a wall exactly
    when the cell-by-cell trace of the same segment meets one."""
    import random

    from engine.board import Board, Cell, Terrain

    rng = random.Random(5)
    blocked = clear = 0
    for _ in range(40):
        w, h = rng.randrange(2, 18), rng.randrange(2, 14)
        share = rng.random() / 2
        terrain = tuple(
            tuple(Terrain.BLOCKING if rng.random() < share else Terrain.OPEN for _ in range(w))
            for _ in range(h)
        )
        board = Board(w, h, terrain, tuple((0,) * w for _ in range(h)))
        for _ in range(60):
            a, b = (
                Cell(rng.randrange(w), rng.randrange(h)),
                Cell(rng.randrange(w), rng.randrange(h)),
            )
            for k in range(25):
                traced = board._cut(a, b, k, board._blocking, (), ())
                assert board._wall_on(a, b, k) == traced, (a, b, k)
                blocked += traced
                clear += not traced
    assert blocked > 5000 and clear > 5000


def test_sight_segments_traced_once_per_offset_are_the_traced_segments_moved() -> None:
    """`engine.grid_sight._spans` (segment ``k`` from cell (0, 0) to an offset, kept) moved by
    the first cell gives the very spans `segment_spans` traces between the two cells,
    at any offset, in any direction, for all 25 sample segments."""
    import random

    from engine.grid_segments import segment_spans
    from engine.grid_sight import _SAMPLES, _spans

    rng = random.Random(31)
    for _ in range(20_000):
        ax, ay, bx, by = (rng.randrange(0, 60) for _ in range(4))
        k = rng.randrange(25)
        (sx, sy), (tx, ty) = _SAMPLES[k // 5], _SAMPLES[k % 5]
        want = segment_spans(10 * ax + sx, 10 * ay + sy, 10 * bx + tx, 10 * by + ty)
        got = [(x + ax, first + ay, last + ay) for x, first, last in _spans(bx - ax, by - ay, k)]
        assert got == want, (ax, ay, bx, by, k)
