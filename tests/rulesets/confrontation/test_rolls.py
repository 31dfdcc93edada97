"""Open-ended d6 tests and opposed tests (digest confrontation §6.1; §9 E1, E2, X7, X15)."""

from __future__ import annotations

from engine.rulesets.confrontation.rolls import characteristic_test, opposed_test
from tests.rulesets.confrontation.table import Table


def test_single_test_adds_the_stat() -> None:
    """Digest confrontation §9 E1: INI 3, roll 4 -> natural 4, final 7."""
    t = Table([4])
    result = t.run(characteristic_test(t.ctx, 0, 3, "initiative"))
    assert (result.natural, result.final, result.failed) == (4, 7, False)


def test_multi_die_reroll_of_both_sixes_adds_the_best() -> None:
    """Digest confrontation §9 E2: 1, 4, 6, 6; re-roll both 6s: 1, 3 -> natural 9."""
    t = Table([1, 4, 6, 6, 1, 3])
    result = t.run(characteristic_test(t.ctx, 0, 2, "defence", dice=4, difficulty=20), ["yes"])
    assert (result.natural, result.final, result.failed) == (9, 11, False)
    assert t.decisions[0].prompt.endswith("Re-roll the 2 sixes and add?")


def test_multi_die_reroll_of_only_ones_fails() -> None:
    """Digest confrontation §9 E2: re-roll 1, 1 -> failed although a 4 and 6s showed."""
    t = Table([1, 4, 6, 6, 1, 1])
    result = t.run(characteristic_test(t.ctx, 0, 2, "defence", dice=4, difficulty=20), ["yes"])
    assert result.failed and not result.succeeds(0)


def test_declining_the_reroll_keeps_six() -> None:
    """Digest confrontation §9 E2: declining the re-roll -> natural 6."""
    t = Table([1, 4, 6, 6])
    result = t.run(characteristic_test(t.ctx, 0, 2, "defence", dice=4, difficulty=20), ["no"])
    assert (result.natural, result.failed) == (6, False)


def test_rerolled_sixes_may_go_on() -> None:
    """§6.1.2 step 3: a 6 among the re-rolled dice may be re-rolled again (A6)."""
    t = Table([6, 6, 2])
    result = t.run(characteristic_test(t.ctx, 1, 0, "attack"), ["yes", "yes"])
    assert result.natural == 14 and result.faces == (6, 6, 2)


def test_auto_fail_after_a_reroll() -> None:
    """Digest confrontation §9 X7: ATT 3, roll 6, re-roll 1 -> automatic failure."""
    t = Table([6, 1])
    result = t.run(characteristic_test(t.ctx, 0, 3, "attack"), ["yes"])
    assert result.failed


def test_natural_one_fails_whatever_the_stat() -> None:
    t = Table([1])
    result = t.run(characteristic_test(t.ctx, 0, 10, "aim", difficulty=4))
    assert result.failed and not result.succeeds(4)


def test_stop_is_the_default_when_already_successful() -> None:
    """D6: the re-roll is still offered, but "stop" comes first (the digest's UI default)."""
    t = Table([6])
    result = t.run(characteristic_test(t.ctx, 0, 2, "disengagement", difficulty=8), ["no"])
    assert result.succeeds(8)
    assert t.decisions[0].keys() == ("no", "yes")


def test_opposed_leader_with_a_six_stops_and_wins() -> None:
    """Digest confrontation §9 X15: A (DIS 3) rolls 6 -> 9, B (DIS 4) rolls 4 -> 8: A wins."""
    t = Table([6, 4])
    assert t.run(opposed_test(t.ctx, (3, 4), (0, 1), "Tactical roll"), ["no"]) == 0
    assert t.decisions[0].player == 0 and t.decisions[0].keys() == ("no", "yes")


def test_opposed_both_sixes_lower_decides_first_then_higher_stops() -> None:
    """X15: A 9, B 10: A (lower) re-rolls 2 -> 11; B stops at 10 and loses."""
    t = Table([6, 6, 2])
    assert t.run(opposed_test(t.ctx, (3, 4), (0, 1), "Tactical roll"), ["yes", "no"]) == 0
    assert [d.player for d in t.decisions] == [0, 1]


def test_opposed_higher_rerolls_a_one_and_fails() -> None:
    """X15: B re-rolls and gets a 1 -> B fails, A wins."""
    t = Table([6, 6, 2, 1])
    assert t.run(opposed_test(t.ctx, (3, 4), (0, 1), "Tactical roll"), ["yes", "yes"]) == 0


def test_opposed_higher_rerolls_and_beats_it() -> None:
    """X15: B re-rolls 3 -> 13 beats 11."""
    t = Table([6, 6, 2, 3])
    assert t.run(opposed_test(t.ctx, (3, 4), (0, 1), "Tactical roll"), ["yes", "yes"]) == 1


def test_opposed_equal_finals_second_seat_decides_first() -> None:
    """§10 A9 (PROPOSED): equal finals with two 6s: player 2 decides first."""
    t = Table([6, 6, 3])
    assert t.run(opposed_test(t.ctx, (4, 4), (0, 1), "Tactical roll"), ["yes", "no"]) == 1
    assert [d.player for d in t.decisions] == [1, 0]


def test_opposed_ties_and_double_failures_repeat() -> None:
    """§6.1.3 step 4 (A8): a tie or two 1s roll again; a single 1 loses."""
    t = Table([3, 3, 1, 1, 1, 2])
    assert t.run(opposed_test(t.ctx, (2, 2), (0, 1), "Initiative test")) == 1
    assert len(t.find("OpposedTestTied")) == 2


def test_an_opposed_line_keeps_a_groups_count_apart_from_its_score() -> None:
    """Played: "Initiative test: ... against Bogfen Cutthroat B2.2 and 3 more 8 (2 + 6)"
    read as a count of 3 more 8s."""
    t = Table([4, 2])
    names = ("Lantern Spearman A2", "Bogfen Cutthroat B2.2 and 3 more")
    assert t.run(opposed_test(t.ctx, (3, 6), (0, 1), "Initiative test", names)) == 1
    assert t.find("OpposedTestRolled")[0].text == (
        "Initiative test: Lantern Spearman A2 with 7 (4 + 3) against "
        "Bogfen Cutthroat B2.2 and 3 more with 8 (2 + 6)"
    )
