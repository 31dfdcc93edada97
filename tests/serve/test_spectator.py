"""A spectator's session: what each choice costs its screen, and joining a game.

Nine spectators' processes share two cores, so a choice reaches the last of them only
as fast as each draws it: one frame per choice, with the log already at its end.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.screen import Screen

from tests.serve.test_screens import screen_text, seat_screen, watching
from tui.log_panel import LogPanel


async def test_a_choice_reaches_a_spectator_in_one_frame_with_the_log_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The log's new lines are drawn scrolled into view in the frame that draws the rest
    of the choice: no second frame to scroll the log, nor a third for its scrollbar
    alone (each was a frame of its own, drawing the screen's middle again)."""
    frames: list[set[str]] = []
    update = Screen._on_timer_update

    def counted(self: Screen[object]) -> None:
        if self._dirty_widgets or self._layout_required:
            frames.append({type(w).__name__ for w in self._dirty_widgets})
        update(self)

    monkeypatch.setattr(Screen, "_on_timer_update", counted)
    async with watching(tmp_path) as (hosted, play_one, app, pilot):
        log = seat_screen(app).query_one(LogPanel)
        while log.max_scroll_y < 3:  # a log longer than its panel: it scrolls
            await play_one()
        logged = 0
        for _ in range(10):
            await pilot.pause(0.1)
            frames.clear()
            before = len(log.lines)
            await play_one()
            await pilot.pause(0.1)  # anything a choice leaves to later frames comes now
            if len(log.lines) == before:
                continue
            logged += 1
            assert log.scroll_y == log.max_scroll_y  # the newest line in view
            drew_log = [f for f in frames if "LogPanel" in f]
            assert len(drew_log) == 1, frames
            assert all(f - {"ScrollBar"} for f in frames), frames  # no frame for a bar alone
            newest = str(log._texts[-1]).split("\n")[-1][:20]
            assert newest in screen_text(app)
        assert logged >= 3
        assert seat_screen(app).game.state_hash() == hosted.game.state_hash()
