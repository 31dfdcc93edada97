"""The engine's checks: exact chances, what a roll needed, and readings kept in saves."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import msgpack

from engine.checks import Check, Modifier, at_least_one
from engine.decisions import Odds
from engine.dice import Dice, Roll
from engine.luck import luck_table

LONG = Modifier(-1, "long range")


def test_a_modified_d6_check_needs_a_higher_face_and_a_natural_1_fails() -> None:
    check = Check("hit", 4, "BS 4+", (LONG,), words=("hit", "miss"))
    assert check.needed == 5
    assert [check.passes(f) for f in range(1, 7)] == [False] * 4 + [True] * 2
    assert check.chance() == Fraction(1, 3)
    assert check.describe() == "5+ (BS 4+, -1 long range)"
    easy = Check("hit", 2, "BS 2+", (Modifier(+1, "aim"),))
    assert easy.chance() == Fraction(5, 6)  # the 1 still fails


def test_re_rolling_ones_adds_a_sixth_of_the_chance() -> None:
    check = Check("hit", 4, "BS 4+", rerolls=frozenset({1}))
    assert check.first_chance() == Fraction(1, 2)
    assert check.chance() == Fraction(1, 2) + Fraction(1, 6) * Fraction(1, 2)
    failures = Check("hit", 4, "WS 4+", reroll_failures=True)
    assert failures.chance() == Fraction(3, 4)


def test_2d6_sum_and_at_most_checks_are_exact() -> None:
    charge = Check("charge", 8, "distance 8", dice=2, fails_on=frozenset())
    assert charge.chance() == Fraction(15, 36)
    leadership = Check("break", 7, "Ld 7", dice=2, at_most=True, fails_on=frozenset())
    assert leadership.chance() == Fraction(21, 36)
    assert leadership.describe() == "7 or less (Ld 7)"
    nerve = Check(
        "nerve",
        3,
        "Ld 3",
        (Modifier(+2, "losses"),),
        at_most=True,
        fails_on=frozenset(),
        passes_on=frozenset({1}),
    )
    assert nerve.chance() == Fraction(1, 6)  # only 1 passes: 2 + 2 > 3


def _brute(dice: int, check: Check) -> Fraction:
    """The first-throw chance by listing every one of the 6**dice throws."""
    from itertools import product

    throws = list(product(range(1, 7), repeat=dice))
    reads = [max(t) if check.best_of else sum(t) for t in throws]
    return Fraction(sum(1 for total in reads if check.passes(total)), len(throws))


def test_pools_of_seven_and_more_dice_are_counted_exactly_without_listing_throws() -> None:
    """A Confrontation defence of 7 dice crashed (6**7 throws were too many to list): the
    best of 7 and the sum of 7 agree with listing every throw, and a pool of 40 (beyond any
    listing) keeps its exact closed forms."""
    best = Check("test", 6, "difficulty 6", dice=7, best_of=True)
    assert best.first_chance() == _brute(7, best) == 1 - Fraction(5**7, 6**7)
    total = Check("sum", 25, "distance 25", dice=7, fails_on=frozenset())
    assert total.first_chance() == _brute(7, total)
    beat = Check("sum", 8, "more than 1s", dice=7, fails_on=frozenset())
    assert beat.first_chance() == 1 - Fraction(1, 6**7)
    many = Check("test", 2, "difficulty 2", dice=40, best_of=True)
    assert many.first_chance() == 1 - Fraction(1, 6**40)
    sixes = Check("sum", 240, "all 6s", dice=40, fails_on=frozenset())
    assert sixes.first_chance() == Fraction(1, 6**40)
    assert many.read([1] * 39 + [2]).outcome == "passes"


def test_a_runaway_pool_is_refused_with_a_clear_message() -> None:
    import pytest

    with pytest.raises(ValueError, match="more than 200 to count"):
        Check("sum", 7, "too many", dice=201).first_chance()


def test_rolls_carry_what_they_needed_and_how_they_read() -> None:
    dice = Dice.scripted([4, 3, 6, 5, 3, 4])
    check = Check("hit", 4, "BS 4+", (LONG,), words=("hit", "miss"))
    one = dice.roll(1, player=0, reason="hit rolls vs B8", check=check)
    assert one.describe() == "1D6 for hit rolls vs B8: 4 vs 5+ (BS 4+, -1 long range): miss"
    many = dice.roll(2, player=0, reason="hit rolls vs B9", check=check)
    assert many.result() == "3, 6 vs 5+ (BS 4+, -1 long range): 1 of 2 hit"
    charge = Check(
        "charge", 8, "distance 8", dice=2, fails_on=frozenset(), words=("succeeds", "fails")
    )
    assert dice.roll(2, player=1, reason="charge", check=charge).result() == (
        "5, 3 = 8 vs 8+ (distance 8): succeeds"
    )
    roll_off = dice.roll(1, player=1, reason="initiative", check=Check.purpose("roll-off"))
    assert roll_off.result() == "4 (roll-off)"


def test_readings_do_not_change_what_a_replay_compares() -> None:
    dice = Dice(7)
    roll = dice.roll(1, player=0, reason="hit", check=Check("hit", 4))
    assert roll == Roll(0, 0, "hit", "1D6", roll.faces)


def test_luck_counts_rolls_read_against_a_check_but_not_purposes() -> None:
    dice = Dice.scripted([6, 6, 1, 3])
    check = Check("hit", 4, "BS 4+")
    dice.roll(3, player=0, reason="hits", check=check)
    dice.roll(1, player=1, reason="roll-off", check=Check.purpose("roll-off"))
    (row,) = luck_table((), dice.rolls)
    assert (row.player, row.kind, row.dice, row.successes) == (0, "hit", 3, 2)
    assert row.expected == Fraction(3, 2)


def test_odds_of_named_outcomes_read_as_percentages() -> None:
    odds = Odds.of(("charge succeeds", Fraction(7, 12)), ("fails", Fraction(5, 12)))
    assert odds.describe() == "charge succeeds 58%, fails 42%"
    assert at_least_one(Fraction(1, 2), 2) == Fraction(3, 4)


def test_a_forged_reading_in_a_save_is_tamed_and_a_bad_one_refused() -> None:
    import msgpack
    import pytest

    from engine.errors import SaveError
    from engine.save import decode
    from tests.replays.make import path_of

    doc = msgpack.unpackb(path_of("killteam").read_bytes(), raw=False)
    doc["rolls"][0] = [
        *doc["rolls"][0][:5],
        ["\x1b[2J5+" + "x" * 500, "hit", "hit", 1, 9, [7, 0], ""],
    ]
    with pytest.raises(SaveError, match=r"'rolls\[0\]\[5\]\[0\]': it holds the control"):
        decode(msgpack.packb(doc, use_bin_type=True), "forged.wargrid")
    doc["rolls"][0][5][0] = "5+" + "x" * 500
    data = decode(msgpack.packb(doc, use_bin_type=True), "forged.wargrid")
    reading = data.rolls[0].reading
    assert reading is not None and reading.need.startswith("5+x") and len(reading.need) <= 200
    assert (reading.tests, reading.successes, reading.chance) == (0, 0, None)
    doc["rolls"][0][5] = ["5+", "hit"]
    with pytest.raises(SaveError, match="wrong shape"):
        decode(msgpack.packb(doc, use_bin_type=True), "forged.wargrid")


def test_an_old_save_s_rolls_get_readings_from_its_verified_re_run_counted_once(
    tmp_path: Path,
) -> None:
    """The fatigue replay as a file written before rolls carried readings (and events roll
    stamps): its verified re-run gives the rolls their readings, each die counted once."""
    from engine.save import read_save, replay
    from engine.timeline import Verdict, timeline_of_file
    from tests.replays.make import path_of

    doc = msgpack.unpackb(path_of("fatigue").read_bytes(), raw=False)
    doc["rolls"] = [roll[:5] for roll in doc["rolls"]]  # what the older writer kept
    doc["events"] = [event[:6] for event in doc["events"]]
    path = tmp_path / "old.wargrid"
    path.write_bytes(msgpack.packb(doc, use_bin_type=True))
    assert not any(r.reading for r in read_save(path).rolls)
    timeline = timeline_of_file(path)
    game = replay(read_save(path_of("fatigue")))
    assert timeline.verdict is Verdict.VERIFIED and all(r.reading for r in timeline.rolls)
    luck = timeline.luck()
    assert luck and luck == luck_table(game.events, game.rolls)
    assert sum(row.dice for row in luck) == sum(
        r.reading.tests for r in game.rolls if r.reading and r.reading.kind and r.reading.chance
    )


def test_rolls_count_for_luck_only_when_no_event_reports_it() -> None:
    from types import MappingProxyType

    from engine.events import Event, Scalar

    dice = Dice.scripted([6, 6, 1])
    dice.roll(3, player=0, reason="hits", check=Check("hit", 4, "BS 4+"))
    fields: dict[str, Scalar] = {
        "luck": "hit",
        "player": 0,
        "dice": 3,
        "successes": 2,
        "p_num": 1,
        "p_den": 2,
    }
    old = Event("HitsRolled", "2 of 3 hit", MappingProxyType(fields), 0, 1, "Shooting")
    (row,) = luck_table([old], dice.rolls)
    assert (row.dice, row.successes) == (3, 2)
    (row,) = luck_table([], dice.rolls)
    assert (row.dice, row.successes) == (3, 2)


def test_an_at_most_modifier_says_it_moves_the_roll() -> None:
    """Played: "nerve test of B2: 6 vs 8 or less (Ld 6, -2 nerve modifiers)" read as Ld 4
    beside a need of 8; the modifier is added to the roll, which the line now says."""
    nerve = Check("nerve", 6, "Ld 6", (Modifier(-2, "nerve modifiers"),), dice=2, at_most=True)
    assert nerve.describe() == "8 or less (Ld 6, -2 to the roll for nerve modifiers)"
    hit = Check("hit", 4, "BS 4+", (Modifier(-1, "long range"),))
    assert hit.describe() == "5+ (BS 4+, -1 long range)"  # at least: reads as it always did
