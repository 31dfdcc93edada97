"""Hit, wound, save, damage and injury: digest killteam §9 examples with scripted dice."""

from __future__ import annotations

import pytest

from engine.rulesets.killteam.attacks import (
    AttackGroup,
    AttackSpec,
    hits,
    resolve_attacks,
    saves,
    wound_target,
)
from engine.rulesets.killteam.injury import apply_damage
from engine.rulesets.killteam.profiles import DiceExpr, Strength
from tests.rulesets.killteam.table import Table, no


@pytest.mark.parametrize(("face", "hit"), [(3, True), (2, False), (1, False)])
def test_s1_bs3_hit_roll(face: int, hit: bool) -> None:
    """S1: BS 3+, no modifiers: 3 hits, 2 and 1 miss."""
    assert hits(face, 3, 0) is hit


def test_s2_user_and_times_strength() -> None:
    """S2: an S5 model strikes at S5 with a chainsword (User) and S10 with a fist (x2)."""
    assert Strength.parse("User").resolve(5) == 5
    assert Strength.parse("x2").resolve(5) == 10


@pytest.mark.parametrize(("face", "saved"), [(4, False), (5, True)])
def test_s3_ap2_against_3_plus(face: int, saved: bool) -> None:
    """S3: Sv 3+ against AP -2: a 4 fails, a 5 saves."""
    assert saves(face, 3, -2, None) is saved


def test_d1_d2_modifiers() -> None:
    """D1: BS 4+ with -3 can never hit; D2: BS 3+ with -3 hits on 6, not 5."""
    assert not any(hits(f, 4, -3) for f in range(1, 7))
    assert hits(6, 3, -3) and not hits(5, 3, -3)


def test_d3_wound_table() -> None:
    """D3: against T4, S8 2+, S7 3+, S5 3+, S4 4+, S3 5+, S2 6+; T5 with S2 is 6+."""
    assert [wound_target(s, 4) for s in (8, 7, 5, 4, 3, 2)] == [2, 3, 3, 4, 5, 6]
    assert wound_target(2, 5) == 6


def test_d4_invulnerable_ignores_ap() -> None:
    """D4: Sv 3+ and 5++ against AP -3: a 5 fails the armour but passes the invulnerable."""
    assert saves(5, 3, -3, 5)


def test_d7_overwatch_needs_unmodified_six() -> None:
    """D7: Overwatch hits only on an unmodified 6."""
    assert hits(6, 3, -1, overwatch=True)
    assert not hits(5, 3, +1, overwatch=True)


def test_s7_random_damage_gives_that_many_injury_dice() -> None:
    """S7/S8: the injury roll uses the damage of the attack that reached 0 wounds."""
    t = Table(dice=[(1, "injury"), (2, "injury"), (3, "injury"), (1, "injury")])
    target = t.add(1, "boss", (5, 5))
    t.run(apply_damage(t.state, t.ctx, target, 4, roller=0))
    assert target.flesh_wounds == 1 and target.wounds == 1
    assert t.dice.unused == 0


def test_d5_flesh_wound_and_terrain_modifiers() -> None:
    """D5: one flesh wound and terrain -1: dice 3, 2 give a 2nd flesh wound; in melee OOA."""
    t = Table(dice=[3, 2])
    target = t.add(1, "brute", (5, 5))
    target.flesh_wounds = 1
    t.run(apply_damage(t.state, t.ctx, target, 2, roller=0, injury_modifier=-1))
    assert target.flesh_wounds == 2 and target.wounds == 1 and not target.out_of_action
    melee = Table(dice=[3, 2])
    target = melee.add(1, "brute", (5, 5))
    target.flesh_wounds = 1
    melee.run(apply_damage(melee.state, melee.ctx, target, 2, roller=0))
    assert target.out_of_action


def test_shooting_attacks_full_sequence() -> None:
    """S3 vs T4, two attacks: hits 4, 2 (BS 4+) = 1 hit; wound 5 (5+); save 3 fails; injury 4."""
    t = Table(dice=[4, 2, 5, 3, 4])
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.add(1, "brute", (8, 9))
    rifle = shooter.weapons[0].profiles[0]
    spec = AttackSpec(shooter, 4, [AttackGroup(target, 2, rifle, 3)])
    t.run(resolve_attacks(t.state, t.ctx, spec))
    assert target.out_of_action
    assert t.kinds().count("ModelSlain") == 1
    assert t.dice.unused == 0


def test_command_reroll_of_a_hit_die_costs_one_cp() -> None:
    """§8.2: a failed hit die may be re-rolled once per phase for 1 CP."""
    t = Table(dice=[2, 6, 1])
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.state.team(0).cp = 1
    rifle = shooter.weapons[0].profiles[0]
    spec = AttackSpec(shooter, 4, [AttackGroup(target, 1, rifle, 3)])
    t.run(resolve_attacks(t.state, t.ctx, spec), ["0"])
    assert t.state.team(0).cp == 0
    assert "DieRerolled" in t.kinds()
    assert t.find("WoundsRolled")[0].get("successes") == 0


def test_damage_expression_parse() -> None:
    assert str(DiceExpr.parse("D3")) == "D3"
    assert DiceExpr.parse("2D6").maximum == 12


def test_command_reroll_offers_one_option_per_distinct_die() -> None:
    """Two failed save dice showing 2 against one weapon are one choice: the playtest saw
    "Re-roll save die 2 of A5" twice. A third die showing 1 stays its own option."""
    t = Table(dice=[6, 6, 6, 6, 6, 6, 2, 2, 1, 6, 6, 6])
    shooter = t.add(0, "trooper", (1, 1))
    target = t.add(1, "brute", (1, 9))
    t.add(1, "brute", (8, 9))
    t.state.team(1).cp = 1
    rifle = shooter.weapons[0].profiles[0]
    spec = AttackSpec(shooter, 4, [AttackGroup(target, 3, rifle, 3)])
    t.run(resolve_attacks(t.state, t.ctx, spec), then=no)
    offer = next(d for d in t.decisions if d.prompt.startswith("Command Re-roll"))
    labels = [o.label for o in offer.options]
    assert len(labels) == len(set(labels)) == 3, labels
    assert [o.key for o in offer.options] == ["no", "0", "2"]
