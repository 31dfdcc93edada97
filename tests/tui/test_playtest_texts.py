"""Words a new player's playtest found wrong in Kill Team and fatigue, read off the screen
(the status line's unit, the whole log's scrolling keys)."""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from engine.save import read_save, replay
from tests.tui.conftest import ROOT
from tests.tui.keys import wait_for
from tests.tui.play import cursor_on
from tui.app import WargridApp
from tui.panels import StatusLine

FATIGUE = ROOT / "tests" / "replays" / "fatigue.wargrid"


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
