"""A whole Apocalypse game played through the TUI, key by key, to the game-over screen.

The players always take the first option; secret orders and asset offers come behind
the hand-over screen (answered with Enter), the open hand-over screens are switched
off. Five turns always end the game (digest apocalypse §4.4).
"""

from __future__ import annotations

from pathlib import Path

from tests.tui.play import first_key, game_screen, press_to_game_over
from tui.app import make_app

SCENARIO = Path(__file__).parents[2] / "scenarios" / "apocalypse-crossing.toml"


async def test_a_full_apocalypse_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        secrets = await press_to_game_over(
            pilot, first_key, handover=lambda top: "enter" if top.hidden else "o"
        )
        game = game_screen(pilot).game
        assert game.outcome is not None
        assert game.ruleset.view().round == 5
        assert secrets >= 10  # four turns of secret orders at least
