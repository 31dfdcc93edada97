"""One attack: defence dice, counter-attack, natural 1s.

Digest confrontation §6.11.5, H2; §9 X7, X12, X13.
"""

from __future__ import annotations

from engine.rulesets.confrontation.attack import attack, parry_chance
from engine.rulesets.confrontation.combatants import Engagement
from engine.rulesets.confrontation.state import Fighter
from tests.rulesets.confrontation.table import Table, profile


def _duel(dice: list[int], hero_def: int = 4) -> tuple[Table, Engagement]:
    """A (ATT 4) attacks the hero B (DEF ``hero_def``); RES 20 so damage never kills."""
    t = Table(dice)
    a: Fighter = t.add(0, (5, 5), att=4, res=20)
    hero = t.add(1, (5, 6), prof=profile("Hero", is_hero=True, def_=hero_def, res=20))
    e = t.engagement(a, [hero], 0)
    e.center.attack = 2
    e.leaves[0].defence = 2
    return t, e


def test_counter_attack_needs_two_more() -> None:
    """Digest confrontation §9 X12: attack 9; the hero's 3, 5 -> 9 parries normally, not by 2."""
    t, e = _duel([5, 3, 5, 1, 1])  # attack 5 + 4 = 9; defence 3, 5 -> 9; damage
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["2+counter"])
    assert t.find("DefenceRolled")[0].get("parried") is False
    assert e.leaves[0].defence == 0
    assert len(t.find("DamageRolled")) == 1
    assert not t.find("CounterAttackGained")


def test_counter_attack_six_stopped_still_hits() -> None:
    """X12: the hero rolls 6 (stops) and 2 -> 10, still short of 11: hit."""
    t, e = _duel([5, 6, 2, 1, 1])
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["2+counter", "no"])
    assert t.find("DefenceRolled")[0].get("parried") is False


def test_counter_attack_reroll_of_a_one_fails() -> None:
    """X12: (6, 2), the 6 re-rolled gives 1: every re-rolled die shows 1: automatic failure."""
    t, e = _duel([5, 6, 2, 1, 1, 1])
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["2+counter", "yes"])
    assert t.find("DefenceRolled")[0].get("parried") is False


def test_the_same_dice_parry_normally() -> None:
    """X12: without the counter-attack 9 >= 9 parries and nothing is gained."""
    t, e = _duel([5, 3, 5])
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["2"])
    assert t.find("DefenceRolled")[0].get("parried") is True
    assert not t.find("DamageRolled")


def test_successful_counter_attack_strikes_back() -> None:
    """H2: parry by 2 or more, then an immediate attack on the attacker, who may defend."""
    t, e = _duel([3, 5, 4, 1, 1])  # attack 3 + 4 = 7; defence 5 + 4 = 9 >= 9; counter 4 + 3
    e.center.defence = 1
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["1+counter", "0"])
    assert t.find("CounterAttackGained")
    assert e.leaves[0].defence == 1
    assert e.center.attack == 1  # the counter-attack spent no die of the hero's
    assert t.decisions[-1].player == 0  # the attacker chose whether to defend


def test_counter_attack_on_a_natural_one() -> None:
    """Digest confrontation §9 X13: the attack rolls 1; the hero loses its die and strikes."""
    t, e = _duel([1, 4, 1, 1])  # attack: 1; counter: 4 + 3, damage 1/1
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["1+counter"])
    assert e.leaves[0].defence == 1
    assert t.find("CounterAttackGained")
    assert len(t.find("DamageRolled")) == 1


def test_natural_one_keeps_the_defence_dice() -> None:
    """Digest confrontation §9 X7: attack 6, re-roll 1: failure; 2 committed dice are kept."""
    t, e = _duel([6, 1])
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["2", "yes"])
    assert e.leaves[0].defence == 2
    assert not t.find("DamageRolled")


def test_no_defence_dice_means_a_hit() -> None:
    """§6.11.5 step 5: k = 0 -> hit."""
    t, e = _duel([2, 1, 2])
    e.leaves[0].defence = 0
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]))
    assert len(t.find("DamageRolled")) == 1


def test_a_defence_of_seven_dice_with_a_counter_attack_is_rolled_and_read() -> None:
    """Seed 214 (random bots) stopped when Captain Aldric Vane committed "7+counter": the
    roll's reading listed all 6**7 throws. Attack 5 + 4 = 9, a counter needs 11; the best
    of 7 is 5 + DEF 4 = 9: hit, and the option showed its exact chance to parry."""
    t, e = _duel([5, 2, 3, 4, 5, 3, 2, 4, 1, 1])
    e.leaves[0].defence = 7
    t.run(attack(t.state, t.ctx, e, e.center, e.leaves[0]), ["7+counter"])
    rolled = t.find("DefenceRolled")[0]
    assert rolled.get("dice") == 7 and rolled.get("parried") is False
    assert e.leaves[0].defence == 0
    assert len(t.find("DamageRolled")) == 1
    option = t.decisions[0].option("7+counter")
    assert option is not None and option.odds is not None
    assert option.odds.chances[0][1] == parry_chance(4, 4, 7, 2)
