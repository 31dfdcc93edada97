"""Options made in C (`new_option`, `cell_options`) are the Options the constructor makes."""

from __future__ import annotations

import random

import pytest

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
    fields = ("k", "K", Cell(1, 2), "A1", None, "more", True, False, True, True)
    option = new_option(fields)
    assert type(option) is Option and option == Option(*fields)
    assert (option.ends, option.suggested, option.spends, option.neutral) == (
        True,
        False,
        True,
        True,
    )


def test_cell_keys_are_written_as_cell_key_writes_them_cached_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine import decisions

    rng = random.Random(4)
    cells = [Cell(rng.randrange(-5, 200), rng.randrange(-5, 200)) for _ in range(500)]
    want = [f"{c.x},{c.y}" for c in cells]
    assert decisions.cell_keys(cells) == want  # written
    assert decisions.cell_keys(cells) == want  # found
    monkeypatch.setattr(decisions, "_KEYS", {})
    monkeypatch.setattr(decisions, "_MOST_KEYS", 7)  # full: forgotten, written again
    assert decisions.cell_keys(cells) == want and len(decisions._KEYS) <= 7
