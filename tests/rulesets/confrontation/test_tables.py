"""Tables as data: wound table, accumulation, ranges, dice counts.

Digest confrontation §4.5, §9.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.rulesets.confrontation.profiles import cells
from engine.rulesets.confrontation.tables import (
    Band,
    Result,
    Wound,
    accumulate,
    combat_dice,
    disengage_difficulty,
    location,
    pursuit_cells,
    range_band,
    read_wound_table,
)
from tests.rulesets.confrontation.table import weapon


@pytest.mark.parametrize(
    ("dice", "strength", "res", "where", "result"),
    [
        ((2, 5), 4, 3, "Arms", Result.SERIOUS),  # X1
        ((1, 1), 3, 5, "Legs", Result.NONE),  # X2
        ((2, 2), 3, 3, "Arms", Result.LIGHT),  # X3
        ((4, 3), 5, 4, "Abdomen", Result.SERIOUS),  # X4
        ((6, 5), 2, 5, "Head", Result.CRITICAL),  # X5
        ((5, 6), 11, 5, "Head", Result.KILLED),  # X6 master strike STR 7 + ATT 4
    ],
)
def test_damage_examples(
    dice: tuple[int, int], strength: int, res: int, where: str, result: Result
) -> None:
    """Digest confrontation §9 X1-X6."""
    assert location(min(dice)) == where
    assert read_wound_table(dice, strength, res) is result


def test_double_six_always_kills() -> None:
    """Digest confrontation §9 E15: double 6 -> killed outright whatever STR and RES."""
    assert read_wound_table((6, 6), 0, 15) is Result.KILLED


def test_wound_table_edges() -> None:
    assert read_wound_table((1, 2), 0, 20) is Result.NONE
    assert read_wound_table((5, 6), 30, 0) is Result.KILLED
    assert read_wound_table((1, 6), 30, 0) is Result.CRITICAL  # 18+ legs


@pytest.mark.parametrize(
    ("current", "new", "after"),
    [
        (Wound.HEALTHY, Result.SERIOUS, Wound.SERIOUS),
        (Wound.LIGHT, Result.LIGHT, Wound.SERIOUS),
        (Wound.SERIOUS, Result.LIGHT, Wound.CRITICAL),
        (Wound.SERIOUS, Result.SERIOUS, Wound.CRITICAL),
        (Wound.CRITICAL, Result.LIGHT, Wound.KILLED),
        (Wound.CRITICAL, Result.SERIOUS, Wound.KILLED),
        (Wound.CRITICAL, Result.CRITICAL, Wound.KILLED),
        (Wound.LIGHT, Result.STUNNED, Wound.LIGHT),
        (Wound.CRITICAL, Result.NONE, Wound.CRITICAL),
        (Wound.LIGHT, Result.CRITICAL, Wound.CRITICAL),
        (Wound.HEALTHY, Result.KILLED, Wound.KILLED),
    ],
)
def test_accumulation(current: Wound, new: Result, after: Wound) -> None:
    """Digest confrontation §9 E14 and table T2."""
    assert accumulate(current, new) is after


def test_range_bands_in_cm() -> None:
    """Digest confrontation §9 E10: bow 20-40-60 cm."""
    bow = (20, 40, 60)
    assert range_band(20, bow) is Band.SHORT
    assert range_band(21, bow) is Band.MEDIUM
    assert range_band(40, bow) is Band.MEDIUM
    assert range_band(41, bow) is Band.LONG
    assert range_band(60, bow) is Band.LONG
    assert range_band(61, bow) is Band.OUT


def test_range_bands_on_the_grid() -> None:
    """§11: bow 20-40-60 cm -> 8-16-24 cells."""
    assert weapon("Bow", 3, 20, 40, 60).ranges == (8, 16, 24)
    assert weapon("Crossbow", 5, 15, 30, 45).ranges == (6, 12, 18)


def test_combat_dice() -> None:
    """Digest confrontation §9 E5: 1 vs 1 -> 2 each; 1 vs 3 -> 4 for the single fighter."""
    assert combat_dice(1) == 2
    assert combat_dice(3) == 4


def test_disengagement_difficulty() -> None:
    """T5: 4 + 2N."""
    assert [disengage_difficulty(n) for n in (1, 2, 3, 4)] == [6, 8, 10, 12]


def test_pursuit_distance() -> None:
    """Digest confrontation §9 X16: MOV 10 cm (4) -> 2 cells; MOV 12.5 cm (5) -> 3 cells."""
    assert cells(Fraction(10)) == 4 and pursuit_cells(4) == 2
    assert cells(Fraction(25, 2)) == 5 and pursuit_cells(5) == 3
    assert cells(Fraction(15)) == 6
