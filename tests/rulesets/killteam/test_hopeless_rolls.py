"""Rolls that cannot succeed (§6.1 item 3: a value above 6 after modifiers is impossible,
and a 6 is no automatic success): a save needing 7+ is not rolled, and no Command Re-roll
is offered where the re-roll has no chance to do better (the 2026-11-27 playtest: "Re-roll
save die 4 of A10 (needs 7+ (Sv 6+, -1 AP): 0%)", asked twice in one section)."""

from __future__ import annotations

from fractions import Fraction

from engine.checks import Modifier
from engine.rulesets.killteam.attacks import AttackGroup, AttackSpec, resolve_attacks
from engine.rulesets.killteam.profiles import WeaponProfile, load_factions
from engine.rulesets.killteam.stratagems import offer_reroll, offer_reroll_die
from tests.rulesets.killteam.table import Table


def _militia(weapon: str, profile: int = 0) -> WeaponProfile:
    return load_factions()["militia"].weapons[weapon].profiles[profile]


def test_a_save_needing_7_is_not_rolled_and_no_re_roll_is_offered() -> None:
    """Support cannon (S5 AP -1) vs a Reaver Brute (T4 Sv 6+): the save needs 7+."""
    t = Table(dice=[4, 4, 5, 5, 4])  # two hits, two wounds, then one injury die
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.add(1, "brute", (8, 9))
    t.state.team(1).cp = 3
    spec = AttackSpec(shooter, 4, [AttackGroup(target, 2, _militia("support_cannon"), 5)])
    t.run(resolve_attacks(t.state, t.ctx, spec))
    assert not any("save" in r.reason for r in t.dice.rolls)
    (saves,) = t.find("SavesRolled")
    assert saves.text == "No save possible for B1 Reaver Brute: needs 7+ (Sv 6+, -1 AP); 2 unsaved"
    assert not t.decisions  # no Command Re-roll of a save that cannot pass
    assert target.out_of_action and t.state.team(1).cp == 3
    assert t.dice.unused == 0


def test_an_invulnerable_save_is_still_rolled_when_armour_cannot_pass() -> None:
    """Sv 6+ against AP -1 warded (5++): the invulnerable save is taken and rolled."""
    t = Table(dice=[4, 5, 5, 1, 4])  # hit, wound, save 5 (saved), then nothing more
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.add(1, "brute", (8, 9))
    target.warded = True  # Ward: a 5++ (§ psychic powers)
    spec = AttackSpec(shooter, 4, [AttackGroup(target, 1, _militia("support_cannon"), 5)])
    t.run(resolve_attacks(t.state, t.ctx, spec))
    assert [r.faces for r in t.dice.rolls if "saves of" in r.reason] == [(5,)]
    assert not target.out_of_action


def test_a_hit_needing_7_is_rolled_but_its_miss_is_not_offered_a_re_roll() -> None:
    """BS 4+ with -3 to hit needs 7+: the die is rolled (a 1 may overheat, §6.5.5) but a
    Command Re-roll could not make it a hit, so none is offered."""
    t = Table(dice=[5])
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.state.team(0).cp = 2
    group = AttackGroup(target, 1, _militia("service_rifle"), 3, (Modifier(-3, "test"),))
    t.run(resolve_attacks(t.state, t.ctx, AttackSpec(shooter, 4, [group])))
    assert not t.decisions and t.state.team(0).cp == 2
    assert t.dice.unused == 0


def test_an_overheating_1_is_still_worth_a_re_roll_when_no_hit_is_possible() -> None:
    t = Table(dice=[1, 3])  # a 1 with an overcharged carbine, then the re-roll
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.state.team(0).cp = 1
    carbine = _militia("plasma_carbine", 1)
    group = AttackGroup(target, 1, carbine, 8, (Modifier(-3, "test"),))
    t.run(resolve_attacks(t.state, t.ctx, AttackSpec(shooter, 4, [group])), ["0"])
    (offer,) = t.decisions
    option = offer.option("0")
    assert option is not None and option.odds is not None
    assert option.odds.chances == (("re-roll avoids overheating", Fraction(5, 6)),)
    assert option.label.endswith("a 1 overheats")
    assert not shooter.out_of_action


def test_a_re_roll_that_cannot_do_better_is_never_offered() -> None:
    t = Table()
    t.state.team(0).cp = 3
    assert t.run(offer_reroll(t.state, t.ctx, 0, "the charge roll", Fraction(0))) is False
    hopeless = [(0, "save die 4", Fraction(0), "re-roll passes")]
    assert t.run(offer_reroll_die(t.state, t.ctx, 0, "save roll", hopeless)) is None
    assert not t.decisions and t.state.team(0).cp == 3
