"""wh40k6 positions at the steps of the pre-game sequence: Objectives, Deployment, Seize
the Initiative (§4.1, §4.10; #19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.dice import Dice
from engine.game import Game
from engine.position import PositionError, parse_position
from engine.rulesets.wh40k6.ruleset import Wh40k6

TEXT = """
scenario = "wh40k6-open-war.toml"
round = 1
phase = "{phase}"

[wh40k6]
mission = {mission}
deployment = "dawn_of_war"
{extra}

[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
models = [{{ {first} }}]

[[wh40k6.units]]
player = 2
unit = "horde_chieftain"
models = [{{ {second} }}]
"""


def start(
    phase: str, dice: list[int], *, mission: int = 5, extra: str = "", first: str = ""
) -> Game:
    text = TEXT.format(phase=phase, mission=mission, extra=extra, first=first, second="")
    position = parse_position(text, "p.toml", base=Path("scenarios"))
    return Game(position.scenario, 0, dice=Dice.scripted(dice), position=position)


def test_a_deployment_position_rolls_off_and_places_the_armies() -> None:
    """§4.1 step 9: the roll-off winner (player 2: 2 against 5) chooses who deploys first;
    then that player places his units in his deployment zone."""
    game = start("Deployment", [2, 5])
    assert game.pending is not None and game.pending.player == 1
    assert game.pending.prompt.startswith("Who deploys first")
    game.choose_key("second")  # player 1 deploys first
    assert game.pending is not None and game.pending.player == 0
    assert isinstance(game.ruleset, Wh40k6)
    state = game.ruleset.state
    assert state.first_deployer == 0 and state.models["A1.1"].cell is None
    cells = [o.cell for o in game.pending.options if o.cell is not None]
    assert cells and all(c in state.side(0).zone for c in cells)


def test_an_objectives_position_has_the_roll_off_winner_place_first() -> None:
    """Mission 1 (Crusade): D3 + 2 markers, placed in turn from the roll-off winner."""
    game = start("Objectives", [1], mission=1, extra="roll_off_winner = 2")
    assert game.pending is not None and game.pending.player == 1
    assert "objective" in game.pending.prompt.lower()


@pytest.mark.parametrize(
    ("phase", "kwargs", "message"),
    [
        ("Deployment", {"first": "cell = [10, 2]"}, r"models\[0\]\.cell.*not deployed yet"),
        ("Objectives", {"extra": "roll_off_winner = 3"}, r"roll_off_winner.*from 1 to 2"),
        ("Seize the Initiative", {"extra": "first_deployer = 0"}, r"first_deployer"),
    ],
)
def test_bad_setup_positions_are_refused(phase: str, kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        start(phase, [], extra=kwargs.get("extra", ""), first=kwargs.get("first", ""))


def test_a_setup_position_is_in_round_one() -> None:
    text = TEXT.format(phase="Deployment", mission=5, extra="", first="", second="")
    position = parse_position(
        text.replace("round = 1", "round = 2"), "p.toml", base=Path("scenarios")
    )
    with pytest.raises(PositionError, match=r"key 'round'.*use 1"):
        Game(position.scenario, 0, position=position)
