"""Kill Team positions hold the flags a phase or round sets and rules read later (#19)."""

from __future__ import annotations

import pytest

from engine.errors import ScenarioError
from engine.game import Game
from engine.position import parse_position
from engine.rulesets.killteam.ruleset import KillTeam
from engine.rulesets.killteam.state import KTState
from tests.rulesets.killteam.test_position import SCENARIOS, game

SIDES = (
    "{ grenade_thrown = true, psyker_cast = true, veteran_used = true, comms_used = true, "
    'comms_morale = true, stratagems_used = ["Command Re-roll", "Sniper stratagem"] }, {}'
)
FIRST = 'cell = [1, 1]\nstates = ["activated", "has shot", "comms bonus", "failed charge"]\n'


def test_side_and_model_flags_are_read_back() -> None:
    g = game(phase="Movement", sides=SIDES, first=FIRST + "casts = 1\ndenies = 2")
    assert isinstance(g.ruleset, KillTeam)
    state = g.ruleset.state
    team = state.team(0)
    assert (team.grenade_used, team.psyker_cast, team.veteran_used) == (True, True, True)
    assert (team.comms_passive_used, team.comms_morale) == (True, True)
    assert team.stratagems_used == {"Command Re-roll", "Sniper stratagem"}
    a1 = state.models["A1"]
    assert (a1.activated, a1.has_shot, a1.comms_bonus) == (True, True, True)
    assert (a1.charge_failed, a1.charge_declared) == (True, True)
    assert (a1.casts_used, a1.denies_used) == (1, 2)
    view = g.view().model("A1")
    assert view is not None and {"has shot", "failed charge"} <= set(view.states)


SHOOTING = f"""scenario = "killteam-crossroads.toml"
round = 1
phase = "Shooting"
[killteam]
sides = [{SIDES}]
[[killteam.models]]
player = 1
datasheet = "trooper"
cell = [5, 0]
states = ["has shot"]
[[killteam.models]]
player = 1
datasheet = "trooper"
cell = [7, 0]
[[killteam.models]]
player = 2
datasheet = "brute"
cell = [5, 5]
"""


def shooting() -> tuple[Game, KTState]:
    position = parse_position(SHOOTING, "p.toml", base=SCENARIOS)
    g = Game(position.scenario, 3, position=position)
    assert isinstance(g.ruleset, KillTeam)
    return g, g.ruleset.state


def test_the_first_phase_keeps_them_and_a_later_one_clears_them() -> None:
    """A1 has shot already: the phase starts with only the other model to shoot with (so
    it is not asked which), and the team's grenade and stratagems stay spent until the
    Fight phase."""
    g, state = shooting()
    assert g.pending is not None and state.phase == "Shooting"
    assert g.pending.subject == "A2" and g.pending.prompt.endswith("fire which weapons?")
    assert state.team(0).grenade_used and state.models["A1"].has_shot
    while g.pending is not None and state.phase == "Shooting":
        g.choose_key(g.pending.keys()[0])
    assert state.phase != "Shooting"
    assert not state.team(0).grenade_used and not state.team(0).stratagems_used
    assert not state.models["A1"].has_shot


def test_undo_from_a_position_that_holds_flags_replays_from_the_position() -> None:
    g, _ = shooting()
    assert g.pending is not None
    g.choose_key("pass")  # A2, the only model left to shoot
    back = g.undone()
    assert back.state_hash() == shooting()[0].state_hash()
    assert isinstance(back.ruleset, KillTeam)
    assert back.ruleset.state.models["A1"].has_shot
    assert back.ruleset.state.team(0).stratagems_used == {"Command Re-roll", "Sniper stratagem"}


@pytest.mark.parametrize(
    ("sides", "first", "message"),
    [
        ("{ grenade_thrown = 1 }", "cell = [1, 1]", "grenade_thrown': must be true or false"),
        ('{ stratagems_used = ["Nap"] }', "cell = [1, 1]", "stratagems_used': must list"),
        ("", 'cell = [1, 1]\nstates = ["charged", "failed charge"]', "both fail and succeed"),
        ("", "cell = [1, 1]\ncasts = -1", "casts': must be a whole number 0..9"),
        ("", "cell = [1, 1]\ndenies = true", "denies': must be a whole number 0..9"),
    ],
)
def test_bad_flags_are_refused(sides: str, first: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        game(phase="Shooting", sides=sides, first=first)
