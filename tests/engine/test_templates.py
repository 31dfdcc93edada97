"""Blast markers, templates and scatter (engine.templates, digest wh40k6 §11.6)."""

from __future__ import annotations

import pytest

from engine.board import Cell
from engine.templates import (
    blast_cells,
    cells_on_board,
    scatter_direction,
    scatter_distance,
    scattered,
    template_cells,
)


def test_blast_is_a_3x3_square() -> None:
    cells = blast_cells(Cell(5, 5), 1)
    assert len(cells) == 9
    assert Cell(6, 6) in cells and Cell(7, 5) not in cells


def test_large_blast_is_5x5_without_corners() -> None:
    cells = blast_cells(Cell(5, 5), 2)
    assert len(cells) == 21
    assert Cell(7, 7) not in cells and Cell(7, 6) in cells and Cell(5, 3) in cells


def test_template_points_along_the_aim() -> None:
    cells = template_cells(Cell(0, 0), Cell(8, 0))
    assert Cell(1, 0) in cells and Cell(8, 0) in cells
    assert Cell(9, 0) not in cells
    assert Cell(0, 1) not in cells and Cell(-1, 0) not in cells
    assert Cell(7, 2) in cells  # 15.9° off the axis
    assert Cell(6, 3) not in cells  # 26.6° off the axis
    assert Cell(8, 3) not in cells  # 9" away
    assert Cell(0, 0) not in cells


def test_template_on_a_diagonal_covers_the_first_diagonal_cell() -> None:
    cells = template_cells(Cell(4, 4), Cell(10, 10))
    assert Cell(5, 5) in cells
    assert template_cells(Cell(1, 1), Cell(1, 1)) == frozenset()


def test_scatter_distance_and_direction() -> None:
    assert scatter_distance(7, 4) == 3
    assert scatter_distance(3, 4) == 0
    assert scatter_direction(1) == 0 and scatter_direction(8) == 7
    with pytest.raises(ValueError):
        scatter_direction(9)


def test_scatter_moves_along_the_measure() -> None:
    assert scattered(Cell(10, 10), 2, 4) == Cell(14, 10)
    assert scattered(Cell(10, 10), 1, 4) == Cell(13, 13)  # 3 diagonal steps cost 4"
    assert scattered(Cell(10, 10), 5, 0) == Cell(10, 10)


def test_cells_on_board_clips() -> None:
    assert list(cells_on_board(blast_cells(Cell(0, 0), 1), 10, 10)) == [
        Cell(0, 0),
        Cell(1, 0),
        Cell(0, 1),
        Cell(1, 1),
    ]
