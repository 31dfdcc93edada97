"""Pile In and Consolidate on the grid (digest killteam §6.6.2 steps 1 and 8, §11.6)."""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.killteam.pile_in import close_in, close_in_cells
from tests.rulesets.killteam.table import Table


def test_pile_in_must_end_closer_to_the_nearest_enemy() -> None:
    """§11.6: from 4" away, cells closer to the nearest enemy are legal, others are not."""
    t = Table()
    model = t.add(0, "trooper", (2, 2))
    t.add(1, "brute", (6, 2))
    t.add(1, "brute", (2, 9))
    legal = close_in_cells(t.state, model)
    assert Cell(2, 2) in legal  # staying is always allowed
    assert {Cell(3, 2), Cell(4, 2), Cell(5, 2), Cell(3, 3)} <= set(legal)
    assert Cell(1, 2) not in legal and Cell(2, 3) not in legal  # not closer to (6,2)
    assert all(t.state.board.range_to(c, Cell(6, 2)) < 4 for c in legal if c != Cell(2, 2))


def test_engaged_model_may_spiral_around_its_enemy() -> None:
    """§11.6: started within 1" of E, may end anywhere within 1" of E (path past enemies)."""
    t = Table()
    model = t.add(0, "trooper", (5, 5))
    t.add(1, "brute", (6, 5))
    legal = close_in_cells(t.state, model)
    assert {Cell(6, 6), Cell(7, 6), Cell(7, 4), Cell(5, 4)} <= set(legal)
    assert Cell(4, 5) not in legal
    assert Cell(6, 5) not in legal  # the enemy's own cell


def test_tied_nearest_enemies_player_chooses() -> None:
    """§11.6: equally near enemies: closing on either is legal (the cell choice picks E)."""
    t = Table()
    model = t.add(0, "trooper", (2, 2))
    t.add(1, "brute", (6, 2))
    t.add(1, "brute", (2, 6))
    legal = close_in_cells(t.state, model)
    assert Cell(3, 2) in legal and Cell(2, 3) in legal
    assert Cell(1, 1) not in legal


def test_cannot_end_on_a_friend() -> None:
    """§11.3: a model may pass friends but not end on their cell."""
    t = Table()
    model = t.add(0, "trooper", (2, 2))
    t.add(0, "trooper", (3, 2))
    t.add(1, "brute", (6, 2))
    legal = close_in_cells(t.state, model)
    assert Cell(3, 2) not in legal and Cell(4, 2) in legal


def test_consolidate_moves_the_model() -> None:
    """§6.6.2 step 8: the chosen cell becomes the model's cell, with a ModelMoved event."""
    t = Table()
    model = t.add(0, "trooper", (2, 2))
    t.add(1, "brute", (6, 2))
    t.run(close_in(t.state, t.ctx, model, "Consolidate"), ["5,2"])
    assert model.cell == Cell(5, 2)
    assert t.find("ModelMoved")[0].get("x") == 5


def test_no_question_when_staying_is_the_only_choice() -> None:
    """Nothing is asked when no move could get closer (walled in)."""
    rows = ["." * 16] * 8 + [
        "###.............",
        "#.#.............",
        "###.............",
        "................",
    ]
    t = Table(rows=rows)
    model = t.add(0, "trooper", (1, 2))
    t.add(1, "brute", (10, 10))
    t.run(close_in(t.state, t.ctx, model, "Pile In"))
    assert model.cell == Cell(1, 2) and not t.decisions
