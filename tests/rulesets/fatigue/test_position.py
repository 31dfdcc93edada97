"""Roads of the Apocalypse positions: bad ones are refused with the key and why (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.position import PositionError, parse_position
from engine.save import decode, replay, to_bytes

SCENARIOS = Path(__file__).parents[3] / "scenarios"

GOOD = """
scenario = "fatigue-crossroads.toml"
round = 2
phase = "Activations"

[fatigue]
initiative = 1
sides = [{ fp = 4 }, {}]

[[fatigue.units]]
player = 1
unit = "Road Spears"
cells = [[3, 3], [4, 3], "out"]
wounds = [0, 0, 0]
fatigue = 1
scrum = 1

[[fatigue.units]]
player = 2
unit = "Scav Pack"
cells = [[3, 4], [4, 4]]
states = ["first exchange"]
scrum = 1
"""


def start(text: str) -> Game:
    position = parse_position(text, "test.toml", base=SCENARIOS)
    return Game(position.scenario, 0, position=position)


def test_a_good_position_sets_up_units_scrums_and_pools() -> None:
    """FP as given (or a fresh refill, §10 #1), fatigue tokens, a scrum of both sides."""
    game = start(GOOD)
    state = game.ruleset.state  # type: ignore[attr-defined]
    assert state.side(0).fp == 4
    assert state.side(1).fp == 2  # Scav Pack fp 2, the Pack-Boss is not on the table
    assert state.units[1].fatigue == 1
    assert state.units[1].models[2].out_of_action
    assert state.scrums[1].sides == ([1], [2])
    assert game.pending is not None and game.pending.player == 0
    view = game.view()
    assert view.phase == "Activations" and view.round == 2


@pytest.mark.parametrize(
    ("old", "new", "key", "why"),
    [
        ("[4, 4]]\nstates", "[3, 3]]\nstates", "fatigue.units[1].cells[1]", "already holds"),
        ('"first exchange"', '"dazed"', "fatigue.units[1].states", "list states among"),
        ('phase = "Activations"', 'phase = "Shooting"', "phase", "Round start"),
        ("scrum = 1\n\n", "\n", "fatigue.units", "scrum 1 needs units of both players"),
        ('unit = "Scav Pack"', 'unit = "Road Spears"', "fatigue.units[1].unit", "Scav Pack"),
    ],
)
def test_bad_positions_are_refused_with_key_and_why(old: str, new: str, key: str, why: str) -> None:
    """Two models in one cell, an unknown state or phase, a one-sided scrum, a stray unit."""
    text = GOOD.replace(old, new, 1)
    assert text != GOOD
    with pytest.raises(PositionError) as caught:
        start(text)
    message = str(caught.value)
    assert f"key '{key}'" in message and why in message and "test.toml" in message


def test_a_game_from_a_position_ends_and_replays() -> None:
    """Played on to the end from round 2's Activations; the save replays identically."""
    for seed in range(3):
        game = start(GOOD)
        while game.pending is not None and len(game.choices) < 2000:
            options = game.pending.options
            game.choose_key(options[(seed + len(game.choices)) % len(options)].key)
        assert game.pending is None
        again = replay(decode(to_bytes(game), "pos"))
        assert again.state_hash() == game.state_hash()
