"""Activations, FP and fatigue (digest fatigue §5, §6.3, §6.4; §9 T1, T2, T8, D6, D9)."""

from __future__ import annotations

from engine.rulesets.fatigue.activation import activate, activations, fp_refill, is_eligible
from engine.rulesets.fatigue.damage import remove_model
from tests.rulesets.fatigue.table import Table


def whirlwind_table(activations_before: int) -> Table:
    # Captain A2 (M5) charges the frenzied Chief (A2 -> 4 dice, M5): simultaneous at 5.
    table = Table(
        dice=[
            (6, "melee to-hit: A1"),
            6,
            1,
            1,  # Captain: 4 dice, doubled by Whirlwind
            (1, "melee to-hit: B1"),
            1,
            1,
            1,  # Chief: 4 dice (Frenzy), all miss
        ]
    )
    table.add(0, "Warden-Captain", [(3, 3)])
    table.add(1, "Ashfang Chief", [(3, 6)])
    table.state.side(0).fp = 5
    table.state.units[1].activations = activations_before
    return table


def test_whirlwind_first_activation_costs_2_fp_counts_once() -> None:
    """Digest fatigue §9 T1: 2 FP, 1 activation, 1 fatigue (ability only), dice doubled."""
    table = whirlwind_table(0)
    captain = table.state.units[1]
    table.run(activate(table.state, table.ctx, captain), ["ATTACK", "yes", "3,5"])
    assert table.state.side(0).fp == 3
    assert captain.activations == 1
    assert captain.fatigue == 1
    assert table.rolled("melee to-hit: A1") == [(6, 6, 1, 1)]
    chief = table.state.units[2]
    assert chief.models[0].wounds_taken == 2
    assert table.dice.unused == 0


def test_whirlwind_third_activation_gives_two_tokens() -> None:
    """Digest fatigue §9 T2: after two activations, +1 extra activation +1 ability = 2."""
    table = whirlwind_table(2)
    captain = table.state.units[1]
    table.run(activate(table.state, table.ctx, captain), ["ATTACK", "yes", "3,5"])
    assert table.state.side(0).fp == 3
    assert captain.activations == 3
    assert captain.fatigue == 2


def test_declining_whirlwind_rolls_normal_dice() -> None:
    """§6.3 step 3 / decision point 8: attaching is the player's choice."""
    table = Table(dice=[6, 6, 1, 1, 1, 1])
    table.add(0, "Warden-Captain", [(3, 3)])
    table.add(1, "Ashfang Chief", [(3, 6)])
    table.state.side(0).fp = 5
    captain = table.state.units[1]
    table.run(activate(table.state, table.ctx, captain), ["ATTACK", "no", "3,5"])
    assert table.state.side(0).fp == 4
    assert captain.fatigue == 0
    assert table.rolled("melee to-hit: A1") == [(6, 6)]


def test_aim_twice_after_moving_then_shoot() -> None:
    """Digest fatigue §9 T8: +2 aim, no move penalty, -1 from the 3rd activation's token."""
    table = Table(dice=[(5, "shooting to-hit: A1")])
    longguns = table.add(0, "Relic Longguns", [(2, 2)])
    table.add(1, "Tunnel Brute", [(2, 11)])
    table.state.side(0).fp = 4
    state, ctx = table.state, table.ctx
    table.run(activate(state, ctx, longguns), ["MOVE", "2,4"])
    table.run(activate(state, ctx, longguns), ["AIM"])
    table.run(activate(state, ctx, longguns), ["AIM"])
    assert longguns.fatigue == 1
    table.run(activate(state, ctx, longguns), ["SHOOT"])
    shot = table.find("ShotsResolved")[0]
    assert shot.get("modifier") == 1
    assert state.side(0).fp == 0
    assert longguns.activations == 4
    assert longguns.fatigue == 2
    assert longguns.aim == 0


def test_fear_b_failure_spends_the_activation_without_moving() -> None:
    """Digest fatigue §9 D6: Longguns fail Fear (b) on a 6: 1 FP, +1 activation, no ATTACK."""
    table = Table(dice=[(6, "fear of Tunnel Brute")])
    longguns = table.add(0, "Relic Longguns", [(2, 2)])
    table.add(1, "Tunnel Brute", [(2, 5)])
    table.state.side(0).fp = 3
    table.run(activate(table.state, table.ctx, longguns), ["ATTACK"])
    assert table.state.side(0).fp == 2
    assert longguns.activations == 1
    assert longguns.models[0].cell == (2, 2)
    assert longguns.cannot_attack
    menu = table.state.side(0).fp
    assert menu == 2
    from engine.rulesets.fatigue.actions import legal_actions

    keys = [k for k, _, _ in legal_actions(table.state, longguns, 2)]
    assert "ATTACK" not in keys
    assert "SHOOT" in keys


def test_fp_pool_of_the_wardens() -> None:
    """Digest fatigue §9 D9: 2 + 2 + 1 commander + 2 = 7; 6 without the Sergeant; 4 fleeing."""
    table = Table()
    table.add(0, "Warden-Captain", [(1, 1)])
    spears = table.add(0, "Road Spears", [(3, 1), (4, 1), (5, 1), (6, 1), (7, 1)])
    table.add(0, "Relic Longguns", [(9, 1), (10, 1), (11, 1)])
    fp_refill(table.state, table.ctx)
    assert table.state.side(0).fp == 7
    remove_model(table.state, table.ctx, spears.models[4], "test")
    fp_refill(table.state, table.ctx)
    assert table.state.side(0).fp == 6
    spears.fleeing = True
    fp_refill(table.state, table.ctx)
    assert table.state.side(0).fp == 4


def test_activations_alternate_then_the_richer_player_continues() -> None:
    """Digest fatigue §5 alternation example: A 7 FP, B 4 FP: ABABABAB, then A thrice."""
    table = Table()
    for x in range(0, 14, 2):
        table.add(0, "Warden-Captain", [(x, 0)])
    for x in range(0, 8, 2):
        table.add(1, "Ashfang Chief", [(x, 11)])
    table.state.side(0).fp = 7
    table.state.side(1).fp = 4
    order: list[int] = []

    def brace_next(decision):  # type: ignore[no-untyped-def]
        if decision.prompt.startswith(("A (", "B (")):
            order.append(decision.player)
            return decision.options[0].key
        return "BRACE"

    table.run(activations(table.state, table.ctx), [brace_next] * 22)
    assert order == [0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0]
    assert table.state.side(0).passed and table.state.side(1).passed


def test_braced_fleeing_and_stupid_units_cannot_activate() -> None:
    """§6.3: eligible units are in play, not FLEEING, STUPID or BRACED, with FP to pay."""
    table = Table()
    unit = table.add(0, "Warden-Captain", [(1, 1)])
    table.state.side(0).fp = 1
    assert is_eligible(table.state, unit)
    for flag in ("braced", "fleeing", "stupid"):
        setattr(unit, flag, True)
        assert not is_eligible(table.state, unit)
        setattr(unit, flag, False)
    table.state.side(0).fp = 0
    assert not is_eligible(table.state, unit)
