"""A whole Roads of the Apocalypse game played through the TUI with the keyboard.

Option keys (Enter on a cell picker) pick options (seeded choices among the first ten),
Enter passes the hand-over screens, until the game-over screen shows a result (digest
fatigue §5, every Decision).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.tui.play import (
    app_at,
    at_the_table,
    game_screen,
    key_of,
    press_for_choice,
    press_to_game_over,
)
from tui.app import make_app

SCENARIO = Path(__file__).parents[2] / "scenarios" / "fatigue-crossroads.toml"


@pytest.mark.slow
async def test_fatigue_game_plays_to_the_game_over_screen(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=7, saves_dir=tmp_path)
    picker = random.Random(7)
    async with app.run_test(size=(120, 45)) as pilot:
        await press_to_game_over(
            pilot,
            lambda d, keys: key_of(d, d.options[picker.randrange(min(10, len(d.options)))], keys),
            handover=lambda top: "enter",
            limit=3000,
        )
        game = game_screen(pilot).game
    assert game.outcome is not None


DEPLOYMENT = """
scenario = "fatigue-crossroads.toml"
round = 1
phase = "Deployment"
[fatigue]
forces = ["Dustroad Wardens", "Ashfang Scavengers"]
"""


async def test_a_deployment_position_opens_at_the_edge_choice(tmp_path: Path) -> None:
    """`wargrid play --position` on a fatigue Deployment position (#19): the roll-off
    winner is asked for an edge, and the key for an edge takes it and asks for a unit."""
    app = app_at(tmp_path, DEPLOYMENT, seed=5)
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await at_the_table(pilot)
        decision = screen.game.pending
        assert decision is not None and decision.prompt == "You won the roll-off: choose your edge"
        assert screen.game.view().phase == "Deployment"
        option = decision.options[1]
        key = key_of(decision, option, screen.decision_panel.keys)
        await press_for_choice(pilot, key, lambda: screen.game.choices != [])
        assert screen.game.choices[0].key == option.key
        assert screen.game.pending is not None
        assert "which unit do you place next" in screen.game.pending.prompt
