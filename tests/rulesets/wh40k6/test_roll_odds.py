"""What wh40k6's rolls need and their odds before the choice (issue #15; TC-19)."""

from __future__ import annotations

from fractions import Fraction

from engine.rulesets.wh40k6.attacks import Group
from engine.rulesets.wh40k6.charge import charge, charge_chance, charge_need, charge_odds
from engine.rulesets.wh40k6.fight_odds import _ahead
from engine.rulesets.wh40k6.fire_orders import shot_odds
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.odds import groups_odds
from engine.rulesets.wh40k6.tables import PISTOL
from engine.rulesets.wh40k6.vehicles import armour_chances, explode_chance
from tests.rulesets.wh40k6.table import Table, catalogue
from tests.rulesets.wh40k6.test_assault import MOB_A, SQUAD_A


def test_a_charge_shows_its_chance_and_the_roll_says_the_distance_it_needs() -> None:
    """TC-19's mob: the Raider 5" away needs 5 (30 of 36); once Overwatch kills it, the
    closest model needs 6, so 1 + 4 falls short. Its blows: each hits the Wardens' WS4 on
    4+ and is saved on their 3+; the Mob Boss's 5 (A3, two weapons, charging) wound on 4+
    (S4), the 8 Raiders' 4 each and the Rocket Raider's 3 (one weapon) on 5+ (S3), so
    (5/12 + 35/18) / 40 = 17/288 of them get through."""
    table = Table([*(6, 6, 1, 2, 3, 4, 5), *(4, 1), *(1, 2, 3), 1, 4, (6, "re-rolled charge")])
    squad = table.add(0, "warden_squad", SQUAD_A, uid="A1", name="Warden Squad Alpha")
    table.add(0, "warden_squad", [(20, 6)], uid="A2", name="Warden Squad Beta")
    mob = table.add(1, "horde_mob", MOB_A, uid="B1", name="Horde Mob Red")
    table.state.active = 1
    mob.has_shot, mob.shot_target, mob.fired_types = True, squad.id, {PISTOL}
    assert charge_need(table.state, mob, squad, False) == (5, False)
    chances = charge_odds(table.state, mob, squad).chances
    assert chances[:2] == (
        ("charge succeeds", Fraction(5, 6)),
        ("then a blow gets through", Fraction(17, 288)),
    )
    assert [label for label, _ in chances[2:]] == ["wins the fight", "loses the fight"]
    assert chances[2][1] > chances[3][1]  # 40 blows at 17/288 against the squad's few
    table.run(charge(table.state, table.ctx, mob, squad), ["yes", "lowest-1", "auto"])
    ranged = [r for r in table.dice.rolls if r.reason.startswith("charge range")]
    assert [r.result() for r in ranged] == ["1, 4 = 5 vs 6+ (distance 6): short"]


def test_slowed_charges_keep_the_lowest_two_of_three_dice() -> None:
    assert charge_chance(7, False) == Fraction(21, 36)
    assert charge_chance(7, True) == Fraction(69, 216)
    assert charge_chance(None, False) == 0


def test_shooting_targets_show_the_chance_to_hit_and_wound() -> None:
    """Wardens (BS 4: 3+) at T4: 7 S4 pistol and rifle shots wound on 4+, the heavy
    repeater's 3 S5 shots on 3+: 2/3 hit, and 2/3 x (7 x 1/2 + 3 x 2/3) / 10 wound."""
    table = Table([])
    squad = table.add(0, "warden_squad", SQUAD_A, uid="A1", name="Warden Squad Alpha")
    mob = table.add(1, "horde_mob", [(12, 12)], uid="B1", name="Horde Mob Red")
    odds = shot_odds(table.state, Sight(table.state), squad, mob)
    assert odds is not None and odds.hit == Fraction(2, 3)
    assert odds.wound == Fraction(11, 30)


def test_shooting_a_vehicle_shows_the_whole_chain_not_only_the_hit() -> None:
    """The same Wardens at a Scrap Hauler (AV10 all round, open-topped, no cover): 2/3 hit;
    the 7 S4 shots glance on a 6, the 3 S5 shots glance on a 5 and penetrate on a 6, so a
    shot glances 2/3 x 10/60 = 1/9 and penetrates 2/3 x 3/60 = 1/30; nothing saves, so
    13/90 take a hull point; a penetrating hit (AP4: +0, open-topped +1) explodes on a 6:
    1/30 x 1/6 = 1/180."""
    table = Table([])
    squad = table.add(0, "warden_squad", SQUAD_A, uid="A1", name="Warden Squad Alpha")
    hauler = table.add(1, "scrap_hauler", [(12, 12)], uid="B1", name="Scrap Hauler")
    odds = shot_odds(table.state, Sight(table.state), squad, hauler)
    assert odds is not None and odds.hit == Fraction(2, 3)
    assert odds.chances == (
        ("glancing", Fraction(1, 9)),
        ("penetrating", Fraction(1, 30)),
        ("hull point lost", Fraction(13, 90)),
        ("explodes", Fraction(1, 180)),
    )


def test_armour_and_damage_chances_follow_the_penetration_and_damage_tables() -> None:
    """S6 against AV10: 4 glances, 5-6 penetrate; ordnance keeps the best of 2D6; a Melta
    die is added; AP1 (+2) explodes on 5-6 (§6.8.13-§6.8.14)."""
    assert armour_chances(6, 10, ordnance=False, melta=False) == {
        "none": Fraction(1, 2),
        "glancing": Fraction(1, 6),
        "penetrating": Fraction(1, 3),
    }
    assert armour_chances(6, 11, ordnance=True, melta=False)["penetrating"] == Fraction(11, 36)
    assert armour_chances(8, 14, ordnance=False, melta=True)["penetrating"] == Fraction(21, 36)
    assert explode_chance(1, False) == Fraction(1, 3) and explode_chance(None, False) == 0


def test_close_combat_odds_against_a_tank_strike_its_rear_armour() -> None:
    """§6.13.5: in close combat a non-walker is hit on the rear (AV10 on a Bastion Tank,
    not the front's 13), with no cover: a Krak grenade (S6 AP4) that hits glances on a 4
    and penetrates on 5-6; Explodes! needs a 7 (AP4 adds nothing): never."""
    table = Table([])
    squad = table.add(0, "warden_squad", SQUAD_A, uid="A1", name="Warden Squad Alpha")
    tank = table.add(1, "bastion_tank", [(10, 3)], uid="B1", name="Bastion Tank")
    krak = catalogue().weapons["krak_grenades"]
    group = Group("Krak grenades", krak, 6, 4, 0, shots=[squad.models[0]])
    odds = groups_odds(table.state, None, [group], tank)
    assert odds is not None and odds.hit == 1
    assert odds.chances == (
        ("glancing", Fraction(1, 6)),
        ("penetrating", Fraction(1, 3)),
        ("hull point lost", Fraction(1, 2)),
        ("explodes", Fraction(0)),
    )


def test_a_target_s_armour_shows_in_the_unsaved_chance() -> None:
    """The Wardens' AP5 shots ignore a mob's 6+ armour: every wound is unsaved (11/30).
    The mob's AP6 pistols (BS2: 1/3 hit, S4 vs T4: 1/2 wound) meet the Wardens' 3+ armour,
    which saves two in three: 1/6 wound, 1/18 unsaved."""
    table = Table([])
    squad = table.add(0, "warden_squad", SQUAD_A, uid="A1", name="Warden Squad Alpha")
    mob = table.add(1, "horde_mob", [(12 + i, 12) for i in range(9)], uid="B1", name="Mob")
    odds = shot_odds(table.state, Sight(table.state), squad, mob)
    assert odds is not None and odds.unsaved == odds.wound == Fraction(11, 30)
    back = shot_odds(table.state, Sight(table.state), mob, squad)
    assert back is not None and (back.wound, back.unsaved) == (Fraction(1, 6), Fraction(1, 18))


def test_a_fight_is_won_by_throwing_more_successes() -> None:
    """One throw at 1/2 against one: ahead only on a success against a failure, 1/4.
    Two against one: ahead on 1+ against 0 (3/4 x 1/2) or 2 against 1 (1/4 x 1/2), 1/2."""
    assert _ahead((1, Fraction(1, 2)), (1, Fraction(1, 2))) == Fraction(1, 4)
    assert _ahead((2, Fraction(1, 2)), (1, Fraction(1, 2))) == Fraction(1, 2)
    assert _ahead((3, Fraction(1, 2)), (0, Fraction(0))) == Fraction(7, 8)  # no blow back
