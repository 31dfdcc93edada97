"""The force a side fields, in the log and the status (issue #14): a force named as its
side read "Dustroad Wardens fields Dustroad Wardens", and the status said "Force -"
(which reads as "none") both before a force was chosen and after it."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.scenario import load_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"


def forces_shown(game: Game) -> list[str]:
    return [dict(side.resources)["Force"] for side in game.view().sides]


def force_lines(game: Game) -> list[str]:
    return [e.text for e in game.events if e.kind == "ForceChosen"]


def test_a_force_named_as_its_side_is_told_by_its_size() -> None:
    # Each side fields its one force at the start: 9 and 8 models of 125 points (§12).
    game = Game(load_scenario(SCENARIOS / "fatigue-crossroads.toml"), 3)
    assert force_lines(game) == [
        "Dustroad Wardens field 9 models (125 pts)",
        "Ashfang Scavengers field 8 models (125 pts)",
    ]
    assert forces_shown(game) == ["9 models", "8 models"]


def test_a_chosen_force_is_named_and_none_chosen_yet_says_so() -> None:
    game = Game(load_scenario(SCENARIOS / "fatigue-broken-span.toml"), 3)
    assert game.pending is not None and game.pending.prompt == "South player: choose your force"
    assert forces_shown(game) == ["not chosen yet", "not chosen yet"]
    game.choose_key(game.pending.options[0].key)
    assert forces_shown(game) == ["Dustroad Wardens", "not chosen yet"]
    assert force_lines(game) == ["South player fields Dustroad Wardens (125 pts, 9 models)"]
