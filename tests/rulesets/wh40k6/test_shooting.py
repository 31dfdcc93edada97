"""Shooting: shot counts, groups, hits, wounds, saves, allocation (digest wh40k6 §9)."""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.morale import end_of_phase_morale
from engine.rulesets.wh40k6.profiles import Weapon
from engine.rulesets.wh40k6.shots import Shot, reach_of, shot_count
from engine.rulesets.wh40k6.state import Unit
from engine.rulesets.wh40k6.volley import Fire, resolve_fire
from tests.rulesets.wh40k6.table import Table

SQUAD = [(10, 2), (11, 2), (12, 2), (13, 2), (14, 2)]
MOB = [(8 + i, 12 + j) for j in range(2) for i in range(5)]


def squad_shots(table: Table, squad: Unit, target: Unit) -> list[Shot]:
    shots = []
    for mid in squad.models:
        model = table.model(mid)
        weapon = model.profile.weapons[0].weapon
        if weapon.name == "Power blade":
            weapon = model.profile.weapons[1].weapon
        count, snap = shot_count(table.state, model, weapon, 10)
        shots.append(Shot(mid, weapon, count, snap, model.profile.bs, mid))
    return shots


def test_tc16_full_shooting_sequence_and_morale() -> None:
    """TC-16: 7 + 3 shots, 5 + 2 hits, 3 + 1 wounds, 4 Raiders die, Mob fails Ld7, falls back 6"."""
    table = Table(
        [
            *(1, 3, 4, 6, 2, 5, 3),  # group A to hit
            *(4, 1, 6, 3, 5),  # group A to wound
            *(2, 3, 6),  # group B to hit
            *(4, 2),  # group B to wound
            (4, "Morale"),
            4,
            (3, "fall back"),
            3,
        ]
    )
    squad = table.add(0, "warden_squad", SQUAD, name="Warden Squad Alpha")
    mob = table.add(1, "horde_mob", MOB, name="Horde Mob Red")
    for unit in table.state.units.values():
        unit.at_phase_start = len(unit.models)
    shots = squad_shots(table, squad, mob)
    assert [s.count for s in shots] == [1, 2, 2, 2, 3]
    fire = Fire(squad, mob, shots, Sight(table.state))
    # The equally close Raiders are identical: no one is asked which takes a wound (D32).
    unsaved = table.run(resolve_fire(table.state, table.ctx, fire), ["no", "0"])
    assert unsaved == 4
    assert len(table.state.members(mob)) == 6
    assert table.find("HitsRolled")[0].fields["hits"] == 5
    assert table.find("WoundsRolled")[0].fields["wounds"] == 3
    assert table.find("HitsRolled")[1].fields["hits"] == 2
    table.run(end_of_phase_morale(table.state, table.ctx, "Shooting"))
    assert mob.falling_back
    assert table.find("FellBack")[0].fields["inches"] == 6
    assert table.dice.unused == 0


def test_the_25_percent_morale_check_is_logged_as_the_end_of_the_phase() -> None:
    """§6.10: the check comes at the end of the phase, after every unit's shots; its log
    line says so before the dice (the bare dice line read as caused by the last unit's
    attack, in a playtest), and names the losses of the whole phase."""
    table = Table([(4, "Morale test for Horde Mob Red"), 4, (3, "fall back"), 3])
    mob = table.add(1, "horde_mob", MOB[:6], name="Horde Mob Red")
    mob.at_phase_start = 10
    table.add(1, "horde_mob", MOB[6:], name="Horde Mob Black").at_phase_start = 5  # 1 of 5
    table.run(end_of_phase_morale(table.state, table.ctx, "Shooting"))
    assert [e.text for e in table.events if e.text][:1] == [
        "End of the Shooting phase: Morale check for Horde Mob Red (lost 4 of 10 this phase)"
    ]
    assert [e.kind for e in table.events] == ["MoraleCheckDue", "LeadershipTested", "FellBack"]
    assert table.dice.rolls[0].reason == "Morale test for Horde Mob Red"


def test_tc01_heavy_weapon_after_moving_fires_snap_shots() -> None:
    """TC-01: the Heavy Warden moved: 3 snap shots, dice 6, 3, 5 give 1 hit; no charge."""
    table = Table([6, 3, 5])
    squad = table.add(0, "warden_squad", SQUAD)
    mob = table.add(1, "horde_mob", MOB)
    heavy = table.model(squad.models[4])
    heavy.moved = True
    weapon = heavy.profile.weapons[0].weapon
    count, snap = shot_count(table.state, heavy, weapon, 10)
    assert (count, snap) == (3, True)
    from engine.rulesets.wh40k6.attacks import roll_hits
    from engine.rulesets.wh40k6.volley import build_groups

    group = build_groups(table.state, [Shot(heavy.id, weapon, count, snap, 4, heavy.id)])[0]
    assert len(roll_hits(table.ctx, 0, group)) == 1
    squad.fired_types.add(weapon.kind)
    from engine.rulesets.wh40k6.charge import can_charge

    assert not can_charge(table.state, squad)
    assert mob.id


def test_tc01_variant_heavy_warden_declared_stationary() -> None:
    """TC-01 variant: the Heavy Warden did not move: BS4 (3+), the same dice give 3 hits."""
    table = Table([6, 3, 5])
    squad = table.add(0, "warden_squad", SQUAD)
    table.add(1, "horde_mob", MOB)
    for mid in squad.models[:4]:
        table.model(mid).moved = True
    heavy = table.model(squad.models[4])
    weapon = heavy.profile.weapons[0].weapon
    count, snap = shot_count(table.state, heavy, weapon, 10)
    assert (count, snap) == (3, False)
    from engine.rulesets.wh40k6.attacks import roll_hits
    from engine.rulesets.wh40k6.volley import build_groups

    group = build_groups(table.state, [Shot(heavy.id, weapon, count, snap, 4, heavy.id)])[0]
    assert len(roll_hits(table.ctx, 0, group)) == 3


def _weapon(kind: str, rng: int = 24, **extra: object) -> Weapon:
    from engine.rulesets.wh40k6.parsing import parse_weapon

    return parse_weapon(
        "test",
        {"name": "Test gun", "range": rng, "strength": 4, "ap": 5, "type": kind, **extra},
        "t",
    )


def test_tc02_salvo_after_moving() -> None:
    """TC-02: Salvo 2/4: 2 shots at half range after moving, 4 at full range when still."""
    table = Table()
    squad = table.add(0, "warden_squad", SQUAD)
    model = table.model(squad.models[1])
    salvo = _weapon("Salvo 2/4")
    assert shot_count(table.state, model, salvo, 20) == (4, False)
    assert reach_of(table.state, model, salvo) == 24
    model.moved = True
    assert shot_count(table.state, model, salvo, 10) == (2, False)
    assert reach_of(table.state, model, salvo) == 12
    squad.fired_types.add(salvo.kind)
    from engine.rulesets.wh40k6.charge import can_charge

    assert not can_charge(table.state, squad)


def test_tc03_ordnance_after_moving_cannot_fire() -> None:
    """TC-03: an infantry model that moved fires 0 shots with an Ordnance weapon."""
    table = Table()
    squad = table.add(0, "warden_squad", SQUAD)
    model = table.model(squad.models[1])
    model.moved = True
    assert shot_count(table.state, model, _weapon("Ordnance 1"), 10)[0] == 0


def test_tc15_majority_toughness() -> None:
    """TC-15: 4 x T4 and 1 x T5: S4 wounds on 4+; 2 x T4 and 2 x T5: T5, 5+."""
    from engine.rulesets.wh40k6.attacks import majority
    from engine.rulesets.wh40k6.tables import to_wound

    assert to_wound(4, majority([4, 4, 4, 4, 5])) == 4
    assert to_wound(4, majority([4, 4, 5, 5])) == 5


def test_tc17_instant_death_and_slay_the_warlord() -> None:
    """TC-17: the crusher claw (S10 AP2) wounds the Lexicar (T4 W2 3+): removed outright."""
    from engine.rulesets.wh40k6.attacks import Allocation, Group, allocate
    from engine.rulesets.wh40k6.scoring import score

    table = Table()
    lexicar = table.add(0, "warden_lexicar", [(5, 5)])
    chief = table.add(1, "horde_chieftain", [(5, 6)])
    table.state.sides[0].warlord = lexicar.models[0]
    claw = table.model(chief.models[0]).profile.weapons[0].weapon
    group = Group("crusher claw", claw, claw.strength_for(5), claw.ap, 0, shots=[chief.models[0]])
    group.hits = group.wounds = [chief.models[0]]
    alloc = Allocation(lexicar, lambda m: True, lambda m: 0, lambda m: None)
    table.run(allocate(table.state, table.ctx, 1, group, alloc))
    assert group.strength == 10
    assert table.model(lexicar.models[0]).removed
    assert "Instant Death" in table.texts("WoundSuffered")[0]
    assert table.state.sides[0].warlord_slain
    assert score(table.state, table.ctx)[1] >= 2  # Slay the Warlord + First Blood


def test_equally_close_models_say_what_sets_them_apart() -> None:
    """Playtest: "B3.3 Raider / B3.9 Raider" looked identical; one had 5+ cover (D32)."""
    from engine.rulesets.wh40k6.attacks import Allocation, Group, allocate

    table = Table([(1, "save")])
    lexicar = table.add(0, "warden_lexicar", [(5, 5)])
    mob = table.add(1, "horde_mob", [(5, 12), (4, 8), (6, 8)])  # Boss far, two Raiders tied
    pistol = table.model(lexicar.models[0]).profile.weapons[1].weapon
    group = Group("pistol", pistol, 4, pistol.ap, 0, shots=[lexicar.models[0]])
    group.hits = group.wounds = [lexicar.models[0]]
    in_cover = mob.models[2]
    alloc = Allocation(
        mob,
        lambda m: True,
        lambda m: table.state.board.range_to(m.cell, Cell(5, 5)),  # type: ignore[arg-type]
        lambda m: 5 if m.id == in_cover else None,
    )
    table.run(allocate(table.state, table.ctx, 0, group, alloc), [in_cover])
    labels = [o.label for o in table.decisions[0].options[1:]]
    assert labels == ["B1.2 Raider (no save)", "B1.3 Raider (5+ cover)"]
    assert table.model(in_cover).removed
