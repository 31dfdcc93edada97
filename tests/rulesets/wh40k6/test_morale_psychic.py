"""Regroup, psychic tests, Perils of the Warp, Deny the Witch (digest wh40k6 §9)."""

from __future__ import annotations

from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.morale import leadership, regroup
from engine.rulesets.wh40k6.psychic import deny_the_witch, manifest, psychic_test
from tests.rulesets.wh40k6.table import Table, first_cell

MOB_CELLS = [(10, 10), (11, 10)]


def test_tc21_regroup_below_25_percent_needs_a_double_one() -> None:
    """TC-21: 2 of 10 left: 1 + 2 = 3 <= Ld 7 still fails; the Mob falls back again."""
    table = Table([(1, "Regroup"), 2, (3, "fall back"), 3])
    mob = table.add(1, "horde_mob", MOB_CELLS)
    mob.start_count = 10
    mob.falling_back = True
    passed = table.run(regroup(table.state, table.ctx, mob))
    assert not passed and mob.falling_back
    assert table.find("FellBack")


def test_regroup_pass_moves_3_inches() -> None:
    """§6.6: a pass ends falling back, allows a 3" regroup move, snap shots, no charge."""
    table = Table([(3, "Regroup"), 3])
    mob = table.add(1, "horde_mob", MOB_CELLS)
    mob.falling_back = True
    passed = table.run(regroup(table.state, table.ctx, mob), [first_cell])
    assert passed and not mob.falling_back and mob.regrouped


def test_tc22_double_six_fails_with_perils() -> None:
    """TC-22: 6 + 6: the test fails and Perils costs the Lexicar a wound (W2 -> 1)."""
    table = Table([6, 6])
    lexicar = table.model(table.add(0, "warden_lexicar", [(5, 5)]).models[0])
    assert not psychic_test(table.state, table.ctx, lexicar, t.POWERS[1])
    assert lexicar.wounds == 1 and table.find("PerilsSuffered")


def test_tc22_double_one_passes_with_perils() -> None:
    """TC-22: 1 + 1: the power is manifested, but Perils of the Warp strikes."""
    table = Table([1, 1])
    lexicar = table.model(table.add(0, "warden_lexicar", [(5, 5)]).models[0])
    assert psychic_test(table.state, table.ctx, lexicar, t.POWERS[1])
    assert lexicar.wounds == 1


def test_tc22_pass_then_deny_the_witch_on_a_six() -> None:
    """TC-22: 4 + 5 = 9 <= Ld 10 passes; the Mob (no psyker) denies it on a 6."""
    table = Table([4, 5, (6, "Deny")])
    lexicar = table.model(table.add(0, "warden_lexicar", [(5, 5)]).models[0])
    mob = table.add(1, "horde_mob", MOB_CELLS)
    assert psychic_test(table.state, table.ctx, lexicar, t.POWERS[1])
    assert deny_the_witch(table.state, table.ctx, mob, t.POWERS[1])


def test_dread_hex_lowers_leadership_until_the_casters_next_turn() -> None:
    """§4.8: Dread Hex: -2 Ld (minimum 2) until the start of the psyker's next turn."""
    table = Table([2, 2, (1, "Deny")])
    lexicar = table.model(table.add(0, "warden_lexicar", [(5, 5)]).models[0])
    mob = table.add(1, "horde_mob", MOB_CELLS)
    assert manifest(table.state, table.ctx, lexicar, t.POWERS[3], mob)
    assert leadership(table.state, mob) == 5
    assert mob.effects == [("dread_hex", 2, table.state.turn_index + 2)]


def test_iron_ward_gives_a_5_plus_invulnerable_save() -> None:
    """§4.8: Iron Ward gives the psyker's unit a 5++ (blessings are not denied)."""
    from engine.rulesets.wh40k6.attacks import best_save

    table = Table([3, 3])
    unit = table.add(0, "warden_lexicar", [(5, 5)])
    lexicar = table.model(unit.models[0])
    assert manifest(table.state, table.ctx, lexicar, t.POWERS[2], unit)
    assert best_save(table.state, lexicar, 2, None) == 5
