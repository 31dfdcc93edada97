"""A whole Confrontation game played through the TUI, key by key, to the game-over screen.

The players always take the first option (charges and all-out attacks come first, so
the game ends by a wipe-out well before the round cap), answer secret deck stacking
behind the hand-over screen with Enter, and switch the open hand-over screens off.
"""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from tests.tui.keys import press_until, wait_for
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen, HandOverScreen

SCENARIO = Path(__file__).parents[2] / "scenarios" / "confrontation-crossing.toml"


async def test_a_full_confrontation_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=7, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        game: Game = screen.game
        secrets = 0
        while not isinstance(app.screen, GameOverScreen):
            top = app.screen
            if isinstance(top, HandOverScreen):
                secrets += top.hidden

                def handed_over(t: object = top) -> bool:
                    return app.screen is not t

                await press_until(pilot, "enter" if top.hidden else "o", handed_over)
                continue
            assert game.pending is not None
            made = len(game.choices)

            def answered(n: int = made) -> bool:
                return len(game.choices) > n or isinstance(app.screen, GameOverScreen)

            await press_until(pilot, "1", answered)
        assert game.outcome is not None and game.outcome.winner is not None
        assert "no fighter left" in game.outcome.reason
        assert secrets >= 2
