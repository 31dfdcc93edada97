"""Options made in C (`new_option`, `cell_options`) are the Options the constructor makes."""

from __future__ import annotations

import random

from engine.board import Cell
from engine.decisions import Option, cell_options, new_option


def test_cell_options_are_the_options_built_one_by_one() -> None:
    rng = random.Random(3)
    cells = [Cell(rng.randrange(-3, 120), rng.randrange(-3, 80)) for _ in range(300)]
    made = cell_options(cells, "Objective at ")
    assert made == tuple(Option(f"{c.x},{c.y}", f"Objective at {c}", cell=c) for c in cells)
    assert all(type(o) is Option for o in made)
    assert made[0].detail == "" and made[0].odds is None and not made[0].spends
    assert cell_options([], "x") == ()


def test_new_option_takes_every_field_in_order() -> None:
    fields = ("k", "K", Cell(1, 2), "A1", None, "more", True, False, True)
    option = new_option(fields)
    assert type(option) is Option and option == Option(*fields)
    assert (option.ends, option.suggested, option.spends) == (True, False, True)
