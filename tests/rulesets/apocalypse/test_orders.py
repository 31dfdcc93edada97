"""Initiative, the Orders phase and activations (digest §6.2-§6.5, §9 E3, E4, D9, D10, D13, D18)."""

from __future__ import annotations

from engine.board import Cell
from engine.cards import copies
from engine.decisions import DecisionKind
from engine.rulesets.apocalypse.activation import action_phase
from engine.rulesets.apocalypse.assets import HAND_LIMIT, draw_assets, hand_limit
from engine.rulesets.apocalypse.command import check_deserters, place_deserters
from engine.rulesets.apocalypse.orders import (
    eligible,
    give_orders,
    initiative_phase,
    reserves,
)
from engine.rulesets.apocalypse.state import BATTLEFIELD, ORDER_NAMES, RESERVE
from tests.rulesets.apocalypse.table import Table, first


def test_initiative_tie_goes_to_last_turns_loser() -> None:
    """Digest §9 E3: turn 3, both roll 7, A had the Initiative in turn 2: B has it."""
    t = Table(dice=[(7, "initiative"), (7, "initiative")])
    t.state.turn = 3
    t.state.prev_initiative = 0
    t.run(initiative_phase(t.state, t.ctx))
    assert t.state.initiative == 1


def test_turn_one_tie_goes_to_who_finished_deploying_first() -> None:
    """Digest §9 E4: turn 1, both roll 5, B finished deploying first: B has it."""
    t = Table(dice=[5, 5])
    t.state.first_deployed = 1
    t.run(initiative_phase(t.state, t.ctx))
    assert t.state.initiative == 1


def test_higher_initiative_roll_wins() -> None:
    t = Table(dice=[3, 9])
    t.state.prev_initiative = 1
    t.run(initiative_phase(t.state, t.ctx))
    assert t.state.initiative == 1


def test_deserter_lifecycle() -> None:
    """Digest §9 D9: X at 13" is marked and loses the marker at 11"; Z at 15" without a
    marker is left alone this turn."""
    t = Table()
    det = t.detachment(0)
    t.add(0, "legion_captain", (0, 0), det=det)
    x = t.add(0, "legion_line_squad", (14, 0), det=det)  # gap 13
    place_deserters(t.state, t.ctx)
    assert x.deserter
    t.state.put(x, BATTLEFIELD, Cell(12, 0))  # gap 11
    check_deserters(t.state, t.ctx)
    assert not x.deserter
    z = t.add(0, "legion_line_squad", (16, 0), det=det)  # arrives 15" away
    check_deserters(t.state, t.ctx)
    assert not z.deserter


def test_commander_in_reserve() -> None:
    """Digest §9 D10: every deployed unit is marked and no order; the Commander arrives
    within 12" of two of them, who lose their markers; the third keeps it."""
    t = Table()
    det = t.detachment(0)
    boss = t.add(0, "legion_captain", None, det=det, location=RESERVE)
    near = [t.add(0, "legion_line_squad", at, det=det) for at in ((5, 8), (10, 8))]
    far = t.add(0, "legion_line_squad", (35, 25), det=det)
    place_deserters(t.state, t.ctx)
    assert all(u.deserter for u in [*near, far])
    assert not eligible(t.state, det)
    t.run(reserves(t.state, t.ctx), [boss.uid, "7,2"])
    assert boss.on_battlefield
    assert not any(u.deserter for u in near)
    assert far.deserter
    assert eligible(t.state, det)


def test_activations_alternate_without_passing() -> None:
    """Digest §9 D13: A 2 detachments, B 3: A, B, A, B, B; with B's Initiative B, A, B, A, B."""
    for initiative, expected in ((0, [0, 1, 0, 1, 1]), (1, [1, 0, 1, 0, 1])):
        t = Table()
        t.state.initiative = initiative
        for player, count in ((0, 2), (1, 3)):
            for n in range(count):
                det = t.detachment(player, order="AIMED_FIRE")
                t.add(
                    player,
                    "legion_captain" if player == 0 else "horde_warboss",
                    (n * 3, player * 25),
                    det=det,
                )
        t.run(action_phase(t.state, t.ctx), [first] * 3)  # a lone choice is not asked
        assert [e.get("player") for e in t.find("DetachmentActivated")] == expected
        assert all(d.activated for d in t.state.detachments.values())


def test_asset_draws_and_hand_limit() -> None:
    """Digest §9 D18: hand 9, two Warlords: draw 3 (12), discard 2 at the end of the phase."""
    t = Table()
    t.add(0, "legion_captain", (0, 0), warlord=True)
    t.add(0, "legion_captain", (5, 0), warlord=True)
    deck = t.state.side(0).deck
    deck.draw_pile = copies([("fortitude", 6), ("smoke_screen", 6)])
    deck.draw(9, 0)
    draw_assets(t.state, t.ctx)
    assert len(deck.hand) == 12
    t.run(hand_limit(t.state, t.ctx), [first, first])
    assert len(deck.hand) == HAND_LIMIT and len(deck.discard) == 2
    assert all(d.hidden for d in t.decisions)
    assert len(t.find("AssetDiscarded")) == 2


def test_orders_are_secret_until_revealed_together() -> None:
    """Digest §6.3.4: hidden Decisions; nothing about the orders leaks before the reveal."""
    t = Table()
    a = t.detachment(0, "Cohort")
    t.add(0, "legion_captain", (0, 0), det=a)
    b = t.detachment(1, "Warband")
    t.add(1, "horde_warboss", (0, 25), det=b)
    reserved = t.detachment(1, "Late")
    t.add(1, "horde_warboss", None, det=reserved, location=RESERVE)
    procedure = give_orders(t.state, t.ctx)
    decision = next(procedure)
    assert decision.hidden and decision.kind is DecisionKind.PICK_OPTION
    assert set(decision.keys()) == {"ADVANCE", "AIMED_FIRE", "ASSAULT"}
    t.decisions.append(decision)
    t.run_from(procedure, decision, ["ASSAULT", "AIMED_FIRE"], check=lambda: _no_leak(t))
    assert a.order == "ASSAULT" and b.order == "AIMED_FIRE" and reserved.order is None
    assert all(d.order_revealed for d in t.state.detachments.values())
    assert "Assault" in t.find("OrdersRevealed")[0].text


def _no_leak(t: Table) -> None:
    if t.find("OrdersRevealed"):
        return
    for event in t.events:
        assert not any(name in event.text for name in ORDER_NAMES.values()), event.text
