"""Words a new player's playtest found wrong in Kill Team and fatigue, read off the screen
(the status line's unit, the whole log's scrolling keys)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, RichLog

from engine.board import Cell
from engine.save import read_save, replay
from tests.tui.conftest import ROOT
from tests.tui.keys import send_key, wait_for
from tests.tui.play import cursor_on
from tests.tui.test_log import past_handover
from tui.app import WargridApp
from tui.game_screen import GameScreen
from tui.log_screen import LogScreen
from tui.modals import HandOverScreen
from tui.panels import StatusLine

FATIGUE = ROOT / "tests" / "replays" / "fatigue.wargrid"
KILLTEAM = ROOT / "tests" / "replays" / "killteam.wargrid"


async def test_the_fatigue_status_line_counts_steps_by_the_scenarios_metric(
    saves_dir: Path,
) -> None:
    """Played: the status line said '4" from A2' where every prompt and log line counts
    steps. The Broken Span plays the Chebyshev module: two cells along a diagonal are
    2 steps there (3 by the 1-2-1 rule, 3" by the board's inches)."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(replay(read_save(FATIGUE), upto=34))  # where does B8 Dread Brute go?
    async with app.run_test(size=(200, 60)) as pilot:
        screen, _ = await cursor_on(pilot, Cell(14, 17))  # B8 stands at (16,19)
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "from B8" in str(status.render()), "the range")
        assert "2 steps from B8" in str(status.render())
        assert '" from' not in str(status.render())


async def test_the_whole_log_scrolls_by_page_while_the_search_field_has_the_focus(
    saves_dir: Path,
) -> None:
    """Played at 200x60: in the whole log (L), End and Page Down did nothing with the
    search field focused; the log's keys now reach it wherever the focus is."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(replay(read_save(KILLTEAM), upto=120))
    async with app.run_test(size=(200, 60)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, (GameScreen, HandOverScreen)))
        await past_handover(pilot)
        await send_key(pilot, "L")
        await wait_for(pilot, lambda: isinstance(app.screen, LogScreen), "the whole log")
        log = app.screen.query_one("#log-all", RichLog)
        await wait_for(pilot, lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y)
        await send_key(pilot, "home")  # the log has the focus: its own key
        await wait_for(pilot, lambda: log.scroll_y == 0, "the first line")
        await send_key(pilot, "slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input), "the search field")
        await send_key(pilot, "pagedown")
        await wait_for(pilot, lambda: log.scroll_y > 0, "a page down")
        await send_key(pilot, "pageup")
        await wait_for(pilot, lambda: log.scroll_y == 0, "a page up")
