"""Kill Team position keys: start_count, points, out_of_action and Deployment positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.errors import ScenarioError
from engine.game import Game
from engine.position import parse_position
from engine.save import decode, replay, to_bytes

SCENARIOS = Path(__file__).parents[3] / "scenarios"

HEAD = """scenario = "killteam-crossroads.toml"
round = {round}
phase = "{phase}"
[killteam]
sides = [{sides}]
[[killteam.models]]
player = 1
datasheet = "trooper"
{first}
[[killteam.models]]
player = 2
datasheet = "brute"
{second}
"""


def game(rnd: int = 1, phase: str = "Morale", sides: str = "", **cells: str) -> Game:
    text = HEAD.format(
        round=rnd,
        phase=phase,
        sides=sides,
        first=cells.get("first", "cell = [1, 1]"),
        second=cells.get("second", "cell = [5, 20]"),
    )
    position = parse_position(text, "p.toml", base=SCENARIOS)
    return Game(position.scenario, 3, position=position)


def test_out_of_action_models_count_for_the_team_but_are_off_the_table() -> None:
    g = game(first="out_of_action = true", sides="{ start_count = 10 }, {}")
    view = g.view()
    trooper = view.model("A1")
    assert trooper is not None and trooper.removed and trooper.cell is None
    assert dict(view.sides[0].resources)["Models"] == "0/10"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"sides": "{ start_count = 0 }"}, "start_count': must be a whole number, at least"),
        ({"sides": '{ points = "many" }'}, "points': must be a whole number"),
        ({"first": "out_of_action = 1"}, "out_of_action': must be true or false"),
        ({"first": "out_of_action = true\ncell = [1, 1]"}, "give no cell"),
        ({"rnd": 2, "phase": "Deployment", "first": "", "second": ""}, "use round 1"),
        ({"phase": "Deployment", "second": ""}, "placed by its player"),
        ({"sides": "{}, {}, {}"}, r"'killteam.sides': list at most two sides"),
        ({"sides": "{}, 3"}, r"'killteam.sides\[1\]': must be a table"),
    ],
)
def test_bad_kill_team_keys_are_refused(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        game(**kwargs)


@pytest.mark.parametrize("value", ["3", "0", "true", '"2"'])
def test_first_deployer_is_a_player(value: str) -> None:
    text = HEAD.format(
        round=1, phase="Initiative", sides="", first="cell = [1, 1]", second="cell = [5, 20]"
    ).replace("[killteam]\n", f"[killteam]\nfirst_deployer = {value}\n")
    position = parse_position(text, "p.toml", base=SCENARIOS)
    with pytest.raises(ScenarioError, match=r"killteam\.first_deployer.*1 or 2"):
        Game(position.scenario, 3, position=position)


def test_a_deployment_position_starts_the_game_and_replays() -> None:
    """§4.3: starting CP from the sides' points, then the roll-off (§4.4)."""
    g = game(phase="Deployment", sides="{ points = 100 }, { points = 125 }", first="", second="")
    assert [e.get("cp") for e in g.events if e.kind == "CommandPointsGained"] == [2]
    while g.pending is not None and g.view().phase == "Deployment":
        g.choose_key(g.pending.keys()[0])
    assert all(m.cell is not None for m in g.view().models)
    again = replay(decode(to_bytes(g), "deployment"))
    assert again.state_hash() == g.state_hash()
