"""Odds match resolution: for each ruleset, a few of its checks are rolled 20,000 times
with seeded dice, resolved as the ruleset resolves them (re-rolls included), and the
observed rate must lie within 3 sigma of the exact computed chance (issue #15)."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import TypeVar, cast

import pytest

from engine.checks import Check, Modifier
from engine.decisions import Choice, Decision, Procedure
from engine.dice import Dice, Roll
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.attacks import hit_check as apocalypse_hit
from engine.rulesets.apocalypse.attacks import save_check as apocalypse_save
from engine.rulesets.apocalypse.attacks import wound_check as apocalypse_wound
from engine.rulesets.confrontation.attack import attacker_rerolls, parry_chance
from engine.rulesets.confrontation.rolls import (
    characteristic_test,
    opposed_chance,
    opposed_test,
    stat_check,
)
from engine.rulesets.confrontation.tables import COUNTER_ATTACK_MARGIN
from engine.rulesets.fatigue.checks import hit_check as fatigue_hit
from engine.rulesets.fatigue.checks import morale_check
from engine.rulesets.killteam.attacks import hit_check, save_check, wound_check
from engine.rulesets.killteam.injury import injury_check
from engine.rulesets.killteam.morale import nerve_check
from engine.rulesets.wh40k6.attacks import hit_check as wh40k6_hit
from engine.rulesets.wh40k6.attacks import wound_check as wh40k6_wound
from engine.rulesets.wh40k6.charge import charge_check
from engine.rulesets.wh40k6.morale import ld_check
from engine.rulesets.wh40k6.vehicles import penetration_check

TESTS = 20_000
T = TypeVar("T")


def observed(check: Check, seed: int) -> int:
    """Successes in ``TESTS`` tests, each re-rolled once when the check says so."""
    dice = Dice(seed)
    good = 0
    for _ in range(TESTS):
        total = _read(dice.roll(check.dice, check.sides, player=0, reason="test"), check)
        if check.rerolled(total):
            total = _read(dice.roll(check.dice, check.sides, player=0, reason="again"), check)
        good += check.passes(total)
    return good


def _read(roll: Roll, check: Check) -> int:
    """The dice as the rulesets read them: summed, or the best die (ordnance)."""
    return max(roll.faces) if check.best_of else roll.total


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


APOCALYPSE = [
    apocalypse_hit(5, 4, "BS"),
    apocalypse_wound(9, heavy=True, reroll_ones=True),
    apocalypse_save(5, 12, 1),
]


@pytest.mark.parametrize("check", APOCALYPSE, ids=lambda c: c.describe())
def test_apocalypse_odds_match_resolution(check: Check) -> None:
    within_three_sigma(check, 7)


WH40K6 = [
    wh40k6_hit(4),
    wh40k6_wound(4, 5, 5),
    ld_check(7, "psychic test", perils=True),
    ld_check(6, "Morale", insane=True),
    charge_check(8, slow=False),
    penetration_check(6, 12, 2, melta=False),
]


@pytest.mark.parametrize("check", WH40K6, ids=lambda c: f"{c.kind} {c.describe()}")
def test_wh40k6_odds_match_resolution(check: Check) -> None:
    within_three_sigma(check, 9)


def drive_confrontation(procedure: Procedure[T], short: Callable[[Decision], bool]) -> T:
    """Run a Confrontation roll procedure, re-rolling 6s exactly while ``short`` says so."""
    try:
        decision = next(procedure)
        while True:
            key = "yes" if short(decision) else "no"
            decision = procedure.send(Choice(decision.id, key))
    except StopIteration as done:
        return cast(T, done.value)


def test_confrontation_open_ended_test_odds_match_resolution() -> None:
    """Defence with 2 dice + DEF 2 against 9: the odds need re-rolled 6s to be exact."""
    dice = Dice(11)
    ctx = RuleContext(dice, lambda event: None)
    check = stat_check(2, 9, dice=2)
    p = check.chance()
    good = 0
    for _ in range(TESTS):
        test = characteristic_test(ctx, 0, 2, "defence", dice=2, difficulty=9)
        result = drive_confrontation(test, lambda d: "(needs 9" in d.prompt and _short(d, 9))
        good += result.succeeds(9)
    sigma = math.sqrt(TESTS * p * (1 - p))
    assert abs(good - TESTS * p) <= 3 * sigma


def _short(decision: Decision, needed: int) -> bool:
    final = int(decision.prompt.split("final ")[1].split(" ")[0])
    return final < needed


def test_confrontation_opposed_odds_match_resolution() -> None:
    """Tactical roll, DIS 3 against DIS 1, both sides re-rolling exactly while not ahead."""
    dice = Dice(13)
    ctx = RuleContext(dice, lambda event: None)
    p = opposed_chance((3, 1))
    wins = 0
    for _ in range(TESTS):
        test = opposed_test(ctx, (3, 1), (0, 1), "Tactical roll")
        wins += drive_confrontation(test, _not_ahead) == 0
    sigma = math.sqrt(TESTS * p * (1 - p))
    assert abs(wins - TESTS * p) <= 3 * sigma, (wins, float(p) * TESTS)


def _not_ahead(decision: Decision) -> bool:
    """The prompt reads "your final 7 against 9 (6+1 + 2)" or "against automatic failure"."""
    rest = decision.prompt.split("your final ")[1]
    mine = int(rest.split(" ")[0])
    against = rest.split("against ")[1]
    return not against.startswith("automatic") and mine <= int(against.split(" ")[0])


@pytest.mark.parametrize(("dice", "margin"), [(2, 0), (1, COUNTER_ATTACK_MARGIN)])
def test_confrontation_defence_odds_match_resolution(dice: int, margin: int) -> None:
    """ATT 3 against DEF 2 with ``dice`` defence dice (a counter-attack must beat the attack
    by 2): the attack test, rolled first, re-rolls its 6s when `attacker_rerolls` says it
    pays; the defence re-rolls exactly while short. Parried = the attack fails or the
    defence reaches it."""
    dice_box = Dice(17 + dice)
    ctx = RuleContext(dice_box, lambda event: None)
    p = parry_chance(3, 2, dice, margin)
    parried = 0
    for _ in range(TESTS):
        attack = characteristic_test(ctx, 0, 3, "attack")
        result = drive_confrontation(
            attack, lambda d: attacker_rerolls(3, 2, dice, _natural(d), margin)
        )
        if result.failed:
            parried += 1
            continue
        needed = result.final + margin
        defence = characteristic_test(ctx, 1, 2, "defence", dice=dice, difficulty=needed)
        parry = drive_confrontation(defence, partial(_short, needed=needed))
        parried += parry.succeeds(needed)
    sigma = math.sqrt(TESTS * p * (1 - p))
    assert abs(parried - TESTS * p) <= 3 * sigma, (parried, float(p) * TESTS)


def _natural(decision: Decision) -> int:
    """The prompt reads "attack: natural 12, final 15. Re-roll the 6 and add?"."""
    return int(decision.prompt.split("natural ")[1].split(",")[0])


def test_a_chance_kept_for_the_numbers_is_the_one_counted_for_each_check() -> None:
    """Check.chance keeps each answer by the numbers that decide it: random checks that
    share some numbers and not others (modifiers, natural fails and passes, re-rolls,
    best-of, at-most), asked in a random order and again, each answer what counting its
    own throws gives; the words and reasons never matter."""
    import random
    from dataclasses import replace

    rng = random.Random(4)
    checks = []
    for _ in range(400):
        sides = rng.choice((3, 6, 12))
        best = rng.random() < 0.2
        checks.append(
            Check(
                rng.choice(("hit", "wound", "save")),
                rng.randrange(1, sides + 3),
                modifiers=tuple(
                    Modifier(rng.choice((-1, 1)), "m") for _ in range(rng.randrange(3))
                ),
                dice=rng.randrange(1, 4),
                sides=sides,
                at_most=not best and rng.random() < 0.2,
                fails_on=frozenset(rng.sample(range(1, 4), rng.randrange(2))),
                passes_on=frozenset(rng.sample(range(sides - 1, sides + 1), rng.randrange(2))),
                rerolls=frozenset(rng.sample(range(1, 3), rng.randrange(2))),
                reroll_failures=rng.random() < 0.2,
                best_of=best,
            )
        )
    for check in checks + rng.sample(checks, len(checks)):
        assert check.chance() == check._counted_chance(), check
        worded = replace(check, kind="other", basis="why", words=("yes", "no"))
        assert worded.chance() == check.chance()
    assert len({c.chance() for c in checks}) > 40
