"""A whole Warhammer 40,000 6th edition game played through the TUI, to the game-over screen.

The players always take the first offered option (end the phase with e and confirm it, no
power, place models on the cell the cursor starts on...), the hand-over screens are
switched off with "o", and the battle runs its 5 to 7 game turns (digest wh40k6 §4.12) to a result.
"""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from tests.tui.keys import press_until, wait_for, walk_cursor
from tests.tui.play import first_key, game_screen, press_to_game_over
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.modals import HandOverScreen
from tui.panels import StatusLine

SCENARIO = Path(__file__).parents[2] / "scenarios" / "wh40k6-emperors-will.toml"


async def test_a_full_wh40k6_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await press_to_game_over(pilot, first_key, handover=lambda top: "o", limit=2000)
        game = game_screen(pilot).game
        assert game.outcome is not None
        assert game.ruleset.view().round >= 5


async def test_terrain_is_drawn_with_its_glyph_and_named_under_the_cursor(tmp_path: Path) -> None:
    """Woods are drawn "&" and the status line says "woods (difficult, 5+ cover)"."""
    app = make_app(scenario=SCENARIO, seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        field = screen.query_one(Battlefield)
        field.focus()
        target = Cell(15, 17)
        await walk_cursor(pilot, lambda: field.cursor, target)
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "(15,17) woods (difficult, 5+ cover)" in str(status.render()))
        row = screen.game.board.height - 1 - target.y
        line = "".join(s.text for s in field.render_line(row - round(field.scroll_y)))
        assert "&" in line
