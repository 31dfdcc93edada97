"""Confrontation positions: starting a game at any phase (engine.position; digest §5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.game import Game
from engine.position import PositionError, parse_position

SCENARIOS = Path(__file__).parents[3] / "scenarios"

BASE = """
scenario = "confrontation-crossing.toml"
round = {round}
phase = "{phase}"
[confrontation]
tactical_winner = 2
[[confrontation.fighters]]
player = 1
profile = "spearman"
card = "A7"
{cell_a}
[[confrontation.fighters]]
player = 1
profile = "spearman"
card = "A7"
{cell_b}
[[confrontation.fighters]]
player = 2
profile = "grish"
{cell_c}
"""


def _position(phase: str = "Combat", rnd: int = 2, cells: bool = True, extra: str = "") -> str:
    def cell(at: str) -> str:
        return f"cell = {at}" if cells else ""

    return (
        BASE.format(
            round=rnd,
            phase=phase,
            cell_a=cell("[5, 5]"),
            cell_b=cell("[9, 9]"),
            cell_c=cell("[5, 6]"),
        )
        + extra
    )


def test_fighters_cards_and_ids_come_from_the_position() -> None:
    position = parse_position(_position(), "p.toml", base=SCENARIOS)
    game = Game(position.scenario, 1, position=position)
    view = game.view()
    assert [m.id for m in view.models] == ["A7.1", "A7.2", "B1"]
    assert view.round == 2 and view.phase == "Combat"
    assert game.pending is not None and game.pending.player in (0, 1)


@pytest.mark.parametrize("phase", ["Deployment", "Strategic", "Activation", "Combat"])
def test_games_from_every_phase_end(phase: str) -> None:
    rnd = 1 if phase == "Deployment" else 9
    text = _position(phase, rnd, cells=phase != "Deployment")
    position = parse_position(text, "p.toml", base=SCENARIOS)
    game = Game(position.scenario, 3, position=position)
    bot = RandomBot(3)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
        assert len(game.choices) < 5000
    assert game.outcome is not None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (_position(phase="Morale"), "phase"),
        (_position(phase="Deployment", rnd=1), "cell"),
        (_position().replace('profile = "grish"', 'profile = "orc"'), "profile"),
        (_position().replace("tactical_winner = 2", "tactical_winner = 3"), "tactical_winner"),
        (_position().replace("[9, 9]", "[5, 5]"), "already holds"),
        (_position(extra='states = ["asleep"]'), "states"),
        (
            _position(phase="Activation").replace(
                "tactical_winner = 2", 'tactical_winner = 2\ndecks = [["A9"], ["B1"]]'
            ),
            "decks",
        ),
    ],
)
def test_bad_positions_name_the_key(text: str, key: str) -> None:
    with pytest.raises(PositionError, match=key):
        position = parse_position(text, "p.toml", base=SCENARIOS)
        Game(position.scenario, 1, position=position)
