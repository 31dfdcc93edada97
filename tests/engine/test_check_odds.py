"""Odds match resolution: for each ruleset, a few of its checks are rolled 20,000 times
with seeded dice, resolved as the ruleset resolves them (re-rolls included), and the
observed rate must lie within 3 sigma of the exact computed chance (issue #15)."""

from __future__ import annotations

import math

import pytest

from engine.checks import Check, Modifier
from engine.dice import Dice
from engine.rulesets.fatigue.checks import hit_check as fatigue_hit
from engine.rulesets.fatigue.checks import morale_check
from engine.rulesets.killteam.attacks import hit_check, injury_check, save_check, wound_check
from engine.rulesets.killteam.morale import nerve_check

TESTS = 20_000


def observed(check: Check, seed: int) -> int:
    """Successes in ``TESTS`` tests, each re-rolled once when the check says so."""
    dice = Dice(seed)
    good = 0
    for _ in range(TESTS):
        total = dice.roll(check.dice, check.sides, player=0, reason="test").total
        if check.rerolled(total):
            total = dice.roll(check.dice, check.sides, player=0, reason="re-roll").total
        good += check.passes(total)
    return good


def within_three_sigma(check: Check, seed: int) -> None:
    p = check.chance()
    expected = TESTS * p
    sigma = math.sqrt(TESTS * p * (1 - p))
    got = observed(check, seed)
    assert abs(got - expected) <= 3 * sigma + 1e-9, f"{check.describe()}: {got} vs {expected}"


KILLTEAM = [
    hit_check(4, (Modifier(-1, "long range"),), reroll_ones=True),
    wound_check(4, 3, (Modifier(1, "Demolitions"),)),
    save_check(4, -1, 5),
    injury_check(-1, 1),
    nerve_check(6, 1),
]


@pytest.mark.parametrize("check", KILLTEAM, ids=lambda c: c.kind)
def test_killteam_odds_match_resolution(check: Check) -> None:
    within_three_sigma(check, 3)


FATIGUE = [fatigue_hit(-2, 4), fatigue_hit(+3, 5), morale_check(4, "panic")]


@pytest.mark.parametrize("check", FATIGUE, ids=lambda c: c.describe())
def test_fatigue_odds_match_resolution(check: Check) -> None:
    within_three_sigma(check, 5)
