"""Aftermath: pursuit, rest, frenzy loss, end-of-round actions, scoring (digest fatigue
§6.16-§6.20, §6.32; §9 D1-D3, D11)."""

from __future__ import annotations

from pathlib import Path

from engine.rulesets.fatigue.aftermath import panic_check, pursuit_step, rest
from engine.rulesets.fatigue.checks import effective_morale, melee_modifier
from engine.rulesets.fatigue.endround import rallying_voice, round_end
from engine.rulesets.fatigue.pursuit import pursue
from engine.rulesets.fatigue.scrums import start_scrum
from engine.rulesets.fatigue.state import Scrum
from engine.rulesets.fatigue.turn import final_outcome
from engine.save import read_save, replay
from tests.rulesets.fatigue.table import Table


def test_rest_removes_unused_free_activations() -> None:
    """Digest fatigue §9 D1: 2 fatigue each, activated 0, 1, 2, 3 times -> 0, 1, 2, 2."""
    table = Table()
    units = [table.add(0, "Warden-Captain", [(2 * i, 0)]) for i in range(4)]
    for activations, unit in enumerate(units):
        unit.fatigue = 2
        unit.activations = activations
    rest(table.state, table.ctx)
    assert [u.fatigue for u in units] == [0, 1, 2, 2]


def fled_table(dice: list[int | tuple[int, str]], fatigue: int) -> Table:
    table = Table(dice=dice)
    state = table.state
    pursuer = table.add(0, "Warden-Captain", [(5, 5)])
    pursuer.fatigue = fatigue
    table.add(1, "Scav Pack", [(5, 8), (6, 9)])
    # The Scavs fled this Aftermath from a scrum with the Captain.
    state.scrums[1] = Scrum(1, ([], []), 1, active=False, fled=[(2, (1,))])
    return table


def test_pursuit_catches_and_wipes_out() -> None:
    """Digest fatigue §9 D2: 2 fatigue, fails, rolls 5: 3 steps; adjacent -> caught; 3 fatigue."""
    table = fled_table([(6, "pursuit test"), (5, "pursuit distance")], fatigue=2)
    table.run(pursuit_step(table.state, table.ctx))
    scavs = table.state.units[2]
    assert scavs.destroyed
    assert table.find("UnitCaught")
    assert table.state.units[1].fatigue == 3


def test_pursuit_of_zero_steps_still_tires() -> None:
    """Digest fatigue §9 D2: a roll of 2 with 2 fatigue: no move, not caught, +1 fatigue."""
    table = fled_table([(6, "pursuit test"), (2, "pursuit distance")], fatigue=2)
    table.run(pursuit_step(table.state, table.ctx))
    assert not table.state.units[2].destroyed
    assert table.state.units[1].models[0].cell == (5, 5)
    assert table.state.units[1].fatigue == 3


def test_passed_pursuit_test_may_stay() -> None:
    """§6.19 step 2 (SEED) / decision point 17: a pass lets the owner stay."""
    table = fled_table([(1, "pursuit test")], fatigue=0)
    table.run(pursuit_step(table.state, table.ctx), ["no"])
    assert table.state.units[1].fatigue == 0
    assert table.state.units[1].models[0].cell == (5, 5)


def test_pursuit_then_rest() -> None:
    """Digest fatigue §9 D3: no activations, pursues (+1), Rest removes it: 0 fatigue."""
    table = fled_table([(1, "pursuit test"), (1, "pursuit distance")], fatigue=0)
    table.run(pursuit_step(table.state, table.ctx), ["yes"])
    captain = table.state.units[1]
    assert captain.fatigue == 1
    rest(table.state, table.ctx)
    assert captain.fatigue == 0


def test_frenzy_ignores_fatigue_but_not_in_pursuit() -> None:
    """Digest fatigue §9 D11: frenzied Chief with 2 fatigue: to-hit and Morale unmodified,
    a pursuit roll of 3 moves 3 - 2 = 1 step."""
    table = Table(dice=[(3, "pursuit distance")])
    chief = table.add(1, "Ashfang Chief", [(5, 9)])
    chief.fatigue = 2
    assert melee_modifier(chief) == 0
    assert effective_morale(chief) == 4
    quarry = table.add(0, "Road Spears", [(5, 4)])
    pursue(table.state, table.ctx, chief, quarry)
    assert table.find("PursuitRolled")[0].get("steps") == 1
    assert chief.models[0].cell == (5, 8)
    assert chief.fatigue == 3


def test_frenzy_is_lost_before_the_panic_test() -> None:
    """§6.16 item 3 (SEED + PROPOSED): losing the scrum removes Frenzy, then it tests."""
    table = Table(dice=[(4, "panic test")])
    state, ctx = table.state, table.ctx
    chief = table.add(1, "Ashfang Chief", [(5, 6)])
    spears = table.add(0, "Road Spears", [(5, 5)])
    scrum = start_scrum(state, ctx, spears, chief)
    scrum.wounds = [0, 2]
    table.run(panic_check(state, ctx, chief))
    assert chief.frenzy_lost
    assert table.find("MoraleTested")[0].get("target") == 4


def test_rallying_voice_uses_the_leaders_morale() -> None:
    """§8 Rallying Voice (FILL-IN) / decision point 19: Leader's Mo 4 with the unit's fatigue."""
    table = Table(dice=[(3, "Rallying Voice")])
    captain = table.add(0, "Warden-Captain", [(5, 5)])
    spears = table.add(0, "Road Spears", [(5, 9), (6, 9)])
    spears.fleeing = spears.terrified = True
    spears.fatigue = 1
    table.add(1, "Ashfang Chief", [(12, 11)])
    table.run(rallying_voice(table.state, table.ctx, captain), ["u2"])
    assert table.find("MoraleTested")[0].get("target") == 3
    assert not spears.fleeing and not spears.terrified


def test_objectives_score_from_round_two() -> None:
    """§4.4 (FILL-IN): more non-fleeing models within 2 steps of a marker: 1 VP."""
    rows = ["." * 12] * 5 + ["....1......."] + ["." * 12] * 5
    table = Table(rows=rows)
    state = table.state
    table.add(0, "Road Spears", [(4, 4), (5, 4)])
    fleeing = table.add(1, "Scav Pack", [(4, 6), (3, 6), (5, 6)])
    fleeing.fleeing = True
    state.round = 1
    round_end(state, table.ctx)
    assert state.sides[0].vp == 0
    state.round = 2
    round_end(state, table.ctx)
    assert state.sides[0].vp == 1


def test_destroyed_units_give_two_vp_at_the_end() -> None:
    """§4.4 (FILL-IN): +2 VP per destroyed enemy unit, then the higher VP wins."""
    table = Table()
    table.add(0, "Warden-Captain", [(1, 1)])
    scavs = table.add(1, "Scav Pack", [(5, 5)])
    scavs.models[0].out_of_action = True
    scavs.models[0].cell = None
    table.state.sides[1].vp = 1
    outcome = final_outcome(table.state, table.ctx)
    assert outcome.winner == 0
    assert outcome.scores == (2, 1)
    (bonus,) = table.find("BonusScored")
    assert bonus.text == "A: +2 VP for 1 destroyed enemy unit (2 VP)"


def test_vp_are_scored_at_round_end_after_the_aftermath() -> None:
    """§5: AFTERMATH (panic, pursuit, rest, end-of-round actions), then ROUND_END scores
    VP. The playtest's log had the VP lines under "Aftermath", after the rests."""
    game = replay(read_save(Path(__file__).parents[2] / "replays" / "fatigue.wargrid"))
    scored = [e for e in game.events if e.kind == "ObjectiveScored"]
    assert scored and all(e.phase == "Round end" for e in scored)
    starts = [e.text for e in game.events if e.kind == "PhaseStarted"]
    assert starts.index("Round 2: Aftermath") + 1 == starts.index("Round 2: Round end")
