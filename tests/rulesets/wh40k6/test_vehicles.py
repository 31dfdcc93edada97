"""Vehicles: weapons by speed, penetration, damage, explosions, transports, flyers (§9)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.board import Cell
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import Group
from engine.rulesets.wh40k6.explosions import destroy_vehicle
from engine.rulesets.wh40k6.fire_orders import build_shots
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.parsing import parse_profile, parse_weapon
from engine.rulesets.wh40k6.shots import has_moved, vehicle_full_bs
from engine.rulesets.wh40k6.state import Model
from engine.rulesets.wh40k6.vehicles import WRECKED, apply_damage, vehicle_hits
from tests.driver import Answer
from tests.rulesets.wh40k6.table import Table, catalogue, first_cell

Face = int | tuple[int, str]
MOB = [(8 + i, 14 + j) for j in range(2) for i in range(5)]


def las_lance_group(firer: str, hits: int) -> Group:
    lance = catalogue().weapons["las_lance"]
    group = Group("Las-lance (S9 AP2)", lance, 9, 2, 3, shots=[firer] * hits)
    group.hits = list(group.shots)
    return group


def resolve_hits(
    table: Table, owner: int, unit_id: str, group: Group, answers: Sequence[Answer] = ()
) -> int:
    unit = table.state.units[unit_id]
    return table.run(
        vehicle_hits(
            table.state,
            table.ctx,
            owner,
            unit,
            group,
            melee=False,
            cover=lambda v, f: None,
            destroy=destroy_vehicle,
        ),
        answers,
    )


def test_tc04_bastion_tank_weapons_by_speed() -> None:
    """TC-04: combat speed: one weapon at full BS (the las-lance), the repeater snaps."""
    table = Table()
    tank = table.add(0, "bastion_tank", [(10, 2)])
    mob = table.add(1, "horde_mob", MOB)
    vehicle = table.model(tank.models[0])
    vehicle.speed = t.COMBAT
    assert vehicle_full_bs(table.state, vehicle) == 1
    sight = Sight(table.state)
    shots = table.run(build_shots(table.state, table.ctx, sight, tank, mob), ["0"])
    by_name = {s.weapon.name: s.snap for s in shots}
    assert by_name == {"Las-lance": False, "Heavy repeater": True}
    vehicle.speed = t.CRUISING
    assert vehicle_full_bs(table.state, vehicle) == 0
    shots = table.run(build_shots(table.state, table.ctx, sight, tank, mob))
    assert all(s.snap for s in shots) and len(shots) == 2
    vehicle.speed = t.STATIONARY
    shots = table.run(build_shots(table.state, table.ctx, sight, tank, mob))
    assert not any(s.snap for s in shots) and len(shots) == 2


def test_tc04_fast_vehicle_at_cruising_speed_fires_two() -> None:
    """TC-04: a Fast vehicle at cruising speed fires two weapons at full BS."""
    table = Table()
    hauler = table.model(table.add(1, "scrap_hauler", [(10, 10)]).models[0])
    hauler.speed = t.CRUISING
    assert vehicle_full_bs(table.state, hauler) == 2


def test_tc04_ordnance_makes_the_other_weapons_snap() -> None:
    """TC-04: a vehicle that fires an Ordnance weapon fires the rest as snap shots."""
    table = Table()
    tank = table.add(0, "bastion_tank", [(10, 2)])
    mob = table.add(1, "horde_mob", MOB)
    vehicle = table.model(tank.models[0])
    cannon = parse_weapon(
        "cannon",
        {"name": "Battle cannon", "range": 48, "strength": 8, "ap": 3, "type": "Ordnance 1"},
        "t",
    )
    from dataclasses import replace

    from engine.rulesets.wh40k6.profiles import Mount

    weapons = (Mount(cannon, "turret"), vehicle.profile.weapons[1])
    vehicle.profile = replace(vehicle.profile, weapons=weapons)
    shots = table.run(build_shots(table.state, table.ctx, Sight(table.state), tank, mob))
    assert {s.weapon.name: s.snap for s in shots} == {
        "Battle cannon": False,
        "Heavy repeater": True,
    }


def walker_table(dice: Sequence[Face]) -> tuple[Table, Model, str]:
    table = Table(dice)
    walker = table.model(table.add(1, "scrap_walker", [(10, 10)], uid="B9").models[0])
    walker.facing = 4  # facing south, towards the firer
    squad = table.add(0, "warden_squad", [(10, 2)], uid="A1")
    return table, walker, squad.models[0]


def test_tc08_glance_then_pen_then_immobilised() -> None:
    """TC-08: die 2: 9+2=11=AV glance (HP 2); die 3: pen (HP 1); damage 4+1+1=6 Immobilised."""
    table, walker, firer = walker_table([(2, "penetration"), (3, "penetration"), (4, "damage")])
    unsaved = resolve_hits(table, 0, "B9", las_lance_group(firer, 2))
    assert unsaved == 2
    assert walker.hp == 1 and walker.immobilised
    assert [e.fields["result"] for e in table.find("ArmourRolled")] == ["glancing", "penetrating"]
    assert table.find("DamageRolled")[0].fields["result"] == t.IMMOBILISED


def test_tc09_explodes_hits_everything_within_the_radius() -> None:
    """TC-09: 5+1+1=7 Explodes!, radius 3: 4 Raiders and 1 Warden take S3 AP- hits."""
    script: list[Face] = [
        (3, "penetration"),
        (5, "damage"),
        (3, "radius"),
        (5, "wound rolls"),  # Mob A: S3 vs T4 wounds on 5+ ...
        1,
        1,
        1,
        (2, "save"),  # ... and the Raider's 6+ armour save fails
        (6, "wound rolls"),  # the Warden is wounded ...
        (3, "save"),  # ... and saves on 3+
    ]
    table = Table(script)
    walker = table.model(table.add(1, "scrap_walker", [(10, 10)], uid="B9").models[0])
    walker.facing = 4
    table.add(1, "horde_mob", [(13, 10), (13, 11), (14, 10), (14, 11), (20, 20)], uid="B1")
    table.add(0, "warden_squad", [(8, 10), (2, 2), (3, 2), (4, 2), (5, 2)], uid="A2")
    firer = table.add(0, "warden_squad", [(10, 2)], uid="A1").models[0]
    resolve_hits(table, 0, "B9", las_lance_group(firer, 1), ["auto"])
    hits = {e.text.split(" takes")[0]: e.fields["hits"] for e in table.find("HitsRolled")}
    assert hits == {"Horde Mob": 4, "Warden Squad": 1}
    assert walker.removed
    assert all(table.state.terrain[Cell(x, y)] == "crater" for x in (10, 11) for y in (10, 11))
    assert len(table.state.members(table.state.units["B1"])) == 4
    assert table.dice.unused == 0


def test_tc10_last_hull_point_glance_wrecks() -> None:
    """TC-10: a 1-HP tank glanced by a rocket (8+3=11 vs side 11) is Wrecked: no damage roll."""
    table = Table([(3, "penetration")])
    tank = table.model(table.add(0, "bastion_tank", [(10, 10)], uid="A9").models[0])
    tank.hp, tank.facing = 1, 0
    firer = table.add(1, "horde_mob", [(2, 11)], uid="B1").models[0]
    rocket = catalogue().weapons["scrap_rocket"]
    group = Group("Scrap rocket", rocket, 8, 3, 5, shots=[firer])
    group.hits = [firer]
    resolve_hits(table, 1, "A9", group)
    assert tank.wrecked and tank.removed
    assert not table.find("DamageRolled")
    assert all(
        table.state.terrain[Cell(x, y)] == "wreck" for x in (10, 11, 12) for y in (10, 11, 12)
    )
    assert t.FEATURES["wreck"].difficult and t.FEATURES["wreck"].dangerous


def test_tc11_repeated_immobilised_costs_a_hull_point() -> None:
    """TC-11: an Immobilised tank (3 HP) takes a pen (HP 2) and rolls Immobilised: HP 1."""
    table = Table([(6, "penetration"), (6, "damage")])
    tank = table.model(table.add(0, "bastion_tank", [(10, 10)], uid="A9").models[0])
    tank.immobilised = True
    firer = table.add(1, "horde_mob", [(11, 2)], uid="B1").models[0]
    rocket = catalogue().weapons["scrap_rocket"]
    group = Group("Scrap rocket (AP -)", rocket, 8, None, 5, shots=[firer])
    group.hits = [firer]
    tank.facing = 4  # facing south: the firer hits the front (AV13), 8+6=14 penetrates
    resolve_hits(table, 1, "A9", group)
    assert tank.hp == 1


def test_tc12_weapon_destroyed_with_nothing_left_immobilises() -> None:
    """TC-12: Weapon Destroyed on a vehicle whose weapons are all gone: Immobilised instead."""
    table = Table()
    tank = table.model(table.add(0, "bastion_tank", [(10, 10)]).models[0])
    tank.destroyed_weapons = [0, 1]
    apply_damage(table.state, table.ctx, tank, t.WEAPON_DESTROYED)
    assert tank.immobilised


def embarked_table(dice: Sequence[Face]) -> tuple[Table, Model]:
    table = Table(dice)
    hauler = table.model(table.add(1, "scrap_hauler", [(10, 10)], uid="B9").models[0])
    mob = table.add(1, "horde_mob", [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)], uid="B1")
    for mid in mob.models:
        table.model(mid).cell = None
    mob.embarked_in = hauler.id
    return table, hauler


def test_tc13_transport_explodes() -> None:
    """TC-13: 6 passengers take 6 S4 AP- hits, bail out within 3", test Pinning, count as moved."""
    script: list[Face] = [
        (4, "radius"),
        (4, "wound rolls"),  # one of the six S4 hits wounds (4+) ...
        1,
        1,
        1,
        1,
        1,
        (1, "save"),  # ... its 6+ armour save fails: one passenger dies
        (3, "Pinning"),  # Ld 7: 3 + 3 passes
        3,
    ]
    table, hauler = embarked_table(script)
    table.run(
        destroy_vehicle(table.state, table.ctx, hauler, t.EXPLODES),
        [first_cell],
    )
    mob = table.state.units["B1"]
    survivors = table.state.members(mob)
    assert len(survivors) == 5 and all(m.cell is not None for m in survivors)
    hull = (10, 10, 12, 12)
    for m in survivors:
        assert m.cell is not None
        gx = max(0, hull[0] - m.cell.x, m.cell.x - hull[2])
        gy = max(0, hull[1] - m.cell.y, m.cell.y - hull[3])
        assert max(gx, gy) + min(gx, gy) // 2 <= 3
    assert table.find("LeadershipTested")
    assert any(r.reason.startswith("Pinning") for r in table.dice.rolls)
    assert has_moved(table.state, survivors[0])
    assert mob.embarked_in is None


def test_tc13_wrecked_transport_no_hits() -> None:
    """TC-13: a Wrecked transport: no hits; disembark within 3"; Pinning test; moved."""
    table, hauler = embarked_table([(3, "Pinning"), 3])
    table.run(
        destroy_vehicle(table.state, table.ctx, hauler, WRECKED),
        [first_cell],
    )
    mob = table.state.units["B1"]
    assert len(table.state.members(mob)) == 6
    assert not table.find("HitsRolled")
    assert has_moved(table.state, table.state.members(mob)[0])


def test_tc14_crew_stunned_zooming_flyer_moves_exactly_18() -> None:
    """TC-14: a stunned zooming flyer may move exactly 18", with no pivot."""
    from engine.rulesets.wh40k6.flyers import flyer_limits

    table = Table()
    flyer_profile = parse_profile(
        "jet",
        {
            "name": "Strike Jet",
            "type": "vehicle",
            "vehicle_types": ["flyer"],
            "bs": 4,
            "av_front": 10,
            "av_side": 10,
            "av_rear": 10,
            "hp": 3,
            "weapons": ["las_lance"],
        },
        catalogue().weapons,
        "t",
    )
    flyer = Model("J1.1", "J1", 0, flyer_profile, 1, hp=3)
    assert flyer_limits(table.state, flyer) == (18, 36, 2)
    flyer.stunned_until = table.state.next_turn_end(0)
    assert flyer_limits(table.state, flyer) == (18, 18, 0)
    from engine.rulesets.wh40k6.vehicles import is_snap_only

    assert is_snap_only(table.state, flyer)
