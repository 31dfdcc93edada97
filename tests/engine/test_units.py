"""Unit coherency, group distance and centroids (engine.units, shared by rulesets)."""

from __future__ import annotations

import pytest

from engine.board import Cell
from engine.units import (
    centroid,
    coherency_groups,
    group_distance,
    is_coherent,
    is_linked_to,
    stragglers,
)


def chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a.x - b.x), abs(a.y - b.y))


def test_a_chain_within_the_link_is_coherent() -> None:
    cells = [Cell(0, 0), Cell(2, 0), Cell(4, 0), Cell(4, 2)]
    assert is_coherent(cells, 2)
    assert not is_coherent(cells, 1)


def test_groups_are_largest_first_and_stragglers_are_the_rest() -> None:
    cells = [Cell(9, 9), Cell(0, 0), Cell(1, 1), Cell(2, 0)]
    assert coherency_groups(cells, 2) == [[1, 2, 3], [0]]
    assert stragglers(cells, 2) == [0]


def test_the_measure_is_a_parameter() -> None:
    cells = [Cell(0, 0), Cell(2, 2)]
    assert not is_coherent(cells, 2)  # 5-10-5: 3 steps apart
    assert is_coherent(cells, 2, chebyshev)


def test_a_lone_model_and_no_model_are_coherent() -> None:
    assert is_coherent([Cell(3, 3)], 2)
    assert is_coherent([], 2)


def test_linked_to_any_placed_cell() -> None:
    assert is_linked_to(Cell(3, 0), [Cell(0, 0), Cell(5, 0)], 2)
    assert not is_linked_to(Cell(3, 3), [Cell(0, 0)], 2)


def test_group_distance_is_the_nearest_pair() -> None:
    assert group_distance([Cell(0, 0), Cell(5, 0)], [Cell(8, 0), Cell(20, 0)]) == 3
    assert group_distance([], [Cell(1, 1)]) is None


def test_centroid_rounds_halves_down() -> None:
    assert centroid([Cell(0, 0), Cell(3, 1)]) == Cell(1, 0)
    assert centroid([Cell(0, 0), Cell(2, 2), Cell(4, 1)]) == Cell(2, 1)
    assert centroid([Cell(0, 0), Cell(1, 0), Cell(1, 0)]) == Cell(1, 0)
    with pytest.raises(ValueError):
        centroid([])


def test_block_offsets_fill_rows() -> None:
    from engine.units import block_offsets

    assert block_offsets(7, per_row=3) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2)]
    assert block_offsets(2, spacing=2) == [(0, 0), (2, 0)]


def test_formation_offsets_keep_every_model_in_its_area() -> None:
    from engine.units import formation_offsets, translated

    starts = [Cell(0, 0), Cell(1, 0)]
    first = frozenset({Cell(3, 0), Cell(5, 5), Cell(0, 0)})
    second = frozenset({Cell(4, 0), Cell(1, 0)})
    assert formation_offsets(starts, [first, second]) == [(0, 0), (3, 0)]
    assert formation_offsets(starts, [first, lambda c: c.y == 5]) == [(5, 5)]
    assert translated(starts, (2, 1)) == [Cell(2, 1), Cell(3, 1)]
    assert formation_offsets([], []) == []
