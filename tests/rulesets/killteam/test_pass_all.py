"""Passing all of a player's remaining models of a section at once (killteam §6.5.1,
§6.6.1: passing is an activation, so a player may pass each remaining model in one go)."""

from __future__ import annotations

from engine.rulesets.killteam.activation import PASS_ALL
from engine.rulesets.killteam.fight import fight_phase
from engine.rulesets.killteam.shooting import shooting_phase
from tests.rulesets.killteam.table import Table


def test_fire_at_will_passes_the_remaining_models_then_the_other_player_goes_on() -> None:
    t = Table()
    t.state.initiative = 0
    militia = [t.add(0, "trooper", (x, 0)) for x in (0, 2, 4)]
    t.add(1, "brute", (0, 11))
    t.add(1, "brute", (4, 11))
    t.run(shooting_phase(t.state, t.ctx), [PASS_ALL, "B1", "pass", "pass"])
    first = t.decisions[0]
    assert (first.player, first.prompt) == (0, "Fire at Will: choose your next model")
    last = first.options[-1]
    assert (last.key, last.label, last.ends) == (PASS_ALL, "Pass with the remaining 3 models", True)
    assert all(m.has_shot for m in militia)
    # the other player goes on alone: B1 picked, then B2 (its last) asked at once
    assert [d.player for d in t.decisions] == [0, 1, 1, 1]
    assert [o.key for o in t.decisions[1].options] == ["B1", "B2", PASS_ALL]
    assert [e.get("model") for e in t.find("ModelPassed")] == ["A1", "A2", "A3", "B1", "B2"]
    # one line tells the three passed together (nine lines of "does not shoot" were
    # logged for nine); B1 and B2, passed one by one, have their own
    said = [e.text for e in t.find("ModelPassed")]
    assert said == ["", "", "", "B1 Reaver Brute does not shoot", "B2 Reaver Brute does not shoot"]
    (passed,) = t.find("ModelsPassed")
    assert passed.text == "Fire at Will: A pass with their remaining 3 models (A1, A2, A3)"
    assert t.find("HitsRolled") == []


def test_a_lone_model_is_asked_to_shoot_or_pass_without_the_option_to_pass_all() -> None:
    t = Table()
    t.state.initiative = 0
    t.add(0, "trooper", (0, 0))
    t.add(1, "brute", (0, 11))
    t.run(shooting_phase(t.state, t.ctx), ["pass", "pass"])
    assert all(o.key != PASS_ALL for d in t.decisions for o in d.options)


def test_ready_fire_passes_the_ready_models_who_then_cannot_fire_at_will() -> None:
    """§10 A42: a Ready model that passes in Ready, Fire! is spent for the phase."""
    t = Table()
    t.state.initiative = 1
    ready = [t.add(0, "trooper", (x, 0)) for x in (0, 2)]
    for model in ready:
        model.ready = True
    t.add(1, "brute", (0, 11))
    t.run(shooting_phase(t.state, t.ctx), [PASS_ALL, "pass"])
    assert t.decisions[0].prompt == "Ready, Fire!: choose your next model"
    assert all(m.has_shot and not m.ready for m in ready)
    assert [d.player for d in t.decisions] == [0, 1]  # then only B1 fires at will


def test_the_fight_phase_passes_the_remaining_fighters() -> None:
    t = Table()
    t.state.initiative = 0
    fighters = [t.add(0, "trooper", (x, 5)) for x in (2, 8)]
    t.add(1, "brute", (3, 5))
    t.add(1, "brute", (9, 5))
    t.run(fight_phase(t.state, t.ctx), [PASS_ALL, PASS_ALL])
    assert [d.prompt for d in t.decisions] == ["Fight for Your Lives: choose your next model"] * 2
    assert all(m.has_fought for m in fighters)
    assert [e.get("model") for e in t.find("FightPassed")] == ["A1", "A2", "B1", "B2"]
    assert [e.text for e in t.find("FightPassed")] == ["", "", "", ""]
    assert "FightStarted" not in t.kinds()
    assert [e.text for e in t.find("ModelsPassed")] == [
        "Fight for Your Lives: A pass with their remaining 2 models (A1, A2)",
        "Fight for Your Lives: B pass with their remaining 2 models (B1, B2)",
    ]
