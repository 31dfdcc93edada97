"""A whole Roads of the Apocalypse game played through the TUI with the keyboard.

Option keys (Enter on a cell picker) pick options (seeded choices among the first ten),
Enter passes the hand-over screens, until the game-over screen shows a result (digest
fatigue §5, every Decision).
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.tui.play import game_screen, key_of, press_to_game_over
from tui.app import make_app

SCENARIO = Path(__file__).parents[2] / "scenarios" / "fatigue-crossroads.toml"


async def test_fatigue_game_plays_to_the_game_over_screen(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=7, saves_dir=tmp_path)
    picker = random.Random(7)
    async with app.run_test(size=(120, 45)) as pilot:
        await press_to_game_over(
            pilot,
            lambda d: key_of(d, d.options[picker.randrange(min(10, len(d.options)))]),
            handover=lambda top: "enter",
            limit=3000,
        )
        game = game_screen(pilot).game
    assert game.outcome is not None
