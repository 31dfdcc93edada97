"""All-pairs sight in arrays (engine.sight_arrays) against the pair-by-pair test."""

from __future__ import annotations

import random

from engine.board import Cell
from engine.footprints import Rect, square
from engine.sight_arrays import sees_all
from engine.sight_lines import doubled, sees


def _battle(rng: random.Random, units: int, walls: int) -> tuple[list[Rect], list[Rect]]:
    """Footprints of sizes 1 to 4 and walls (thin, square, long) on a 40 x 30 table;
    footprints may overlap each other and walls, lines may run along rows and columns."""
    rects = [
        square(Cell(rng.randrange(38), rng.randrange(28)), rng.randrange(1, 5))
        for _ in range(units)
    ]
    blocks = [
        Rect(x, y, x + rng.randrange(0, 6), y + rng.randrange(0, 3))
        for x, y in ((rng.randrange(36), rng.randrange(28)) for _ in range(walls))
    ]
    return rects, blocks


def test_all_pairs_in_arrays_answer_as_each_pair_alone() -> None:
    """Every pair of random battles (hidden, seen, axis-parallel, behind one wall or two)
    gets `sees`'s answer, both ways round; the diagonal sees itself."""
    rng = random.Random(17)
    seen = hidden = 0
    for trial in range(40):
        rects, blocks = _battle(rng, rng.randrange(2, 40), rng.randrange(0, 12))
        walls = doubled(blocks)
        table = sees_all(rects, walls)
        for i, a in enumerate(rects):
            assert table[i][i]
            for j, b in enumerate(rects[i + 1 :], start=i + 1):
                want = sees(a, b, walls)
                assert table[i][j] == table[j][i] == want, (trial, a, b)
                seen += want
                hidden += not want
    assert seen > 1000 and hidden > 1000


def test_far_coordinates_keep_exact_integers() -> None:
    """Footprints beyond the 32-bit range of the products are measured in 64 bits: a
    wall one cell wide and 21 high halfway along a 10,000-cell line."""
    walls = doubled([Rect(5_000, 0, 5_000, 20)])
    a = square(Cell(0, 5), 1)
    across, slanting, over = (square(Cell(9_999, y), 1) for y in (5, 25, 60))
    table = sees_all([a, across, slanting, over], walls)
    assert table[0][1:] == [False, False, True]
    assert table[0][1:] == [sees(a, b, walls) for b in (across, slanting, over)]
