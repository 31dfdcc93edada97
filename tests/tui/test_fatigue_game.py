"""A whole Roads of the Apocalypse game played through the TUI with the keyboard.

Digit keys pick options (seeded choices among the first ten), Enter passes the hand-over
screens, until the game-over screen shows a result (digest fatigue §5, every Decision).
"""

from __future__ import annotations

import random
from pathlib import Path

from engine.game import Game
from tests.tui.keys import press_until, wait_for
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen, HandOverScreen
from tui.text import DIGIT_KEYS

SCENARIO = Path(__file__).parents[2] / "scenarios" / "fatigue-crossroads.toml"


async def test_fatigue_game_plays_to_the_game_over_screen(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=7, saves_dir=tmp_path)
    picker = random.Random(7)
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        game: Game = screen.game
        while not isinstance(app.screen, GameOverScreen):
            top = app.screen
            if isinstance(top, HandOverScreen):

                def handed_over(t: object = top) -> bool:
                    return app.screen is not t

                await press_until(pilot, "enter", handed_over)
                continue
            decision = game.pending
            assert decision is not None
            made = len(game.choices)
            key = DIGIT_KEYS[picker.randrange(min(10, len(decision.options)))]

            def answered(n: int = made) -> bool:
                return len(game.choices) > n or isinstance(app.screen, GameOverScreen)

            await press_until(pilot, key, answered)
            assert len(game.choices) < 3000
    assert game.outcome is not None
