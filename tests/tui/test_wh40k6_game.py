"""A whole Warhammer 40,000 6th edition game played through the TUI, to the game-over screen.

The players always take the first offered option (end the phase with e and confirm it, no
power, place models on the cell the cursor starts on...), the hand-over screens are
switched off with "o", and the battle runs its 5 to 7 game turns (digest wh40k6 §4.12) to a result.
"""

from __future__ import annotations

from pathlib import Path

from tests.tui.play import first_key, game_screen, press_to_game_over
from tui.app import make_app

SCENARIO = Path(__file__).parents[2] / "scenarios" / "wh40k6-emperors-will.toml"


async def test_a_full_wh40k6_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await press_to_game_over(pilot, first_key, handover=lambda top: "o", limit=2000)
        game = game_screen(pilot).game
        assert game.outcome is not None
        assert game.ruleset.view().round >= 5
