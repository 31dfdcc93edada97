"""Fights: combat dice, Initiative, allocation, exchanges (digest confrontation §6.11; §9 E5-E9).

Dice comments name what each face is for.
"""

from __future__ import annotations

from engine.rulesets.confrontation.fight import allocate, exchanges, initiative_test, resolve_fight
from engine.rulesets.confrontation.state import Fight
from engine.rulesets.confrontation.tables import Wound
from tests.rulesets.confrontation.table import Table, profile

PRAETORIAN = profile("Praetorian", ini=3)
CLONE = profile("Clone", ini=2)
DAWN = profile("Warrior of dawn", ini=3)


def _e6_table(dice: list[int]) -> Table:
    t = Table(dice)
    t.add(0, (5, 5), prof=PRAETORIAN)  # A1
    t.add(1, (4, 5), prof=CLONE)  # B1
    t.add(1, (6, 5), prof=CLONE)  # B2
    t.add(1, (5, 6), prof=DAWN)  # B3
    return t


def test_combat_dice_of_a_one_against_three_fight() -> None:
    """Digest confrontation §9 E5: Praetorian vs 2 clones + 1 warrior: 4 dice; others 2."""
    t = _e6_table([])
    fs = t.state.fighters
    e = t.engagement(fs["A1"], [fs["B1"], fs["B2"], fs["B3"]], 0)
    assert [c.dice for c in e.everyone] == [4, 2, 2, 2]


def test_initiative_of_a_side_of_three() -> None:
    """Digest confrontation §9 E6: Praetorian 3 + 3 = 6; warrior INI 3 + 2 + 2 others = 7."""
    t = _e6_table([3, 2])
    fs = t.state.fighters
    e = t.engagement(fs["A1"], [fs["B1"], fs["B2"], fs["B3"]], 0)
    winner = t.run(initiative_test(t.ctx, e), ["B3"])
    assert winner == 1
    assert [o.key for o in t.decisions[0].options] == ["B3", "B1"]  # one per INI, highest first
    assert t.find("OpposedTestRolled")[0].get("a") == 6
    assert t.find("OpposedTestRolled")[0].get("b") == 7


def test_allocation_loser_first() -> None:
    """Digest confrontation §9 E7: Praetorian 1 defence + 3 attack; then the clones and warrior."""
    t = _e6_table([])
    fs = t.state.fighters
    e = t.engagement(fs["A1"], [fs["B1"], fs["B2"], fs["B3"]], 1)
    t.run(allocate(t.ctx, e.center), ["3"])
    for c, key in zip(e.leaves, ["2", "1", "2"], strict=True):
        t.run(allocate(t.ctx, c), [key])
    assert [(c.attack, c.defence) for c in e.everyone] == [(3, 1), (2, 0), (1, 1), (2, 0)]


def test_resolve_fight_asks_the_loser_to_allocate_first() -> None:
    """§6.11.3 step 3: the Initiative loser allocates, then the winner, knowing it."""
    t = Table([2, 5])  # Initiative: A1 2 + 3 = 5, B1 5 + 3 = 8
    a = t.add(0, (5, 5))
    b = t.add(1, (5, 6))
    t.run(resolve_fight(t.state, t.ctx, Fight(a.id, (b.id,))), ["0", "0"])
    assert [d.subject for d in t.decisions] == ["A1", "B1"]
    assert a.fought and b.fought


def test_duel_exchanges() -> None:
    """Digest confrontation §9 E8: the orc (2 attack) beats the clone (1 attack, 1 defence).

    Exchange 1: the orc attacks, then the clone. Exchange 2: the orc attacks, the clone
    has no attack die left. Then nobody has attack dice: the fight ends.
    """
    t = Table(
        [
            4,  # orc attack (clone commits no die): 4 + 3
            1,
            2,  # damage: legs, 2 + 3 - 6 < 0: no effect
            3,  # clone attack: 3 + 3, undefended
            1,
            1,  # damage: no effect
            5,  # orc attack, clone commits its die
            2,  # clone defence: 2 + 3 = 5 < 8: hit
            1,
            3,  # damage: no effect
        ]
    )
    orc = t.add(0, (5, 5), prof=profile("Orc brute", res=6))
    clone = t.add(1, (5, 6), prof=profile("Clone", res=6))
    e = t.engagement(orc, [clone], 0)
    e.center.attack = 2
    e.leaves[0].attack, e.leaves[0].defence = 1, 1
    t.run(exchanges(t.state, t.ctx, e), ["0", "1"])
    assert e.exchanges == 2
    assert t.all_dice_used()
    # Issue 15: one target each and no master strike, so no option showed the odds: the
    # attack's log line gives them (undefended, only a natural 1 fails: 5 in 6; wounds and
    # kills from the wound table's 36 throws), after the parry when defended.
    assert not [d for d in t.decisions if d.kind.value == "pick_target"]
    # A defended attack's odds say they are the undefended ones ("[undefended lands 83%]"
    # on a parried roll read as wrong), and one die is "1 die" ("defends with 1 dice").
    odds = "[if undefended: lands 83%, wounds 46%, kills 2%]"
    first, second = t.find("AttackRolled")
    assert first.text.endswith(f"undefended {odds}") and "[if undefended: lands 83%" in second.text
    (defended,) = t.find("DefenceRolled")
    assert defended.text.endswith(f"hit {odds}")
    assert " defends with 1 die against " in defended.text
    prompts = [d.prompt for d in t.decisions if "defence dice" in d.prompt]
    assert prompts and all(" makes an attack on " in p for p in prompts)


def test_outnumbered_fighter_attacks_each_opponent() -> None:
    """Digest confrontation §9 E9: the dwarf (3 attack) against bushi (2) and ashigaru (1+1).

    Exchange 1: both goblins attack, then the dwarf must attack both. Exchange 2: the
    bushi attacks, then the dwarf attacks either goblin (its choice). Exchange 3: none.
    """
    t = Table(
        [
            3,
            1,
            1,  # bushi attack, damage: no effect
            3,
            1,
            1,  # ashigaru attack, damage
            4,
            1,
            1,  # dwarf on the bushi, damage
            4,
            2,
            1,
            1,  # dwarf on the ashigaru (1 defence die: 2 fails), damage
            3,
            1,
            1,  # bushi attack, damage
            4,
            1,
            1,  # dwarf on the ashigaru, damage
        ]
    )
    tough = {"res": 9}
    dwarf = t.add(0, (5, 5), prof=profile("Dwarf", **tough))
    bushi = t.add(1, (4, 5), prof=profile("Bushi", **tough))
    ashigaru = t.add(1, (6, 5), prof=profile("Ashigaru", **tough))
    e = t.engagement(dwarf, [bushi, ashigaru], 1)
    e.center.attack = 3
    e.leaves[0].attack = 2
    e.leaves[1].attack, e.leaves[1].defence = 1, 1
    answers = [
        "B1",  # order of the goblins' attacks
        "attack:B1",  # the dwarf's first attack; the second (on B2) is forced
        "1",  # the ashigaru commits its defence die
        "attack:B2",  # exchange 2: the dwarf's choice of target
    ]
    t.run(exchanges(t.state, t.ctx, e), answers)
    assert e.exchanges == 2  # the third finds no attack die left
    assert [d.keys() for d in t.decisions if d.subject == "A1"][-1] == ("attack:B1", "attack:B2")
    assert t.all_dice_used()
    assert all(c.attack == 0 for c in e.everyone)


def test_master_strike_adds_att_to_str() -> None:
    """Digest confrontation §9 E11 and X6: Kainir ATT 4, STR 7: damage at STR 11 kills RES 5."""
    t = Table([3, 5, 6])  # attack 3 + 4, undefended; damage 5/6 head, 6 + 11 - 5 = 12
    kainir = t.add(0, (5, 5), prof=profile("Kainir", is_hero=True, att=4, strength=7))
    foe = t.add(1, (5, 6), res=5)
    t.add(1, (12, 12))  # a bystander, so the kill does not end the game
    e = t.engagement(kainir, [foe], 0)
    e.center.attack = 2
    t.run(exchanges(t.state, t.ctx, e), ["master:B1"])
    assert t.find("DamageRolled")[0].get("strength") == 11
    assert foe.wound is Wound.KILLED and foe.cell is None


def test_master_strike_and_a_normal_attack_against_two() -> None:
    """Digest confrontation §9 E12: 3 attack dice vs 2 enemies: one attack, one master strike."""
    t = Table([2, 1, 1, 2, 1, 1])
    kainir = t.add(0, (5, 5), prof=profile("Kainir", is_hero=True, att=4, strength=7))
    x = t.add(1, (4, 5), res=20)
    y = t.add(1, (6, 5), res=20)
    e = t.engagement(kainir, [x, y], 0)
    e.center.attack = 3
    t.run(exchanges(t.state, t.ctx, e), ["attack:B1", "master:B2"])
    first, second = t.decisions
    assert set(first.keys()) == {"attack:B1", "master:B1", "attack:B2", "master:B2"}
    assert set(second.keys()) == {"attack:B2", "master:B2"}
    assert e.center.attack == 0 and e.exchanges == 1


def test_master_strike_lets_the_other_enemy_go() -> None:
    """Digest confrontation §9 E13: 2 attack dice vs 2 enemies: a master strike on one only."""
    t = Table([2, 1, 1])
    kainir = t.add(0, (5, 5), prof=profile("Kainir", is_hero=True, att=4, strength=7))
    x = t.add(1, (4, 5), res=20)
    y = t.add(1, (6, 5), res=20)
    e = t.engagement(kainir, [x, y], 0)
    e.center.attack, e.center.defence = 2, 1
    t.run(exchanges(t.state, t.ctx, e), ["master:B1"])
    assert len(t.find("DamageRolled")) == 1 and e.exchanges == 1


def test_two_normal_attacks_instead() -> None:
    """E13, the other choice: two normal attacks, one on each enemy (the second is forced)."""
    t = Table([2, 1, 1, 2, 1, 1])
    kainir = t.add(0, (5, 5), prof=profile("Kainir", is_hero=True, att=4, strength=7))
    t.add(1, (4, 5), res=20)
    t.add(1, (6, 5), res=20)
    fs = t.state.fighters
    e = t.engagement(kainir, [fs["B1"], fs["B2"]], 0)
    e.center.attack = 2
    t.run(exchanges(t.state, t.ctx, e), ["attack:B2"])
    assert len(t.find("DamageRolled")) == 2


def test_hero_extra_dice() -> None:
    """Digest confrontation §9 X14: ATT 4 / DEF 3 takes +2 in a duel: 4 dice, ATT 0, DEF 0."""
    t = Table()
    hero = t.add(0, (5, 5), prof=profile("Hero", is_hero=True, att=4, def_=3))
    foe = t.add(1, (5, 6))
    e = t.engagement(hero, [foe], 1)
    t.run(allocate(t.ctx, e.center), ["2", "4"])
    assert (e.center.dice, e.center.att, e.center.def_) == (4, 0, 0)
    assert e.center.attack == 4


def test_failed_disengagement_forces_all_dice_into_defence() -> None:
    """§6.7 step 3 and H1: all dice, hero extra dice too, go to defence."""
    t = Table()
    hero = t.add(0, (5, 5), prof=profile("Hero", is_hero=True))
    hero.disengage_failed = True
    foe = t.add(1, (5, 6))
    e = t.engagement(hero, [foe], 1)
    t.run(allocate(t.ctx, e.center), ["1"])
    assert (e.center.attack, e.center.defence) == (0, 3)


def test_nobody_attacks_no_exchange() -> None:
    """§6.11.4: if nobody placed attack dice, the fight ends with no attacks."""
    t = Table([4, 2])
    a = t.add(0, (5, 5))
    b = t.add(1, (5, 6))
    engagement = t.run(resolve_fight(t.state, t.ctx, Fight(a.id, (b.id,))), ["0", "0"])
    assert engagement.exchanges == 0
    assert t.find("FightEnded")[0].get("exchanges") == 0
