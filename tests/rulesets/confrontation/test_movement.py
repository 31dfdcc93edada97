"""Walk, run, charge and the activation turn (digest confrontation §6.3, §6.6, §6.8, §6.9, §11)."""

from __future__ import annotations

from fractions import Fraction

from engine.board import Cell
from engine.decisions import Odds
from engine.rulesets.confrontation.actions import (
    COMBINATIONS,
    combination_labels,
    combinations,
    walk_cells,
)
from engine.rulesets.confrontation.activation import _declaration_options, activation_turn
from engine.rulesets.confrontation.charge import resolve_charge
from engine.rulesets.confrontation.disengage import disengage_chance
from engine.rulesets.confrontation.geometry import move_destinations, path_costs
from tests.rulesets.confrontation.table import Table, profile, weapon


def test_diagonals_cost_one_two_one() -> None:
    """§11: d = max + min // 2 on open ground."""
    t = Table()
    costs = path_costs(t.state.board, [Cell(0, 0)], set())
    assert costs[Cell(3, 3)] == 4 and costs[Cell(4, 2)] == 5 and costs[Cell(5, 0)] == 5


def test_a_kept_path_answer_is_neither_changed_by_its_caller_nor_reused_for_other_blockers() -> (
    None
):
    """path_costs keeps its last answers: a caller's edits must not reach the next one."""
    t = Table()
    first = path_costs(t.state.board, [Cell(0, 0)], set(), 6)
    first[Cell(3, 3)] = 99
    del first[Cell(0, 1)]
    again = path_costs(t.state.board, [Cell(0, 0)], set(), 6)
    assert again[Cell(3, 3)] == 4 and again[Cell(0, 1)] == 1
    walled = path_costs(t.state.board, [Cell(0, 0)], {Cell(0, 1), Cell(1, 1), Cell(1, 0)}, 6)
    assert walled == {Cell(0, 0): 0}


def test_a_diagonal_squeeze_between_two_obstacles_is_forbidden() -> None:
    """§11: a diagonal step needs one of the two cells beside it open."""
    t = Table()
    f = t.add(0, (5, 5))
    t.add(1, (6, 5))
    t.add(1, (5, 6))
    assert Cell(6, 6) not in move_destinations(t.state, f, 1, set())
    assert Cell(4, 6) in move_destinations(t.state, f, 1, set())


def test_same_card_fighters_pass_through_each_other() -> None:
    """S1: fighters of one card may pass through each other but not stop there."""
    t = Table()
    a = t.add(0, (5, 0), "C")
    t.add(0, (5, 1), "C")
    t.add(1, (4, 1))  # enemies on both sides of the card mate
    t.add(1, (6, 1))
    alone = move_destinations(t.state, a, 2, set())
    together = move_destinations(t.state, a, 2, {"A1", "A2"})
    assert Cell(5, 2) not in alone and Cell(5, 2) in together
    assert Cell(5, 1) not in together


def test_a_walk_may_not_end_in_contact() -> None:
    """§6.8 step 3 (A35): passing by is fine, stopping in contact is not."""
    t = Table()
    f = t.add(0, (5, 5))
    t.add(1, (5, 8))
    cells = walk_cells(t.state, f, 4, set())
    assert Cell(5, 7) not in cells and Cell(4, 8) not in cells
    assert Cell(5, 5) in cells  # a walk of 0: turning on the spot (A32)


def test_combinations_of_a_free_shooter() -> None:
    """§6.3 step 4: run only if free at the reveal; no shooting without a target."""
    t = Table()
    f = t.add(0, (5, 5), prof=profile("Bow", aim=2, weapon=weapon("Bow", 3, 20, 40, 60)))
    t.add(1, (5, 10))
    assert combinations(t.state, f) == ["walk", "shoot", "walk_shoot", "shoot_walk", "nothing"]
    f.free_at_reveal = True
    assert "run" in combinations(t.state, f)
    f.facing = 4
    assert combinations(t.state, f) == ["walk", "walk_shoot", "run", "nothing"]


def test_charge_reaches_a_contact_cell_and_faces_the_target() -> None:
    """§6.6 steps 2-4, 7: 2 x MOV; the charger faces the target; the target is engaged."""
    t = Table()
    f = t.add(0, (5, 2), facing=4)
    target = t.add(1, (5, 10))
    t.run(resolve_charge(t.state, t.ctx, f, "B1", {"A1"}, after_disengage=False), ["5,9"])
    assert f.cell == Cell(5, 9) and f.facing == 0 and f.charged
    assert target.engaged and target.facing == 0
    assert set(t.decisions[0].keys()) == {"5,9", "4,10", "6,10"}


def test_failed_charge_stops_closest_to_the_target() -> None:
    """§6.6 step 5 (§11): out of reach, the charger ends where the rest is shortest."""
    t = Table()
    f = t.add(0, (5, 0))
    t.add(1, (5, 15))
    t.run(resolve_charge(t.state, t.ctx, f, "B1", {"A1"}, after_disengage=False), ["5,8"])
    assert t.decisions[0].keys() == ("4,8", "5,8", "6,8")  # equally close: player's choice
    assert f.cell == Cell(5, 8) and f.facing == 0 and t.find("ChargeFailed")


def test_charge_engages_every_enemy_it_touches() -> None:
    """§6.6 step 6 (A14): another enemy in contact at the end is charged too."""
    t = Table()
    f = t.add(0, (5, 2))
    t.add(1, (5, 6))
    other = t.add(1, (4, 5))
    t.run(resolve_charge(t.state, t.ctx, f, "B1", {"A1"}, after_disengage=False), ["5,5"])
    assert other.engaged


def test_disengage_then_charge_with_one_mov() -> None:
    """§6.7 step 2 (A1): after a successful disengagement the charge allowance is MOV."""
    t = Table([5])  # INI 3 + 5 = 8 >= 6
    f = t.add(0, (5, 5))
    t.add(1, (5, 4))
    far = t.add(1, (5, 11))
    t.run(resolve_charge(t.state, t.ctx, f, "B2", {"A1"}, after_disengage=True), ["5,9"])
    assert f.cell == Cell(5, 9) and not far.engaged and t.find("ChargeFailed")


def test_activation_turn_declares_then_resolves_charges_first() -> None:
    """§6.3: reveal, declare for each fighter (D11), charges first, then common actions."""
    t = Table()
    a = t.add(0, (2, 2), "A")
    b = t.add(0, (8, 2), "A")
    t.add(1, (2, 8))
    t.state.side(0).deck.stack(["A"])
    answers = [
        "common",  # A1
        "charge:B1",  # A2
        "3,8",  # A2's contact cell: the charge resolves first
        "walk",  # A1's combination
        "3,4",  # A1 walks
        "N",  # and faces north
    ]
    t.run(activation_turn(t.state, t.ctx, 0), answers)
    assert b.cell == Cell(3, 8) and b.facing == 6
    assert a.cell == Cell(3, 4) and a.activated and b.charged
    kinds = t.kinds()
    assert kinds.index("ChargeMade") < kinds.index("FighterMoved")


def test_a_declared_charge_shows_the_chance_it_succeeds() -> None:
    """D11: the reach is known before declaring, so the odds say 100% or 0% (the computer
    player reads them); after a disengagement the charge needs that test first."""
    t = Table()
    a = t.add(0, (5, 0), "A")
    t.add(1, (5, 6))
    t.add(1, (5, 15))
    options = {o.key: o for o in _declaration_options(t.state, a, t.state.cards["A"])}
    near, far = options["charge:B1"].odds, options["charge:B2"].odds
    assert near is not None and near.chances == (("charge succeeds", Fraction(1)),)
    assert far is not None and far.chances == (("charge succeeds", Fraction(0)),)
    assert options["charge:B2"].label.endswith("(out of reach)")
    assert options["common"].odds is None
    held = t.add(0, (12, 4), "C")
    t.add(1, (12, 5))
    t.add(1, (13, 8))
    options = {o.key: o for o in _declaration_options(t.state, held, t.state.cards["C"])}
    odds = options["disengage_charge:B4"].odds
    chance = disengage_chance(t.state, held)
    assert odds is not None and odds.chances == (("charge succeeds", chance),)
    assert 0 < chance < 1


def test_a_second_charge_at_a_target_with_one_free_contact_cell_is_not_sure() -> None:
    """D11 (playtest): A2 declared a charge at B1 after A1 did; B1 has one free contact
    cell, so whichever charge is resolved second fails, yet both said 100%."""
    t = Table()
    a1 = t.add(0, (4, 3), "A")
    a2 = t.add(0, (6, 3), "A")
    t.add(1, (5, 8))  # B1: only (5,7) is free beside it
    t.add(1, (4, 8))  # B2
    t.add(1, (6, 8))  # B3
    t.add(1, (5, 9))  # B4
    card = t.state.cards["A"]
    first = {o.key: o for o in _declaration_options(t.state, a1, card)}
    assert first["charge:B1"].odds == Odds.of(("charge succeeds", Fraction(1)))
    second = {o.key: o for o in _declaration_options(t.state, a2, card, ["B1"])}
    shared = second["charge:B1"]
    assert shared.odds is None
    assert shared.label == (
        "Charge Fighter B1 (in reach if a contact cell is left: 1 free, "
        "a card-mate charges there too)"
    )
    # B3 has free contact cells of its own in reach: sure whatever A1 takes.
    assert second["charge:B3"].odds == Odds.of(("charge succeeds", Fraction(1)))
    assert second["charge:B3"].label.endswith("(in reach)")


def test_a_shot_from_here_at_nothing_in_range_says_it_would_miss() -> None:
    """§6.10 step 2 (A28; playtest): "Shoot" and "Shoot, then walk" were offered as if
    they could hit while the only enemy in sight stood beyond long range. Still legal
    (the range is measured after the target is chosen), but the list says so; a walk
    first may bring it in range."""
    t = Table()
    sling = profile("Slinger", aim=2, weapon=weapon("Sling", 3, 2, 3, 5))  # 2 cells long
    f = t.add(0, (5, 5), prof=sling)
    enemy = t.add(1, (5, 10))
    keys = combinations(t.state, f)
    labels = dict(zip(keys, combination_labels(t.state, f, keys), strict=True))
    assert labels["shoot"] == "Shoot (nothing in range: misses)"
    assert labels["shoot_walk"] == "Shoot, then walk (nothing in range: misses)"
    assert labels["walk_shoot"] == "Walk, then shoot"
    enemy.cell = Cell(5, 7)  # within the sling's long range
    assert combination_labels(t.state, f, keys) == [COMBINATIONS[k] for k in keys]
