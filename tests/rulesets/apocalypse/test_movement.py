"""Moving, engaging, transports and reserves (digest §6.3.2, §6.6-§6.8, §9 E5, E6)."""

from __future__ import annotations

from engine.board import Cell
from engine.footprints import rect_distance, square
from engine.rulesets.apocalypse.activation import _actions, activate
from engine.rulesets.apocalypse.geometry import contacts, distance
from engine.rulesets.apocalypse.movement import move_action, reach
from engine.rulesets.apocalypse.placement import reserve_cells
from engine.rulesets.apocalypse.profiles import Weapon
from engine.rulesets.apocalypse.shooting import can_shoot
from engine.rulesets.apocalypse.state import DESTROYED, EMBARKED, RESERVE
from engine.rulesets.apocalypse.transports import board, can_disembark, embark_choices
from tests.rulesets.apocalypse.table import Table, sheet


def test_no_charge_a_double_move_reaches_base_contact() -> None:
    """Digest §9 E5: M 5 under Assault (10") covers 8 to base contact and fights; under
    Advance (5") the nearest it gets is 4"."""
    t = Table(dice=[3, 3, 1, 6, 6, 2, 12])
    det = t.detachment(1, order="ASSAULT")
    mob = t.add(1, "horde_brute_mob", (0, 10), det=det)  # cells x 0-1
    squad = t.add(0, "legion_line_squad", (10, 10))  # D = 10 - 1 = 9
    assert distance(mob, squad) == 9
    assert reach(t.state, mob, 10)[Cell(8, 10)] == 8
    advance = reach(t.state, mob, 5)
    best = min(rect_distance(squad.rect, square(c, 2)) for c in advance)
    assert best == 4
    t.run(activate(t.state, t.ctx, det), [mob.uid, "8,10", mob.uid])  # its one action: fight
    assert contacts(t.state, mob) == [squad]
    assert mob.fought and not mob.shot
    assert (squad.blast_small, squad.blast_large) == (0, 1)  # 3 hits, 2 wounds
    assert t.dice.unused == 0


def test_lords_of_war_shoot_and_fight() -> None:
    """Digest §9 E6: a SUPER-HEAVY under Advance may shoot and fight; under Assault fight."""
    t = Table()
    det = t.detachment(0, order="ADVANCE")
    colossus = t.add(0, "legion_colossus", (10, 10), det=det)
    t.add(1, "horde_brute_mob", (13, 10))  # base contact
    t.add(1, "horde_brute_mob", (10, 20))  # something to shoot at
    assert can_shoot(t.state, colossus)
    assert _actions(t.state, det, colossus) == ["shoot", "fight"]
    colossus.shot = True
    assert _actions(t.state, det, colossus) == ["fight"]
    det.order = "ASSAULT"
    colossus.shot = False
    assert _actions(t.state, det, colossus) == ["fight"]
    squad_det = t.detachment(0, order="ADVANCE")
    squad = t.add(0, "legion_line_squad", (20, 10), det=squad_det)
    squad.shot = True
    assert _actions(t.state, squad_det, squad) == []


def test_engaged_units_stay_fall_back_or_pile_in() -> None:
    """Digest §6.6 step 2: fall back ends more than 1" away (D >= 2); pile in 3" to a foe
    touched at the start; falling back forbids shooting and fighting (A15)."""
    t = Table()
    squad = t.add(0, "legion_line_squad", (10, 10))
    mob = t.add(1, "horde_brute_mob", (12, 10))
    procedure = move_action(t.state, t.ctx, squad, 6)
    decision = next(procedure)
    labels = {o.key: o.label for o in decision.options}
    assert labels["stay"] == "Stay in base contact"
    falls = [k for k, v in labels.items() if v.startswith("Fall Back")]
    piles = [k for k, v in labels.items() if v.startswith("Pile In")]
    assert falls and piles
    for key in falls:
        x, y = (int(v) for v in key.split(","))
        assert rect_distance(square(Cell(x, y), 2), mob.rect) >= 2
    for key in piles:
        x, y = (int(v) for v in key.split(","))
        assert rect_distance(square(Cell(x, y), 2), mob.rect) == 1
    t.decisions.append(decision)
    t.run_from(procedure, decision, [falls[0]])
    assert squad.fell_back and not contacts(t.state, squad)
    assert not can_shoot(t.state, squad)


def test_ruins_are_for_infantry_and_flyers_cross_impassable_ground() -> None:
    """Digest §4.2: only INFANTRY enter RUINS (+1"); FLY passes over IMPASSABLE cells."""
    rows = ["." * 40] * 30
    rows = [r[:15] + ("#" if 10 <= 29 - i <= 19 else ".") + r[16:] for i, r in enumerate(rows)]
    t = Table(rows=rows)
    walker = t.add(1, "horde_scrap_walker", (12, 14))
    raiders = t.add(1, "horde_sky_raiders", (12, 16))
    assert all(c.x + 1 < 15 for c in reach(t.state, walker, 6))
    assert Cell(17, 16) in reach(t.state, raiders, 12)
    assert Cell(15, 16) not in reach(t.state, raiders, 12)  # cannot end over the wall


def test_embarking_and_disembarking() -> None:
    """Digest §6.8: wholly within 6" of a transport with room; out within 6" only while
    the transport has not moved; never both in one turn."""
    t = Table()
    det = t.detachment(0, order="ADVANCE")
    carrier = t.add(0, "legion_carrier", (10, 10), det=det)
    squad = t.add(0, "legion_line_squad", (14, 10), det=det)
    assert embark_choices(t.state, squad) == [carrier]
    mob = t.add(1, "horde_brute_mob", (30, 25))
    assert embark_choices(t.state, mob) == []  # not a friend
    board(t.state, squad, carrier)
    assert squad.location == EMBARKED and carrier.passengers == [squad.uid]
    assert can_disembark(t.state, squad)
    carrier.moved = True
    assert not can_disembark(t.state, squad)
    carrier.moved = False
    squad.embarked_this_turn = True
    assert not can_disembark(t.state, squad)


def test_embarking_resolves_blast_markers_first() -> None:
    """Digest §6.8.1 step 2: saves and morale now; a destroyed unit never boards."""
    t = Table(dice=[(1, "large"), (4, "large")])
    det = t.detachment(0, order="ADVANCE")
    carrier = t.add(0, "legion_carrier", (10, 10), det=det)
    squad = t.add(0, "legion_line_squad", (14, 10), det=det)
    squad.blast_large = 2
    t.run(move_action(t.state, t.ctx, squad, 6), ["stay", carrier.uid])
    assert squad.location == DESTROYED and not carrier.passengers


def test_minimum_move_or_destruction() -> None:
    """Digest §6.6 step 5: an AIRCRAFT with no legal move covering its minimum dies."""
    jet = sheet("horde_sky_raiders", keywords=frozenset({"AIRCRAFT", "FLY"}), min_move=20)
    t = Table(rows=["." * 12] * 10)
    flyer = t.add(1, jet, (5, 5))
    t.run(move_action(t.state, t.ctx, flyer, 12))
    assert flyer.location == DESTROYED


def test_reserves_arrive_at_the_edge_or_deep() -> None:
    """Digest §6.3.2: EDGE wholly within 6" of the own edge and not touching an enemy;
    DEEP (Drop Assault, Ambush) more than 9" from every enemy."""
    t = Table()
    raiders = t.add(1, "horde_sky_raiders", None, location=RESERVE)
    enemy = t.add(0, "legion_line_squad", (20, 15))
    deep = reserve_cells(t.state, raiders, deep=True)
    assert deep and all(rect_distance(square(c, 2), enemy.rect) > 9 for c in deep)
    edge = reserve_cells(t.state, raiders, deep=False)
    assert edge and all(c.y >= 30 - 6 for c in edge)


def test_fall_back_is_not_a_melee_exit_for_titans() -> None:
    """Digest §6.5 step 6: TITANIC and FLY may still shoot after falling back."""
    t = Table()
    colossus = t.add(0, "legion_colossus", (10, 10))
    colossus.fell_back = True
    t.add(1, "horde_brute_mob", (10, 25))
    assert can_shoot(t.state, colossus)
    squad = t.add(
        0, sheet("legion_line_squad", weapons=(Weapon("R", 24, "SMALL_ARMS", 1, 7, 12),)), (20, 10)
    )
    squad.fell_back = True
    assert not can_shoot(t.state, squad)
