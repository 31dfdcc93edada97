"""What Confrontation's tests need and their exact odds (issue #15; §9 E6, X8, X9)."""

from __future__ import annotations

from fractions import Fraction

from engine.rulesets.confrontation.attack import attack, parry_chance
from engine.rulesets.confrontation.disengage import disengage
from engine.rulesets.confrontation.fight import initiative_test
from engine.rulesets.confrontation.profiles import Size
from engine.rulesets.confrontation.rolls import opposed_chance, opposed_test, stat_check
from tests.rulesets.confrontation.table import Table, profile


def test_x9_the_strength_option_shows_one_chance_in_six_and_the_die_says_why() -> None:
    """X9: d6 + 2 against 8 needs a natural 6 (re-rolling it is not needed)."""
    t = Table([6])
    f = t.add(0, (5, 5), strength=5, size=Size.MEDIUM)
    t.add(1, (4, 5), res=2, size=Size.SMALL)
    t.add(1, (6, 5), res=3, size=Size.SMALL)
    t.run(disengage(t.state, t.ctx, f), ["STR", "no"])
    by_str = t.decisions[0].option("STR")
    assert by_str is not None and by_str.odds is not None
    assert by_str.odds.chances == (("disengages", Fraction(1, 6)),)
    (roll,) = t.dice.rolls
    assert roll.result() == "6 vs 6+ (difficulty 8, +2 STR, 6s re-rolled and added): succeeds"


def test_x8_the_re_roll_offer_gives_the_chance_to_make_it() -> None:
    """X8: INI 2 against 8; a 6 makes it, and re-rolling it is offered with its odds."""
    t = Table([6, 2])
    f = t.add(0, (5, 5), ini=2)
    t.add(1, (4, 5))
    t.add(1, (6, 5))
    t.run(disengage(t.state, t.ctx, f), ["yes"])
    offer = t.decisions[0].prompt
    assert "(needs 8, 83% to make it)" in offer  # banked 6 + 2: any re-roll but a 1
    again = t.dice.rolls[1]
    assert again.result().endswith(
        "(difficulty 8, +2 INI, +6 re-rolled 6s, 6s re-rolled and added): succeeds"
    )


def test_open_ended_chances_are_exact() -> None:
    assert stat_check(0, 4).chance() == Fraction(1, 2)
    assert stat_check(0, 8).chance() == Fraction(1, 6) * Fraction(5, 6)  # a 6, then 2+
    assert stat_check(0, 13).chance() == Fraction(1, 36) * Fraction(5, 6)  # 6, 6, then 1+
    two_dice = stat_check(0, 6, dice=2).chance()
    assert two_dice == 1 - Fraction(25, 36)  # at least one 6


def test_e6_the_initiative_choice_shows_each_side_s_chance_to_win() -> None:
    """E6: the Praetorian has 3; the warrior leads at 3 + 2 = 5, a clone at 2 + 2 = 4."""
    t = Table([3, 2])
    t.add(0, (5, 5), prof=profile("Praetorian", ini=3))
    t.add(1, (4, 5), prof=profile("Clone", ini=2))
    t.add(1, (6, 5), prof=profile("Clone", ini=2))
    t.add(1, (5, 6), prof=profile("Warrior of dawn", ini=3))
    fs = t.state.fighters
    e = t.engagement(fs["A1"], [fs["B1"], fs["B2"], fs["B3"]], 0)
    t.run(initiative_test(t.ctx, e), ["B3"])
    warrior, clone = (t.decisions[0].option(k) for k in ("B3", "B1"))
    assert warrior is not None and warrior.odds and clone is not None and clone.odds
    assert warrior.odds.chances == (("wins", opposed_chance((5, 3), (1, 0))),)
    assert warrior.odds.chances[0][1] > clone.odds.chances[0][1] > Fraction(1, 2)


def test_opposed_chances_of_the_two_sides_add_up_to_one() -> None:
    for stats in ((3, 1), (2, 2), (0, 4)):
        first = opposed_chance(stats, (0, 1))
        second = opposed_chance((stats[1], stats[0]), (1, 0))
        assert first + second == 1


def test_opposed_chances_are_those_of_the_whole_tree_of_re_rolls() -> None:
    """The chances the game showed when it summed every branch of re-rolls in fractions
    (counted now in whole numbers, each moment once): only the stats' gap and, on equal
    finals, the seats count."""
    assert opposed_chance((0, 0), (0, 1)) == Fraction(25962064, 51876139)
    assert opposed_chance((0, 0), (1, 0)) == Fraction(25914075, 51876139)
    assert opposed_chance((0, 1), (0, 1)) == Fraction(20443325, 53603744)
    assert opposed_chance((2, 6), (0, 1)) == Fraction(13436925, 58210691)
    assert opposed_chance((5, 3)) == opposed_chance((3, 1)) == Fraction(38631169, 55331349)


def test_an_opposed_re_roll_offer_says_what_takes_the_lead() -> None:
    """Tactical roll, DIS 0 against DIS 5: a 6 (final 6) is behind a 4 (final 9); the
    re-roll needs 4 more (3 in 6), and 4 gives 10."""
    t = Table([6, 4, 4])
    winner = t.run(opposed_test(t.ctx, (0, 5), (0, 1), "Tactical roll"), ["yes"])
    assert winner == 0
    assert t.decisions[0].prompt.endswith("Re-roll the 6 and add? (the lead needs 4 more: 50%)")
    assert [r.result() for r in t.dice.rolls] == [
        "6 (opposed, +0)",
        "4 (opposed, +5)",
        "4 (opposed, +0, 6 banked)",
    ]


def test_each_defence_dice_choice_shows_its_chance_to_parry_the_unrolled_attack() -> None:
    """D23 before the attack test: each choice shows "parried", the attack failing on a 1
    included (no dice: exactly 1 in 6); more dice parry more, a counter-attack less."""
    t = Table([5, 3, 5])
    a = t.add(0, (5, 5), att=4, res=20)
    hero = t.add(1, (5, 6), prof=profile("Hero", is_hero=True, def_=4, res=20))
    e = t.engagement(a, [hero], 0)
    e.center.attack, e.leaves[0].defence = 2, 2
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["2"])

    def parried(key: str) -> Fraction:
        option = t.decisions[0].option(key)
        assert option is not None and option.odds is not None
        ((label, chance),) = option.odds.chances
        assert label == "parried"
        return chance

    assert parried("0") == Fraction(1, 6)
    assert parried("1") == parry_chance(4, 4, 1) and parried("2") == parry_chance(4, 4, 2)
    assert Fraction(1, 6) < parried("1") < parried("2") < 1
    assert parried("2+counter") == parry_chance(4, 4, 2, 2) < parried("2")
