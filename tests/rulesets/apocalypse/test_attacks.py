"""Attacks: unit-level hit rolls, D12 wounds, blast markers, modifiers (digest §6.9-§6.11, §9)."""

from __future__ import annotations

from engine.board import Cell
from engine.checks import Modifier
from engine.rulesets.apocalypse.attacks import (
    add_blast,
    attacks_of,
    is_hit,
    is_wound,
    resolve_attacks,
    wound_target,
)
from engine.rulesets.apocalypse.fighting import fight_action, melee_modifiers
from engine.rulesets.apocalypse.geometry import distance, obscured
from engine.rulesets.apocalypse.profiles import Weapon
from engine.rulesets.apocalypse.shooting import can_shoot, hit_modifier, shoot_action, targets_for
from engine.rulesets.apocalypse.state import BATTLEFIELD
from tests.rulesets.apocalypse.table import Table, sheet

RIFLES_A2 = Weapon("Rifles", 24, "SMALL_ARMS", 2, 7, 12)


def test_attacks_belong_to_the_unit() -> None:
    """Digest §9 E1: a weapon line of A 2 makes exactly 2 hit rolls, however many models."""
    t = Table(dice=[(4, "hit"), (2, "hit"), (7, "wound")])
    squad = t.add(0, sheet("legion_line_squad", weapons=(RIFLES_A2,)), (5, 5))
    mob = t.add(1, "horde_brute_mob", (5, 15))
    fired = t.run(shoot_action(t.state, t.ctx, squad), [mob.uid])
    assert fired
    assert t.dice.rolls[0].dice == "2D6"
    assert t.dice.rolls[1].dice == "1D12"
    assert (mob.blast_small, mob.blast_large) == (1, 0)
    assert t.dice.unused == 0


def test_blast_markers_accumulate() -> None:
    """Digest §9 D1: small; large; small + large; then a 4th wound: two large."""
    t = Table()
    unit = t.add(1, "horde_brute_mob", (5, 5))
    seen = []
    for _ in range(3):
        add_blast(unit)
        seen.append((unit.blast_small, unit.blast_large))
    assert seen == [(1, 0), (0, 1), (1, 1)]
    add_blast(unit)
    assert (unit.blast_small, unit.blast_large) == (0, 2)


def test_three_wounds_in_one_attack_leave_a_small_and_a_large() -> None:
    """Digest §9 D1 through the attack procedure."""
    t = Table(dice=[6, 6, 6, 12, 12, 12])
    squad = t.add(0, "legion_line_squad", (5, 5))
    mob = t.add(1, "horde_brute_mob", (5, 15))
    weapon = squad.sheet.weapons[0]
    assert resolve_attacks(t.ctx, squad, weapon, mob, 3, 3) == 3
    assert (mob.blast_small, mob.blast_large) == (1, 1)


def test_hit_modifiers_and_natural_rolls() -> None:
    """Digest §9 D2: +1 Aimed Fire, -1 obscured, -1 critical with a HEAVY weapon."""
    rows = ["." * 40] * 30
    rows[30 - 1 - 15] = "." * 5 + "RR" + "." * 33  # ruins at x 5-6, y 15 (north first)
    rows[30 - 1 - 16] = "." * 5 + "RR" + "." * 33
    t = Table(rows=rows)
    det = t.detachment(0, order="AIMED_FIRE")
    team = t.add(0, "legion_fire_team", (5, 5), det=det)
    team.critical = True
    target = t.add(1, "horde_brute_mob", (5, 15))
    lasers = team.sheet.weapons[0]
    assert lasers.type == "HEAVY"
    assert obscured(t.state, team, target)
    needed = team.sheet.bs - hit_modifier(t.state, team, target, lasers, free=False)
    assert needed == 4
    assert [is_hit(n, needed) for n in (3, 4, 6)] == [False, True, True]
    assert is_hit(6, 5 + 1) and not is_hit(5, 5 + 1)  # BS 5+, net -1: needs 6
    assert is_hit(6, 5 + 2) and not is_hit(5, 5 + 2)  # BS 5+, net -2: only a natural 6
    assert not is_hit(1, 2 - 1) and is_hit(2, 2 - 1)  # BS 2+ with +1: natural 1 still fails
    free = team.sheet.bs - hit_modifier(t.state, team, target, lasers, free=True)
    assert free == 5  # a free action ignores the Aimed Fire bonus


def test_wound_rolls_against_sap_and_sat() -> None:
    """Digest §9 D3."""
    t = Table()
    light = t.add(1, "horde_brute_mob", (5, 5))
    heavy = t.add(1, "horde_scrap_walker", (15, 5))
    rifles = Weapon("Rifles", 24, "SMALL_ARMS", 3, 7, 12)
    assert wound_target(rifles, light) == 7 and wound_target(rifles, heavy) == 12
    assert is_wound(7, 7) and not is_wound(6, 7)
    assert not is_wound(11, 12) and is_wound(12, 12)
    assert not is_wound(1, 2)


def test_a_dash_cannot_wound_and_rolls_no_die() -> None:
    """Digest §9 D3: SAT "-" against a HEAVY unit: no wound roll at all (A26)."""
    t = Table(dice=[6, 6])
    squad = t.add(0, "legion_line_squad", (5, 5))
    walker = t.add(1, "horde_scrap_walker", (5, 15))
    pistols = Weapon("Pistols", 12, "SMALL_ARMS", 2, 7, None)
    assert resolve_attacks(t.ctx, squad, pistols, walker, 2, 3) == 0
    assert t.find("WoundImpossible")
    assert len(t.dice.rolls) == 1 and walker.blasts == 0


def test_critical_damage_halves_attacks_and_hampers_heavy_weapons() -> None:
    """Digest §9 D7: A 3 -> 2, A 1 -> 1; HEAVY BS 4+ needs 5, small arms still 4."""
    t = Table()
    tank = t.add(0, "legion_battle_tank", (5, 5))
    target = t.add(1, "horde_brute_mob", (5, 20))
    tank.critical = True
    heavy = Weapon("Cannon", 48, "HEAVY", 3, 5, 7)
    small = Weapon("Stubber", 24, "SMALL_ARMS", 1, 7, 12)
    assert attacks_of(tank, heavy) == 2 and attacks_of(tank, small) == 1
    assert tank.sheet.bs - hit_modifier(t.state, tank, target, heavy, free=False) == 5
    assert tank.sheet.bs - hit_modifier(t.state, tank, target, small, free=False) == 4


def test_a_light_character_is_obscured_unless_closest() -> None:
    """Digest §9 D15: squad at 8", character at 10": obscured; both at 8": not (A23)."""
    t = Table()
    shooter = t.add(0, "legion_line_squad", (10, 5))  # cells y 5-6
    mob = t.add(1, "horde_brute_mob", (10, 14))
    boss = t.add(1, "horde_warboss", (12, 16))
    assert (distance(shooter, mob), distance(shooter, boss)) == (8, 10)
    assert obscured(t.state, shooter, boss)
    assert not obscured(t.state, shooter, mob)
    t.state.put(boss, BATTLEFIELD, Cell(12, 14))
    assert distance(shooter, boss) == 8
    assert not obscured(t.state, shooter, boss)


def test_shooting_into_melee() -> None:
    """Digest §9 D20: no target touching a friend, unless the target is SUPER-HEAVY."""
    t = Table()
    squad = t.add(0, "legion_line_squad", (10, 10))
    tank = t.add(0, "legion_battle_tank", (10, 20))
    mob = t.add(1, "horde_brute_mob", (12, 10))  # in base contact with the squad
    cannon = tank.sheet.weapons[0]
    assert mob not in targets_for(t.state, tank, cannon)
    colossus = t.add(1, "horde_scrap_colossus", (7, 7))  # touches the squad too
    assert colossus in targets_for(t.state, tank, cannon)
    own = t.add(0, "legion_colossus", (14, 9))  # a friendly SH touching the mob
    assert can_shoot(t.state, own)
    assert mob not in targets_for(t.state, own, own.sheet.weapons[0])  # the squad touches it
    t.state.put(squad, BATTLEFIELD, Cell(30, 25))
    assert mob in targets_for(t.state, own, own.sheet.weapons[0])
    assert not can_shoot(t.state, mob)


def test_melee_attacks_are_split_and_declared_before_rolling() -> None:
    """Digest §9 D16: A 4 split 3 / 1 between two foes, the second weapon's A 2 to E2."""
    claws = Weapon("Claws", None, "MELEE", 4, 6, 11)
    horns = Weapon("Horns", None, "MELEE", 2, 6, 11)
    t = Table(dice=[6, 6, 6, 6, 6, 6] + [2] * 6)
    beast = t.add(1, sheet("horde_brute_mob", weapons=(claws, horns)), (10, 10))
    e1 = t.add(0, "legion_line_squad", (12, 10))
    e2 = t.add(0, "legion_line_squad", (10, 12))
    answers = [e1.uid, e1.uid, e2.uid, e1.uid, e2.uid, e2.uid]
    t.run(fight_action(t.state, t.ctx, beast), answers)
    assert all(d.kind.value == "allocate" for d in t.decisions)
    assert t.kinds().index("FightDeclared") < t.kinds().index("HitsRolled")
    reasons = [(r.reason, r.dice) for r in t.dice.rolls if "hit" in r.reason]
    assert reasons == [
        (f"hit rolls: {beast.name}'s Claws at {e1.name}", "3D6"),
        (f"hit rolls: {beast.name}'s Claws at {e2.name}", "1D6"),
        (f"hit rolls: {beast.name}'s Horns at {e2.name}", "2D6"),
    ]


def test_hit_modifiers_are_listed_one_by_one_with_their_rules() -> None:
    """Issue 15: the option and the dice line name each modifier, not their sum."""
    rows = ["." * 40] * 30
    rows[30 - 1 - 15] = "." * 5 + "RR" + "." * 33
    rows[30 - 1 - 16] = "." * 5 + "RR" + "." * 33
    t = Table(dice=[6, 2, 1], rows=rows)
    det = t.detachment(0, order="AIMED_FIRE")
    team = t.add(0, sheet("legion_fire_team", weapons=(RIFLES_A2,)), (5, 5), det=det)
    target = t.add(1, "horde_brute_mob", (5, 15))
    fired = t.run(shoot_action(t.state, t.ctx, team), [target.uid])
    assert fired
    need = "3+ (BS 3+, +1 Aimed Fire, -1 obscured)"
    assert t.decisions[0].options[0].label == f'{target.name}, 9": needs {need}'
    hit = t.dice.rolls[0]
    assert hit.reading is not None and hit.reading.need == need
    assert hit.describe().endswith(f"vs {need}: 1 of 2 hit")  # the event adds no line
    assert t.find("HitsRolled")[0].text == ""
    fist = t.detachment(1, order="AIMED_FIRE")
    mob = t.add(1, "horde_brute_mob", (20, 20), det=fist)
    assert melee_modifiers(t.state, mob, free=False) == (Modifier(-1, "Aimed Fire"),)
    assert melee_modifiers(t.state, mob, free=True) == ()


def test_a_lone_foe_takes_every_attack_and_the_log_shows_their_odds() -> None:
    """Issue 15: with one foe the game splits nothing, so no option shows the odds: the
    FightDeclared line does. WS 3+: 2/3 hit; SAP 6+ on a D12: 7/12 wound; the Line
    Squad's Sv 6+ on a D12 fails 5/12: 7/18 wound, 35/216 unsaved."""
    claws = Weapon("Claws", None, "MELEE", 4, 6, 11)
    t = Table(dice=[2] * 4)
    beast = t.add(1, sheet("horde_brute_mob", weapons=(claws,)), (10, 10))
    squad = t.add(0, "legion_line_squad", (12, 10))
    t.run(fight_action(t.state, t.ctx, beast))
    assert not t.decisions
    (declared,) = t.find("FightDeclared")
    assert f"Claws: 4 attacks at {squad.name} [hit 67%, wound 39%, unsaved 16%]" in declared.text
