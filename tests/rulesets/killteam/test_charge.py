"""Charges and charge reactions (digest killteam §6.3.6, §10 A12-A17, A47, A48; ex. D6)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.board import Cell
from engine.decisions import Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam import charge as charge_module
from engine.rulesets.killteam.charge import charge, retreat_cells
from engine.rulesets.killteam.movement import activate, can_charge, snapshot_engagement
from engine.rulesets.killteam.state import KTState, Model
from tests.rulesets.killteam.table import Table


@pytest.fixture(autouse=True)
def _no_overwatch(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Reactions other than Overwatch are tested here; shooting has its own tests."""
    monkeypatch.setattr(charge_module, "can_overwatch", lambda state, shooter, charger: False)
    yield


def test_d6_failed_charge_then_command_reroll_succeeds() -> None:
    """D6: 7 cells away, 3+2 = 5 fails; a Command Re-roll gives 4+3 = 7 and succeeds."""
    t = Table(dice=[(3, "charge"), (2, "charge"), (4, "charge"), (3, "charge")])
    t.state.team(0).cp = 1
    charger = t.add(0, "trooper", (0, 0))
    target = t.add(1, "brute", (7, 0))
    t.run(charge(t.state, t.ctx, charger), ["none", "yes", "6,0"])
    assert charger.cell == Cell(6, 0) and charger.charge_successful and charger.charge_declared
    assert target.charged_by == {"A1"} and charger.charge_targets == {"B1"}
    assert t.state.team(0).cp == 0 and t.dice.unused == 0
    ends = {o.cell for o in t.decisions[-1].options if o.cell is not None}
    assert all(t.state.board.is_adjacent(c, Cell(7, 0)) for c in ends)  # §10 A16


def test_d6_failed_charge_moves_as_close_as_possible() -> None:
    """D6 / §10 A48: without CP the 5 fails; moving 5 ends 2" from the target (or stay)."""
    t = Table(dice=[(3, "charge"), (2, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (7, 0))
    t.run(charge(t.state, t.ctx, charger), ["none", "B1", "5,0"])
    failure = t.decisions[-2]
    assert failure.keys() == ("stay", "B1") and 'ends 2" away' in failure.options[1].label
    tied = {o.cell for o in t.decisions[-1].options}
    assert Cell(5, 0) in tied and Cell(5, 1) in tied
    assert all(t.state.board.range_to(c, Cell(7, 0)) == 2 for c in tied if c is not None)
    assert charger.cell == Cell(5, 0) and charger.moved
    assert charger.charge_declared and not charger.charge_successful
    assert t.find("ChargeFailed")


def test_failed_charge_may_stay() -> None:
    """§6.3.6 step 6: the charger may stay; then it has not moved (§10 A11)."""
    t = Table(dice=[(1, "charge"), (1, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (7, 0))
    t.run(charge(t.state, t.ctx, charger), ["none", "stay"])
    assert charger.cell == Cell(0, 0) and not charger.moved and charger.charge_declared


def test_charge_may_not_pass_within_1_of_a_non_target() -> None:
    """§6.3.6 step 4, §11.3: the straight 5" path brushes a non-target, so 6 is not enough."""
    t = Table(dice=[(3, "charge"), (3, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    target = t.add(1, "brute", (6, 0))
    t.add(1, "brute", (3, 1))
    t.run(charge(t.state, t.ctx, charger), ["B1", "done", "none", "stay"])
    assert t.decisions[0].keys() == ("B1", "B2")
    assert not charger.charge_successful and target.charged_by == set()


def test_charge_success_never_ends_next_to_a_non_target() -> None:
    """§6.3.6 step 4: a cell next to both the target and a non-target is refused."""
    t = Table(dice=[(6, "charge"), (6, "charge")])
    charger = t.add(0, "trooper", (0, 5))
    t.add(1, "brute", (6, 5))
    t.add(1, "brute", (8, 5))
    t.run(charge(t.state, t.ctx, charger), ["B1", "done", "none", "5,5"])
    ends = {o.cell for o in t.decisions[-1].options}
    assert Cell(7, 5) not in ends and Cell(7, 4) not in ends and Cell(5, 5) in ends


def test_every_declared_target_is_charged_by_a_success() -> None:
    """§10 A17: a success marks every declared target, even one not reached."""
    t = Table(dice=[(6, "charge"), (6, "charge")])
    charger = t.add(0, "trooper", (0, 5))
    near = t.add(1, "brute", (6, 5))
    far = t.add(1, "brute", (10, 8))
    t.run(charge(t.state, t.ctx, charger), ["B1", "B2", "none", "5,5"])
    assert near.charged_by == {"A1"} and far.charged_by == {"A1"}


def test_medic_injection_adds_1_to_the_charge_roll() -> None:
    """§8.1 Medic: 2+3 = 5, +1 injected = 6 reaches a target 7 cells away."""
    t = Table(dice=[(2, "charge"), (3, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    charger.injected = True
    t.add(1, "brute", (7, 0))
    t.run(charge(t.state, t.ctx, charger), ["none", "6,0"])
    assert charger.charge_successful and t.find("ChargeRolled")[0].get("total") == 6


def test_charge_declaration_needs_no_line_of_sight() -> None:
    """§10 A47: an enemy behind a wall within 12" may be declared."""
    rows = ["." * 16] * 11 + ["...#............"]
    t = Table(dice=[(1, "charge"), (1, "charge")], rows=rows)
    charger = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (6, 0))
    assert not t.state.board.has_line_of_sight(Cell(0, 0), Cell(6, 0))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, charger), ["charge", "none", "stay"])
    assert charger.charge_declared and charger.charge_targets == {"B1"}


def test_retreat_ends_farther_and_uses_up_the_action() -> None:
    """§6.3.6 step 2, §10 A13: a Ready target may Retreat 3"; it loses Ready and its action."""
    t = Table(dice=[(1, "charge"), (1, "charge")])
    charger = t.add(0, "trooper", (0, 0))
    target = t.add(1, "brute", (6, 0))
    target.ready = True
    t.run(charge(t.state, t.ctx, charger), ["retreat:B1", "9,0", "stay"])
    offered = {o.cell for o in t.decisions[1].options}
    assert offered and all(t.state.board.range_to(c, Cell(0, 0)) > 6 for c in offered if c)
    assert Cell(10, 0) not in offered  # more than 3"
    assert target.cell == Cell(9, 0) and target.retreated and target.activated
    assert not target.ready and target.move_action == "retreat" and target.moved


def test_retreat_eligibility() -> None:
    """§10 A12, A13: no Retreat after moving this phase, Advancing, or next to an enemy."""
    t = Table()
    charger = t.add(0, "trooper", (0, 0))
    t.add(0, "trooper", (9, 5))
    moved = t.add(1, "brute", (5, 0))
    advanced = t.add(1, "brute", (5, 3))
    engaged = t.add(1, "brute", (8, 5))
    fresh = t.add(1, "brute", (3, 5))
    moved.moved_this_phase = True
    advanced.advanced = True
    assert retreat_cells(t.state, moved, charger)[1] == []
    assert retreat_cells(t.state, advanced, charger)[1] == []
    assert not charge_module.can_react(t.state, engaged)
    assert retreat_cells(t.state, fresh, charger)[1]
    fresh.fell_back = True
    assert not charge_module.can_react(t.state, fresh)


def test_defender_picks_the_reaction_order() -> None:
    """§10 A15: each target reacts once, in the defender's order, before the roll."""
    t = Table(dice=[(1, "charge"), (1, "charge")])
    charger = t.add(0, "trooper", (0, 5))
    first = t.add(1, "brute", (6, 5))
    second = t.add(1, "brute", (6, 8))
    t.run(
        charge(t.state, t.ctx, charger),
        ["B1", "B2", "retreat:B2", "9,8", "retreat:B1", "9,5", "stay"],
    )
    assert t.decisions[2].player == 1 and t.decisions[4].keys() == ("retreat:B1", "none")
    assert second.retreated and first.retreated


def test_overwatch_that_kills_the_charger_ends_the_charge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """§6.3.6 step 2: the charger taken out of action by Overwatch makes no charge roll."""

    def deadly(state: KTState, ctx: RuleContext, shooter: Model, charger: Model) -> Procedure[None]:
        charger.out_of_action = True
        return
        yield

    monkeypatch.setattr(charge_module, "can_overwatch", lambda state, shooter, charger: True)
    monkeypatch.setattr(charge_module, "overwatch", deadly)
    t = Table()
    charger = t.add(0, "trooper", (0, 0))
    t.add(0, "trooper", (0, 11))
    t.add(1, "brute", (6, 0))
    t.run(charge(t.state, t.ctx, charger), ["overwatch:B1"])
    assert t.find("ChargeEnded") and charger.charge_declared and not charger.charge_successful
    assert t.decisions[0].keys() == ("overwatch:B1", "retreat:B1", "none")


def test_advance_forbids_charging() -> None:
    """§6.3.2 item 3: a model that Advanced this round (Veteran) cannot charge."""
    t = Table()
    model = t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (6, 0))
    snapshot_engagement(t.state)
    assert charge_module.CHARGE_RANGE == 12
    assert can_charge(t.state, model)
    model.advanced = True
    assert not can_charge(t.state, model)


@pytest.mark.parametrize("seed", [0, 1, 5])  # games whose models come within 12" early
def test_charge_need_is_the_cheapest_end_of_the_whole_charge_area(seed: int) -> None:
    """At every Decision of a bot game, for every model on the table against each enemy
    within 12" (and against all of them): the search stopped at the first end gives the
    cheapest end of the whole charge area at the longest roll, or none when it has none."""
    from engine.bot import RandomBot
    from engine.game import Game
    from engine.rulesets.killteam.charge import CHARGE_RANGE, MAX_CHARGE, charge_area, charge_need
    from engine.rulesets.killteam.geometry import dist, enemies
    from engine.scenario import SHIPPED_SCENARIOS, load_scenario

    scenarios = (load_scenario(p) for p in sorted(SHIPPED_SCENARIOS.glob("*.toml")))
    game = Game(next(s for s in scenarios if s.ruleset == "killteam"), seed)
    bot, state = RandomBot(seed), game.ruleset.state  # type: ignore[attr-defined]
    asked = 0
    while game.pending is not None and len(game.choices) < 200:
        for charger in state.on_table():
            foes = [e for e in enemies(state, charger) if dist(state, charger, e) <= CHARGE_RANGE]
            for targets in [[e] for e in foes] + ([foes] if len(foes) > 1 else []):
                area, ends = charge_area(state, charger, targets, MAX_CHARGE)
                want = min((area.ends[c].cost for c in ends), default=None)
                assert charge_need(state, charger, targets) == want
                asked += 1
        game.choose(bot.choose(game.pending))
    assert asked > 50
