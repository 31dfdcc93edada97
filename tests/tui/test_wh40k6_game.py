"""A whole Warhammer 40,000 6th edition game played through the TUI, to the game-over screen.

The players always press "1" (the first option: end the phase, no power, place models one
by one on the first cells...), the hand-over screens are switched off with "o", and the
battle runs its 5 to 7 game turns (digest wh40k6 §4.12) to a result.
"""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from tests.tui.keys import press_until, wait_for
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen, HandOverScreen

SCENARIO = Path(__file__).parents[2] / "scenarios" / "wh40k6-emperors-will.toml"


async def test_a_full_wh40k6_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        game: Game = screen.game
        while not isinstance(app.screen, GameOverScreen):
            top = app.screen
            if isinstance(top, HandOverScreen):

                def gone(top: object = top) -> bool:
                    return app.screen is not top

                await press_until(pilot, "o", gone)
                continue
            assert game.pending is not None
            count = len(game.choices)

            def answered(count: int = count) -> bool:
                return len(game.choices) > count or isinstance(app.screen, GameOverScreen)

            await press_until(pilot, "1", answered)
            assert len(game.choices) < 2000
        assert game.outcome is not None
        assert game.ruleset.view().round >= 5
