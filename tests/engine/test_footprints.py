"""Footprints of whole-unit tokens: distances, grids, paths and sight lines (engine.footprints)."""

from __future__ import annotations

import random

from engine.board import Cell
from engine.footprints import (
    Grid,
    Rect,
    clear_anchors,
    footprint_views,
    gap_distance,
    halo,
    in_contact,
    rect_distance,
    square,
    wholly_within,
)
from engine.sight_lines import clear_lines, doubled, rectangles, sees, segment_crosses
from engine.token_reach import token_reach
from engine.view import ModelView


def test_cell_distances_follow_the_1_2_1_rule() -> None:
    """Digest apocalypse §9 D19: d((0,0),(5,3)) = 6, d((0,0),(4,4)) = 6, (1,1) touches."""
    assert gap_distance(5, 3) == 6
    assert gap_distance(4, 4) == 6
    assert gap_distance(1, 1) == 1


def test_unit_distance_and_wholly_within() -> None:
    """Digest apocalypse §9 D19: two 2x2 units 4" apart, one wholly within 6" of the other."""
    a = Rect(10, 5, 11, 6)
    b = Rect(14, 9, 15, 10)
    assert rect_distance(a, b) == 4
    assert wholly_within(a, b, 6)
    assert not wholly_within(a, b, 5)
    assert square(Cell(10, 5), 2) == a


def test_rect_distance_is_the_1_2_1_distance_of_the_gaps() -> None:
    """Footprints apart, touching, overlapping and inside each other, every way round."""
    from engine.footprints import _gaps

    rng = random.Random(3)
    for _ in range(3000):
        a, b = (
            Rect(x, y, x + rng.randrange(0, 5), y + rng.randrange(0, 5))
            for x, y in ((rng.randrange(-5, 20), rng.randrange(-5, 20)) for _ in range(2))
        )
        assert rect_distance(a, b) == gap_distance(*_gaps(a, b)) == rect_distance(b, a)


def test_contact_is_distance_one() -> None:
    a = square(Cell(0, 0), 2)
    assert in_contact(a, square(Cell(2, 2), 2))
    assert not in_contact(a, square(Cell(3, 0), 2))
    assert not in_contact(a, square(Cell(1, 1), 2))  # overlapping is not contact


def test_grid_counts_and_halo() -> None:
    grid = Grid.from_cells(10, 8, [Cell(2, 2), Cell(5, 5)])
    assert grid.count(0, 0, 9, 7) == 2
    assert grid.count(3, 3, 9, 7) == 1
    assert grid.count(-5, -5, 1, 1) == 0
    ring = halo(10, 8, [Rect(4, 4, 4, 4)], 1)
    assert ring.count(0, 0, 9, 7) == 9
    anchors = clear_anchors(grid, 2, Rect(0, 0, 3, 3))
    assert Cell(0, 0) in anchors and Cell(1, 1) not in anchors and Cell(2, 2) not in anchors


def test_a_grid_of_rectangles_flags_their_cells_as_one_of_cells_does() -> None:
    """Rectangles past every edge, empty ones, single cells and loose cells (some off the
    board): the same flags and counts as the grid of all their cells."""
    rng = random.Random(5)
    for _ in range(200):
        cols, rows = rng.randrange(1, 14), rng.randrange(1, 10)
        rects = []
        for _ in range(rng.randrange(0, 6)):
            x0, y0 = rng.randrange(-3, cols + 2), rng.randrange(-3, rows + 2)
            rects.append(Rect(x0, y0, x0 + rng.randrange(-1, 5), y0 + rng.randrange(-1, 4)))
        cells = [Cell(rng.randrange(-2, cols + 2), rng.randrange(-2, rows + 2)) for _ in range(3)]
        every = [c for r in rects for c in r.cells()] + cells
        fast, plain = Grid.from_rects(cols, rows, rects, cells), Grid.from_cells(cols, rows, every)
        assert list(map(bool, fast.flags)) == plain.flags and fast.sums == plain.sums


def test_grid_counts_any_rectangle_as_adding_its_flags_does() -> None:
    """Rectangles inside, across and past every edge, and empty ones (ends swapped)."""
    rng = random.Random(11)
    grid = Grid.from_cells(13, 9, [Cell(rng.randrange(13), rng.randrange(9)) for _ in range(40)])
    for _ in range(3000):
        x0, x1 = rng.randrange(-4, 17), rng.randrange(-4, 17)
        y0, y1 = rng.randrange(-4, 13), rng.randrange(-4, 13)
        plain = sum(
            grid.flags[y * 13 + x]
            for y in range(max(0, y0), min(8, y1) + 1)
            for x in range(max(0, x0), min(12, x1) + 1)
        )
        assert grid.count(x0, y0, x1, y1) == plain


def test_orthogonal_and_diagonal_steps_cost_like_distance() -> None:
    free = Grid(20, 20, [False] * 400)
    reach = token_reach(Cell(0, 0), 2, 6, free, free)
    assert reach[Cell(6, 0)] == 6
    assert reach[Cell(4, 4)] == 6  # diagonals 1, 2, 1, 2
    assert Cell(5, 5) not in reach


def test_climbing_costs_one_more_and_blocked_cells_bar_the_way() -> None:
    wall = Grid.from_cells(10, 3, [Cell(3, y) for y in range(3)])
    free = Grid(10, 3, [False] * 30)
    assert Cell(5, 0) not in token_reach(Cell(0, 0), 1, 9, wall, free)
    climb = Grid.from_cells(10, 3, [Cell(3, y) for y in range(3)])
    reach = token_reach(Cell(0, 0), 1, 9, free, climb)
    assert reach[Cell(3, 0)] == 4 and reach[Cell(5, 0)] == 6
    flying = token_reach(Cell(0, 0), 1, 9, wall, climb, fly=True)
    assert flying[Cell(5, 0)] == 5 and Cell(3, 0) not in flying


def test_occupied_cells_block_and_no_corner_squeezing() -> None:
    free = Grid(5, 5, [False] * 25)
    occupied = {1 * 5 + 2, 2 * 5 + 1}  # (2,1) and (1,2): a diagonal gap at (1,1)-(2,2)
    reach = token_reach(Cell(1, 1), 1, 1, free, free, occupied=occupied)
    assert Cell(2, 2) not in reach
    assert Cell(0, 0) in reach


def test_segments_touching_a_corner_do_not_cross() -> None:
    # From cell (0,0) to (2,2): the line passes exactly through the corner of (1,0).
    assert not segment_crosses(1, 1, 5, 5, Rect(1, 0, 1, 0))
    assert segment_crosses(1, 1, 5, 5, Rect(1, 1, 1, 1))
    assert segment_crosses(1, 1, 9, 1, Rect(2, 0, 2, 0))  # horizontal through a cell


def test_sees_agrees_with_the_plain_line_test() -> None:
    rng = random.Random(7)
    for _ in range(300):
        walls = [square(Cell(rng.randrange(20), rng.randrange(20)), rng.randrange(1, 4))]
        walls.append(Rect(rng.randrange(20), 5, rng.randrange(20, 25), 6))
        a = square(Cell(rng.randrange(22), rng.randrange(22)), rng.randrange(1, 4))
        b = square(Cell(rng.randrange(22), rng.randrange(22)), rng.randrange(1, 4))
        assert sees(a, b, doubled(walls)) == bool(clear_lines(a, b, walls))


def test_rectangles_cover_a_shape_exactly() -> None:
    cells = {Cell(x, y) for x in range(4) for y in range(3)} | {Cell(5, 5), Cell(6, 5)}
    rects = rectangles(cells)
    covered = [c for r in rects for c in r.cells()]
    assert sorted(covered) == sorted(cells)
    assert len(rects) == 2


def test_footprint_views_repeat_the_unit_on_every_cell() -> None:
    view = ModelView("A1", 0, "Tank", "K", Cell(3, 3), 4, 4)
    views = footprint_views(view, Rect(3, 3, 4, 4))
    assert [v.cell for v in views] == [Cell(3, 3), Cell(4, 3), Cell(3, 4), Cell(4, 4)]
    assert views[0].id == "A1" and views[1].id == "A1~1"
    assert "part of A1" in views[1].states


def test_clear_anchors_row_by_row_are_those_counted_one_by_one() -> None:
    """Every anchor inside the box (clipped to the board, past its edges too) whose
    footprint covers no flagged cell of either grid, as counting each footprint says;
    with occupied cells, those it covers are refused too. Row by row, west to east."""
    rng = random.Random(11)
    found = 0
    for _ in range(300):
        cols, rows = rng.randrange(1, 40), rng.randrange(1, 12)
        share = rng.random() / 2
        grid = Grid.from_cells(
            cols,
            rows,
            [Cell(x, y) for y in range(rows) for x in range(cols) if rng.random() < share],
        )
        avoid = Grid.from_cells(cols, rows, [Cell(rng.randrange(cols), rng.randrange(rows))])
        size = rng.randrange(1, 4)
        box = Rect(
            rng.randrange(-3, cols),
            rng.randrange(-3, rows),
            rng.randrange(cols + 3),
            rng.randrange(rows + 3),
        )
        within = None if rng.random() < 0.3 else box
        b = within or Rect(0, 0, cols - 1, rows - 1)
        k = size - 1
        occupied = {rng.randrange(cols * rows)} if rng.random() < 0.2 else set()
        for other in (None, avoid):
            want = [
                Cell(x, y)
                for y in range(max(b.y0, 0), min(b.y1, rows - 1) - k + 1)
                for x in range(max(b.x0, 0), min(b.x1, cols - 1) - k + 1)
                if not grid.count(x, y, x + k, y + k)
                and not (other is not None and other.count(x, y, x + k, y + k))
                and not any(
                    (y + dy) * cols + x + dx in occupied for dy in range(size) for dx in range(size)
                )
            ]
            assert clear_anchors(grid, size, within, occupied, avoid=other) == want
            found += len(want)
    assert found > 2000


def _plain_reach(
    start: Cell,
    size: int,
    budget: int,
    blocked: Grid,
    climb: Grid,
    occupied: set[int],
    fly: bool,
    stop: Grid | None,
) -> dict[Cell, int]:
    """`token_reach` as its docstring says it, for the test below: Dijkstra over anchor
    and diagonal parity, one step at a time, a step costing 1 more when the footprint
    newly covers a climb cell (never for a flying token)."""
    import heapq

    cols, rows, k = blocked.cols, blocked.rows, size - 1

    def cells(x: int, y: int) -> set[tuple[int, int]]:
        return {(x + dx, y + dy) for dx in range(size) for dy in range(size)}

    def clear(x: int, y: int, grid: Grid) -> bool:
        on = min(x, y) >= 0 and x + k < cols and y + k < rows
        return on and not any(
            grid.flags[b * cols + a] or b * cols + a in occupied for a, b in cells(x, y)
        )

    def passable(x: int, y: int) -> bool:
        return (min(x, y) >= 0 and x + k < cols and y + k < rows) if fly else clear(x, y, blocked)

    best = {(start.x, start.y, 0): 0}
    queue = [(0, start.x, start.y, 0)]
    while queue:
        cost, x, y, parity = heapq.heappop(queue)
        if best.get((x, y, parity)) != cost:
            continue
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            ax, ay = x + dx, y + dy
            if not passable(ax, ay):
                continue
            diagonal = bool(dx and dy)
            if diagonal and not (passable(x + dx, y) or passable(x, y + dy)):
                continue
            step, turned = (1 + parity, 1 - parity) if diagonal else (1, parity)
            new = cells(ax, ay) - cells(x, y)
            if not fly and any(climb.flags[b * cols + a] for a, b in new):
                step += 1
            if cost + step <= budget and best.get((ax, ay, turned), budget + 1) > cost + step:
                best[(ax, ay, turned)] = cost + step
                heapq.heappush(queue, (cost + step, ax, ay, turned))
    out: dict[Cell, int] = {}
    for (x, y, _), cost in sorted(best.items()):
        if (x, y) == tuple(start) or clear(x, y, stop or blocked):
            out[Cell(x, y)] = min(cost, out.get(Cell(x, y), cost))
    return out


def test_token_reach_is_the_plain_search_with_climbing_occupied_and_flying() -> None:
    """Random boards of walls and climb cells, tokens of 1 to 3 cells, budgets to 12,
    occupied cells, flying and a stop grid: the anchors and costs of the plain search."""
    rng = random.Random(13)
    climbed = 0
    for _ in range(250):
        cols, rows = rng.randrange(3, 16), rng.randrange(3, 12)
        size = rng.randrange(1, 4)
        if cols < size or rows < size:
            continue
        cells = [Cell(x, y) for y in range(rows) for x in range(cols)]
        blocked = Grid.from_cells(cols, rows, [c for c in cells if rng.random() < 0.12])
        climb = Grid.from_cells(cols, rows, [c for c in cells if rng.random() < 0.25])
        start = Cell(rng.randrange(cols - size + 1), rng.randrange(rows - size + 1))
        occupied = {rng.randrange(cols * rows) for _ in range(rng.randrange(3))}
        occupied -= {
            (start.y + dy) * cols + start.x + dx for dx in range(size) for dy in range(size)
        }
        fly, budget = rng.random() < 0.2, rng.randrange(1, 13)
        stop = Grid.from_cells(cols, rows, rng.sample(cells, 3)) if rng.random() < 0.3 else None
        got = token_reach(
            start, size, budget, blocked, climb, occupied=occupied, fly=fly, stop=stop
        )
        want = _plain_reach(start, size, budget, blocked, climb, occupied, fly, stop)
        assert got == want, (cols, rows, size, start, budget, fly)
        flat = Grid(cols, rows, [False] * (cols * rows))
        climbed += got != _plain_reach(start, size, budget, blocked, flat, occupied, fly, stop)
    assert climbed > 50  # climbing changed the answer that often
