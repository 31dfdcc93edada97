"""A whole Warhammer 40,000 6th edition game played through the TUI, to the game-over screen.

The players press keys as a hasty pair would (tests/tui/play.py: lit cells with the cursor
and Enter, listed options by their keys, often the last one such as "e End the phase"), the
hand-over screens are switched off with "o", and the battle runs its 5 to 7 game turns
(digest wh40k6 §4.12) to a result. (Always taking the first option no longer ends: a
refused placement's first option, "Adjust a model", puts it back on its own cell.)
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.board import Cell
from tests.tui.keys import press_until, wait_for
from tests.tui.play import app_at, cursor_on, game_screen, play_to_game_over
from tui.app import make_app
from tui.panels import StatusLine

SCENARIO = Path(__file__).parents[2] / "scenarios" / "wh40k6-emperors-will.toml"


@pytest.mark.slow
async def test_a_full_wh40k6_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_game_over(pilot, random.Random(5), handovers=0, hasty=0.6)
        game = game_screen(pilot).game
        assert game.outcome is not None
        assert game.ruleset.view().round >= 5


async def test_terrain_is_drawn_with_its_glyph_and_named_under_the_cursor(tmp_path: Path) -> None:
    """Woods are drawn "&" and the status line says "woods (difficult, 5+ cover)"."""
    app = make_app(scenario=SCENARIO, seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        target = Cell(15, 17)
        screen, field = await cursor_on(pilot, target)
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "(15,17) woods (difficult, 5+ cover)" in str(status.render()))
        row = screen.game.board.height - 1 - target.y
        line = "".join(s.text for s in field.render_line(row - round(field.scroll_y)))
        assert "&" in line


POSITION = """
scenario = "wh40k6-emperors-will.toml"
round = 2
phase = "Movement"

[wh40k6]
player = 1
first_player = 1

[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
models = [{ cell = [20, 18] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [60, 44] }]
"""


async def test_cells_you_may_pick_still_show_their_terrain(tmp_path: Path) -> None:
    """Playtest 3: lit "+" cells hid the woods and ruins a unit could move or deploy into;
    wide cells now read "&+" (woods you may pick), open ones "+ "."""
    app = app_at(tmp_path, POSITION, seed=1)
    async with app.run_test(size=(200, 60)) as pilot:
        screen, field = await cursor_on(pilot, Cell(20, 18))
        game = screen.game

        def prompt() -> str:
            return "" if game.pending is None else game.pending.prompt

        await press_until(pilot, "1", lambda: "through difficult" in prompt())
        await press_until(pilot, "1", lambda: prompt().startswith("Move A1.1"))  # yes: 2D6
        woods = Cell(19, 18)
        assert game.pending is not None and any(o.cell == woods for o in game.pending.options)
        row = game.board.height - 1 - woods.y

        def line() -> str:
            return "".join(s.text for s in field.render_line(row - round(field.scroll_y)))

        x = woods.x * field.cell_width
        await wait_for(pilot, lambda: line()[x : x + 2] == "&+")
        assert line()[x + 4 : x + 6] == "+ "  # open ground at (21,18)
