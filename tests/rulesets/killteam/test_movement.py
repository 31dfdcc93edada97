"""Movement phase actions, the Medic and Veteran windows (digest killteam §6.3.1-§6.3.5, §8.1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.board import Cell
from engine.decisions import Decision
from engine.rulesets.killteam import charge as charge_module
from engine.rulesets.killteam.movement import (
    activate,
    available_actions,
    medic_window,
    movement_phase,
    snapshot_engagement,
    veteran_window,
)
from engine.rulesets.killteam.state import Model
from tests.rulesets.killteam.table import Table


@pytest.fixture(autouse=True)
def _no_overwatch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Charges here test movement, not shooting: nobody can fire Overwatch."""
    monkeypatch.setattr(charge_module, "can_overwatch", lambda state, shooter, charger: False)
    yield


def cells_of(decision: Decision) -> set[Cell]:
    """The cells a PICK_CELL decision offers."""
    return {o.cell for o in decision.options if o.cell is not None}


def action_keys(t: Table, model: Model) -> list[str]:
    return [o.key for o in available_actions(t.state, model)]


def test_normal_move_never_within_1_of_an_enemy() -> None:
    """§6.3.1 item 2, §11.3: no cell of the path or the end may be within 1" of an enemy."""
    t = Table()
    mover = t.add(0, "trooper", (2, 5))
    t.add(1, "brute", (6, 5))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, mover), ["normal", "2,5"])
    offered = cells_of(t.decisions[-1])
    zone = {Cell(x, y) for x in (5, 6, 7) for y in (4, 5, 6)}
    assert not offered & zone
    # (8,5) is 6 cells away in a straight line, but the brute blocks that line.
    assert Cell(8, 5) not in offered and Cell(4, 5) in offered
    assert mover.cell == Cell(2, 5) and not mover.moved and mover.move_action == "normal"


def test_normal_move_sets_moved_flags() -> None:
    """§6.3.1 item 4, §10 A11: a change of position is a move."""
    t = Table()
    mover = t.add(0, "trooper", (2, 2))
    t.add(1, "brute", (14, 10))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, mover), ["normal", "8,2"])
    assert mover.cell == Cell(8, 2) and mover.moved and mover.moved_this_phase
    assert mover.activated and t.find("ModelMoved")


def test_action_table_when_free() -> None:
    """§6.3 table: a free model may move, advance, Ready, charge (enemy within 12") or Stay."""
    t = Table()
    near = t.add(0, "trooper", (2, 2))
    far = t.add(0, "trooper", (0, 11))
    t.add(1, "brute", (14, 2))
    snapshot_engagement(t.state)
    assert action_keys(t, near) == ["normal", "advance", "ready", "charge", "stay"]
    assert "charge" not in action_keys(t, far)  # 14" away


def test_action_table_engaged_at_phase_start() -> None:
    """§6.3 table, §6.3.4: a model engaged at the start may only Fall Back or Stay."""
    t = Table()
    model = t.add(0, "trooper", (5, 5))
    t.add(1, "brute", (6, 5))
    snapshot_engagement(t.state)
    assert action_keys(t, model) == ["fall_back", "stay"]


def test_charged_this_phase_may_only_stay() -> None:
    """PROPOSED §6.3: not engaged at phase start but within 1" now: only Stay, no question."""
    t = Table()
    model = t.add(0, "trooper", (5, 5))
    enemy = t.add(1, "brute", (9, 5))
    snapshot_engagement(t.state)
    enemy.cell = Cell(6, 5)  # it charged in earlier this phase
    assert action_keys(t, model) == ["stay"]
    t.run(activate(t.state, t.ctx, model))
    assert model.move_action == "stay" and model.activated and model.cell == Cell(5, 5)


def test_fall_back_ends_clear_of_enemies_and_may_pass_them() -> None:
    """§6.3.4, §10 A49: the path may pass within 1"; the end must be more than 1" away."""
    t = Table()
    model = t.add(0, "trooper", (5, 5))
    t.add(1, "brute", (6, 5))
    t.add(1, "brute", (4, 5))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, model), ["fall_back", "5,8"])
    offered = cells_of(t.decisions[-1])
    assert Cell(5, 5) not in offered
    for cell in offered:
        assert abs(cell.x - 6) > 1 or abs(cell.y - 5) > 1
        assert abs(cell.x - 4) > 1 or abs(cell.y - 5) > 1
    assert model.cell == Cell(5, 8) and model.fell_back and model.move_action == "fall_back"
    assert not model.ready and model.moved


def test_fall_back_unavailable_without_a_legal_end_cell() -> None:
    """§10 A49: a model boxed in a corner by enemies cannot Fall Back; it Stays."""
    t = Table()
    model = t.add(0, "trooper", (0, 0))
    for cell in ((1, 0), (1, 1), (0, 1)):
        t.add(1, "brute", cell)
    snapshot_engagement(t.state)
    assert action_keys(t, model) == ["stay"]


def test_ready_and_stay() -> None:
    """§6.3.3 Ready: no move, Ready token; §6.3.5 Stay: no move, not Ready."""
    t = Table()
    sniper = t.add(0, "trooper", (2, 2))
    other = t.add(0, "trooper", (4, 2))
    t.add(1, "brute", (14, 10))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, sniper), ["ready"])
    t.run(activate(t.state, t.ctx, other), ["stay"])
    assert sniper.ready and sniper.move_action == "ready" and not sniper.moved
    assert not other.ready and other.move_action == "stay"


def test_advance_adds_d6_and_command_reroll() -> None:
    """§6.3.2, §8.2: M + D6; the Advance roll may be re-rolled with a Command Re-roll."""
    t = Table(dice=[(1, "Advance"), (5, "Advance")])
    t.state.team(0).cp = 1
    model = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (15, 11))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, model), ["advance", "yes", "11,0"])
    assert model.cell == Cell(11, 0) and model.advanced and model.moved
    assert t.state.team(0).cp == 0 and t.dice.unused == 0
    assert Cell(12, 0) not in cells_of(t.decisions[-1])


def test_scout_passive_rerolls_advance_for_free_and_stratagem_adds_2() -> None:
    """§8.1 Scout: free Advance re-roll (passive) and +2" Move (stratagem, 1 CP)."""
    t = Table(dice=[(2, "Advance"), (4, "Advance")])
    t.state.team(0).cp = 1
    scout = t.add(0, "trooper", (0, 0), specialism="Scout")
    t.add(1, "brute", (15, 11))
    snapshot_engagement(t.state)
    assert "advance+scout" in action_keys(t, scout)
    t.run(activate(t.state, t.ctx, scout), ["advance+scout", "yes", "12,0"])
    assert scout.cell == Cell(12, 0)  # 6 + 2 + 4
    assert t.state.team(0).cp == 0 and "Scout stratagem" in t.state.team(0).stratagems_used
    assert Cell(13, 0) not in cells_of(t.decisions[-1])


def test_medic_window_injects_and_injection_adds_1_to_advance() -> None:
    """§8.1 Medic, §10 A32: another friend within 2" gets +1 to its Advance roll."""
    t = Table(dice=[(3, "Advance")])
    t.state.team(0).cp = 1
    t.add(0, "trooper", (1, 0), specialism="Medic")
    patient = t.add(0, "trooper", (0, 0))
    t.add(0, "trooper", (9, 9))  # too far to be offered
    t.add(1, "brute", (15, 11))
    t.run(medic_window(t.state, t.ctx), ["A2"])
    assert t.decisions[0].keys() == ("no", "A2")
    # The offer says what the point buys (playtest: it named only the stratagem).
    assert t.decisions[0].prompt == (
        'Medic stratagem (1 CP): inject a friend within 2" of A1 Militia Trooper (Medic): '
        "+1 to Advance and charge rolls, +1 Attack this round?"
    )
    assert patient.injected and t.state.team(0).cp == 0
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, patient), ["advance", "10,0"])
    assert t.find("AdvanceRolled")[0].get("total") == 4
    assert Cell(11, 0) not in cells_of(t.decisions[-1])


def test_veteran_window_order_and_once_per_game() -> None:
    """§8.1 Veteran, §5.2 R2: first deployer first; 1 CP; once per game; it has moved."""
    t = Table()
    for team in t.state.teams:
        team.cp = 2
    t.state.first_deployer = 1
    vet_a = t.add(0, "trooper", (2, 0), specialism="Veteran")
    vet_b = t.add(1, "brute", (2, 11), specialism="Veteran")
    t.run(veteran_window(t.state, t.ctx), ["normal", "2,10", "no"])
    assert [d.player for d in t.decisions[:1]] == [1]
    assert vet_b.cell == Cell(2, 10) and vet_b.moved and t.state.team(1).veteran_used
    assert t.state.team(1).cp == 1 and not t.state.team(0).veteran_used
    assert vet_a.cell == Cell(2, 0) and t.state.team(0).cp == 2
    t.run(veteran_window(t.state, t.ctx), ["no"])  # only A is still asked
    assert t.decisions[-1].player == 0


def test_phase_shaken_models_do_nothing_and_end_makes_the_rest_stay() -> None:
    """§6.3: shaken models are never offered; models never activated Stay."""
    t = Table()
    shaken = t.add(0, "trooper", (2, 2))
    shaken.shaken = True
    idle = t.add(0, "trooper", (4, 2))
    t.add(1, "brute", (14, 10))
    t.state.initiative = 0

    def first_pick(decision: Decision) -> str:
        assert decision.option("A1") is None
        return "end"

    t.run(movement_phase(t.state, t.ctx), [first_pick, "end"])
    assert t.decisions[0].player == 0 and t.decisions[1].player == 1
    assert idle.move_action == "stay" and shaken.move_action == ""


def test_phase_charged_model_may_only_stay_later() -> None:
    """PROPOSED §6.3: B1 charged by A1 in A's turn gets no move of its own in B's turn."""
    t = Table(dice=[(6, "charge"), (6, "charge")])
    charger = t.add(0, "trooper", (2, 2))
    target = t.add(1, "brute", (8, 2))
    t.state.initiative = 0
    t.run(
        movement_phase(t.state, t.ctx),
        ["A1", "charge", "none", "7,2", "B1"],
    )
    assert charger.charge_successful and target.charged_by == {"A1"}
    assert target.move_action == "stay" and target.cell == Cell(8, 2)
    assert t.dice.unused == 0
