"""Rout, panic, terror, stupidity and rally (digest fatigue §6.14-§6.25;
§9 T3, T9-T12, D7, D8, D13)."""

from __future__ import annotations

import pytest

from engine.rulesets.fatigue.activation import is_eligible
from engine.rulesets.fatigue.aftermath import panic_check, panic_triggers
from engine.rulesets.fatigue.checks import effective_morale, melee_modifier, morale_test
from engine.rulesets.fatigue.damage import remove_model
from engine.rulesets.fatigue.outcome import GameOver
from engine.rulesets.fatigue.profiles import ModelProfile, Psych, Weapon
from engine.rulesets.fatigue.psychology import (
    must_test_rout,
    rally,
    rout_check,
    rout_morale,
    rout_threshold,
    terror_test,
)
from engine.rulesets.fatigue.scrums import start_scrum
from engine.rulesets.fatigue.stupidity import stupidity_test
from tests.rulesets.fatigue.table import Table, first, variant


def mob(table: Table, player: int, count: int, morale: int = 3, y: int = 0) -> None:
    profile = ModelProfile("Grunt", "g", 4, 1, morale, 4, Weapon("Club", False, 1, 1))
    unit = variant("Road Spears", models=(profile,) * count)
    table.add(player, unit, [(x, y) for x in range(count)])


def test_rout_threshold_is_half_rounded_up() -> None:
    """Digest fatigue §9 T3: 25 models: 12 out of action -> no test; 13 -> test."""
    assert rout_threshold(25) == 13
    table = Table(rows=["." * 25] * 4)
    mob(table, 0, 25)
    models = list(table.state.models.values())
    for model in models[:12]:
        remove_model(table.state, table.ctx, model, "test")
    assert not must_test_rout(table.state, 0)
    remove_model(table.state, table.ctx, models[12], "test")
    assert must_test_rout(table.state, 0)


def rout_table(face: int) -> Table:
    table = Table(dice=[(face, "rout test")])
    table.add(0, "Warden-Captain", [(1, 1)])
    mob(table, 0, 2, y=3)
    for model in list(table.state.models.values())[1:]:
        remove_model(table.state, table.ctx, model, "test")
    return table


def test_rout_test_passes_on_leader_morale() -> None:
    """Digest fatigue §9 T9: Leader Mo 4: a 4 passes."""
    table = rout_table(4)
    table.run(rout_check(table.state, table.ctx, 0), ["no"])
    assert table.find("RoutTested")[0].get("passed") is True


def test_rout_test_failure_ends_the_game() -> None:
    """Digest fatigue §9 T9: a 5 against Mo 4 loses at once."""
    table = rout_table(5)
    with pytest.raises(GameOver) as over:
        table.run(rout_check(table.state, table.ctx, 0), ["no"])
    assert over.value.winner == 1


def test_staying_in_is_key_one_and_enter_at_the_voluntary_rout() -> None:
    """Played at 200x60: pressing 1 at "lost half its models: rout voluntarily?" conceded
    the game (Yes came first); each answer says what follows."""
    table = rout_table(4)
    table.run(rout_check(table.state, table.ctx, 0), ["no"])
    first, second = table.decisions[0].options
    assert (first.key, first.suggested, first.label) == ("no", True, "No: take the Rout test")
    assert (second.key, second.label) == ("yes", "Yes: rout (the game is lost)")


def test_voluntary_rout_concedes() -> None:
    """Digest fatigue §6.21 item 2 / decision point 4: conceding loses at once, no roll."""
    table = rout_table(1)
    with pytest.raises(GameOver) as over:
        table.run(rout_check(table.state, table.ctx, 0), ["yes"])
    assert over.value.winner == 1
    assert table.dice.unused == 1


def test_rout_with_the_leader_gone() -> None:
    """Digest fatigue §9 T10: Mo 3, 3 and 4 (1 fatigue) left, a fleeing Mo 5: test at 3."""
    table = Table()
    captain = table.add(0, "Warden-Captain", [(1, 1)])
    mob(table, 0, 2, morale=3, y=3)
    mob(table, 0, 1, morale=4, y=5)
    mob(table, 0, 1, morale=5, y=7)
    remove_model(table.state, table.ctx, captain.models[0], "test")
    table.state.units[3].fatigue = 1
    table.state.units[4].fleeing = True
    assert rout_morale(table.state, 0) == 3
    table.state.units[3].fatigue = 0
    assert rout_morale(table.state, 0) == 4


def test_panic_of_a_unit_that_lost_its_scrum() -> None:
    """Digest fatigue §9 T11: one D6 against the commander's 4; a 5 fails, blows, flight."""
    table = Table(dice=[(5, "panic test"), (3, "flight distance")])
    state, ctx = table.state, table.ctx
    spears = table.add(0, "Road Spears", [(3, 5), (4, 5), (5, 5), (6, 5), (7, 5)])
    scavs = table.add(1, variant("Scav Pack", hates=()), [(4, 6), (5, 6)])
    scrum = start_scrum(state, ctx, spears, scavs)
    scrum.wounds = [3, 1]
    assert panic_triggers(state, spears) == ["lost the melee"]
    table.run(panic_check(state, ctx, spears), ["all", first, first])
    assert table.find("MoraleTested")[0].get("target") == 4
    assert table.find("FreeBlowsStruck")[0].get("blows") == 2
    assert spears.fleeing and spears.scrum is None
    assert scrum.fled == [(spears.id, (scavs.id,))]
    assert len(spears.alive()) == 3
    assert all(m.cell is not None and m.cell.y < 5 for m in spears.alive())


def test_no_panic_on_a_tie_or_when_the_enemy_is_gone() -> None:
    """Digest fatigue §9 D13: 2 wounds each -> no test; enemy side destroyed -> no test."""
    table = Table()
    state, ctx = table.state, table.ctx
    spears = table.add(0, "Road Spears", [(3, 5), (4, 5)])
    scavs = table.add(1, "Scav Pack", [(4, 6)])
    scrum = start_scrum(state, ctx, spears, scavs)
    scrum.wounds = [2, 2]
    assert panic_triggers(state, spears) == []
    assert panic_triggers(state, scavs) == []
    scrum.wounds = [3, 1]
    remove_model(state, ctx, scavs.models[0], "test")
    assert not scrum.active
    assert panic_triggers(state, spears) == []


def test_shooting_panic_threshold() -> None:
    """Digest fatigue §9 D8: 3 of 5 shot -> test; 2 of 5 -> none; 2 of 4 -> none."""
    table = Table()
    unit = table.add(0, "Road Spears", [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    unit.lost_to_shooting = 3
    assert panic_triggers(table.state, unit) == ["shot up"]
    unit.lost_to_shooting = 2
    assert panic_triggers(table.state, unit) == []
    unit.models_at_round_start = 4
    assert panic_triggers(table.state, unit) == []


def test_stupidity_failure_shuffles_forward() -> None:
    """Digest fatigue §9 T12: test 5 fails, table 2: 2 cells in +y; no activation; 0 dice."""
    table = Table(dice=[(5, "stupidity test"), (2, "stupidity table")])
    brute = table.add(1, "Tunnel Brute", [(5, 3)], facing=0)
    table.add(0, "Warden-Captain", [(5, 10)])
    stupidity_test(table.state, table.ctx, brute)
    assert brute.stupid
    assert brute.models[0].cell == (5, 5)
    table.state.side(1).fp = 3
    assert not is_eligible(table.state, brute)


def test_stupid_brute_stops_short_of_an_enemy() -> None:
    """Digest fatigue §9 T12: it stops before a cell adjacent to an enemy."""
    table = Table(dice=[(5, "stupidity test"), (1, "stupidity table")])
    brute = table.add(1, "Tunnel Brute", [(5, 3)], facing=0)
    table.add(0, "Warden-Captain", [(5, 6)])
    stupidity_test(table.state, table.ctx, brute)
    assert brute.models[0].cell == (5, 4)


def test_a_blocked_stupid_brute_is_said_to_stay_not_to_shuffle() -> None:
    """Played: "shuffles forward: B8 at (6,8)" of a model that stood still, blocked."""
    table = Table(dice=[(5, "stupidity test"), (1, "stupidity table")])
    brute = table.add(1, "Tunnel Brute", [(5, 3)], facing=0)
    table.add(0, "Warden-Captain", [(5, 5)])  # the next cell north is beside it
    stupidity_test(table.state, table.ctx, brute)
    assert brute.models[0].cell == (5, 3)
    (line,) = [e.text for e in table.events if e.kind == "UnitShuffled"]
    assert line == f"{brute.name} cannot shuffle forward: {brute.models[0].id} stays at (5,3)"


def test_a_stupid_brute_that_moves_is_said_to_go_where_it_went() -> None:
    table = Table(dice=[(5, "stupidity test"), (2, "stupidity table")])
    brute = table.add(1, "Tunnel Brute", [(5, 3)], facing=0)
    table.add(0, "Warden-Captain", [(5, 10)])
    stupidity_test(table.state, table.ctx, brute)
    (line,) = [e.text for e in table.events if e.kind == "UnitShuffled"]
    assert line.endswith(f"shuffles forward: {brute.models[0].id} to (5,5)")


def test_stupidity_drool_and_pass() -> None:
    """Digest fatigue §9 T12: table 4 -> no move; test 3 -> pass and act normally."""
    table = Table(dice=[(5, "stupidity test"), (4, "stupidity table"), (3, "stupidity test")])
    brute = table.add(1, "Tunnel Brute", [(5, 3)], facing=0)
    table.add(0, "Warden-Captain", [(5, 10)])
    stupidity_test(table.state, table.ctx, brute)
    assert brute.stupid and brute.models[0].cell == (5, 3)
    stupidity_test(table.state, table.ctx, brute)
    assert not brute.stupid


def test_terror_radius_and_the_terrified_penalty() -> None:
    """Digest fatigue §9 D7: X at 3 steps tests, Y at 4 does not; X flees and is TERRIFIED."""
    table = Table(dice=[(6, "terror test"), (2, "flight distance")])
    state, ctx = table.state, table.ctx
    dread = variant("Tunnel Brute", psych=frozenset({Psych.TERROR, Psych.STUPIDITY}))
    table.add(1, dread, [(8, 8)])
    x = table.add(0, "Road Spears", [(8, 5)])
    y = table.add(0, "Road Spears", [(8, 4)])
    table.run(terror_test(state, ctx, y))
    assert not table.find("MoraleTested")
    table.run(terror_test(state, ctx, x))
    assert x.terrified and x.fleeing
    # Straight back is blocked by Y at (8,4): a diagonal step, then straight away.
    assert x.models[0].cell == (7, 3)
    # Charged later while still TERRIFIED: -2 to hit and -2 Morale in the scrum.
    x.fleeing = False
    enemy = table.add(1, "Ashfang Chief", [(8, 2)])
    start_scrum(state, ctx, enemy, x)
    assert melee_modifier(x) == -2
    x.feared = True
    assert melee_modifier(x) == -2  # replaces Fear's -1 (PROPOSED §10 #21)
    assert effective_morale(x) == 3 - 2


def test_failed_rally_flees_again_and_a_pass_clears_terror() -> None:
    """§6.18 (FILL-IN): troops' own Morale; fail flees from the nearest enemy; pass clears."""
    table = Table(dice=[(4, "rally test"), (2, "flight distance"), (3, "rally test")])
    state, ctx = table.state, table.ctx
    spears = table.add(0, "Road Spears", [(5, 5), (6, 5), (7, 5), (8, 5), (9, 5)])
    table.add(1, "Ashfang Chief", [(7, 8)])
    spears.fleeing = spears.terrified = True
    table.run(rally(state, ctx, spears))
    assert table.find("MoraleTested")[0].get("target") == 3  # no commander bonus
    assert spears.fleeing
    # §6.17: farthest models first, each greedily maximising its distance from the Chief.
    assert [m.cell for m in spears.alive()] == [(5, 3), (5, 4), (7, 3), (9, 4), (9, 3)]
    table.run(rally(state, ctx, spears))
    assert not spears.fleeing and not spears.terrified


def test_a_morale_dice_line_says_how_its_morale_is_made() -> None:
    """Played at 200x60: "panic test of Road Spears: 1 vs 0 or less (Morale 0): fails"
    for Mo 3 spearmen did not say why (their fatigue)."""
    table = Table(dice=[(1, "panic test"), (1, "panic test")])
    spears = table.add(0, "Road Spears", [(8, 5)])
    spears.fatigue = 3
    assert not morale_test(table.ctx, spears, "panic")
    spears.fatigue, spears.feared = 1, True
    assert morale_test(table.ctx, spears, "panic")
    assert [r.result() for r in table.dice.rolls] == [
        "1 vs 0 or less (Morale 3, -3 fatigue): fails",
        "1 vs 1 or less (Morale 3, -1 fatigue, -1 fear): passes",
    ]
