"""A whole Apocalypse game played through the TUI, key by key, to the game-over screen.

The players always take the first option; secret orders and asset offers come behind
the hand-over screen (answered with Enter), the open hand-over screens are switched
off. Five turns always end the game (digest apocalypse §4.4).
"""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from tests.tui.keys import press_until, wait_for
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen, HandOverScreen

SCENARIO = Path(__file__).parents[2] / "scenarios" / "apocalypse-crossing.toml"


async def test_a_full_apocalypse_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        game: Game = screen.game
        secrets = 0
        while not isinstance(app.screen, GameOverScreen):
            top = app.screen
            if isinstance(top, HandOverScreen):
                secrets += top.hidden
                key = "enter" if top.hidden else "o"

                def gone(top: object = top) -> bool:
                    return app.screen is not top

                await press_until(pilot, key, gone)
                continue
            assert game.pending is not None
            count = len(game.choices)

            def answered(count: int = count) -> bool:
                return len(game.choices) > count or isinstance(app.screen, GameOverScreen)

            await press_until(pilot, "1", answered)
        assert game.outcome is not None
        assert game.ruleset.view().round == 5
        assert secrets >= 10  # four turns of secret orders at least
