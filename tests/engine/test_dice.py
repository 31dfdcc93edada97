"""Dice: portable faces, fair faces, recorded rolls, scripted dice."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.dice import Dice, face
from engine.errors import DiceScriptError


def test_faces_are_pinned_across_platforms() -> None:
    """These faces must never change: every save ever written depends on them."""
    assert [face(7, i, 6) for i in range(12)] == [3, 1, 4, 2, 5, 3, 3, 6, 6, 2, 5, 5]
    assert [face(123456789, i, 3) for i in range(8)] == [1, 2, 3, 3, 1, 2, 1, 1]
    assert [face(2**40, i, 12) for i in range(6)] == [6, 7, 7, 8, 3, 2]


def test_faces_are_fair() -> None:
    """60,000 D6: every face within 3% of its expected 10,000 (chi-square would agree)."""
    counts = Counter(face(99, i, 6) for i in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 10_000) < 300 for n in counts.values()), counts


def test_rolls_are_recorded_in_order() -> None:
    dice = Dice(7)
    first = dice.roll(2, player=0, reason="charge distance")
    second = dice.d6(player=1, reason="save")
    assert first.faces == (3, 1) and first.dice == "2D6" and first.total == 4
    assert second == 4
    assert [r.index for r in dice.rolls] == [0, 1]
    assert dice.rolls[1].reason == "save" and dice.rolls[1].player == 1
    assert first.describe() == "2D6 for charge distance: 3, 1"


def test_d3_halves_a_d6_rounding_up() -> None:
    """Digest killteam §6.1: D3 = ceil(D6 / 2)."""
    dice = Dice.scripted([1, 2, 3, 4, 5, 6])
    assert [dice.d3(player=0, reason="damage") for _ in range(6)] == [1, 1, 2, 2, 3, 3]


def test_same_seed_same_dice_other_seed_other_dice() -> None:
    a, b, c = Dice(5), Dice(5), Dice(6)
    rolls = [a.roll(3, player=0, reason="x").faces for _ in range(5)]
    assert rolls == [b.roll(3, player=0, reason="x").faces for _ in range(5)]
    assert rolls != [c.roll(3, player=0, reason="x").faces for _ in range(5)]


def test_scripted_dice_run_out_loudly() -> None:
    dice = Dice.scripted([6])
    assert dice.d6(player=0, reason="hit") == 6
    with pytest.raises(DiceScriptError, match="ran out"):
        dice.d6(player=0, reason="wound")


def test_scripted_labels_must_match_the_reason() -> None:
    dice = Dice.scripted([(4, "save")])
    with pytest.raises(DiceScriptError, match="labelled 'save'"):
        dice.d6(player=0, reason="hit roll")


def test_scripted_face_must_fit_the_die() -> None:
    with pytest.raises(DiceScriptError, match="not on a D3"):
        Dice.scripted([5]).roll(1, 3, player=0, reason="x")


def test_zero_dice_is_a_bug() -> None:
    with pytest.raises(ValueError, match="cannot roll 0"):
        Dice(1).roll(0, player=0, reason="x")
