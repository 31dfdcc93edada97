"""Long texts read whole at 80x24: the status line and the replay viewer (playtest).

At 80 columns the status line ended "Enter: Horde Mob Red (14", 4 of 5 models…", the
viewer's verdict "✔ Verified: every roll and state matc…", its step rows
"   6 Setup Deployment Rustbound Hord…" (no answer at all) and its key list put "a new
name" where a key belongs. They are worded shorter, or wrapped, where they do not fit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from engine.timeline import Verdict
from tests.replays.make import path_of
from tests.tui.keys import press_until, wait_for
from tests.tui.test_option_room import at_the_targets, position
from tui.app import make_app
from tui.panels import StatusLine
from tui.replay_screen import ReplayScreen
from tui.text import label_head


def rows(app: App[Any]) -> list[str]:
    """The screen's lines as the terminal shows them."""
    return ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]


def test_a_shortened_label_keeps_its_cell_and_drops_its_brackets() -> None:
    assert label_head('Horde Mob Red (14", 4 of 5 models in range)') == "Horde Mob Red"
    assert label_head('A2.1 Warden Sergeant to (30,6) (3")') == "A2.1 Warden Sergeant to (30,6)"
    assert label_head("Horde Mob Red: Regroup test (falling back)") == (
        "Horde Mob Red: Regroup test"
    )
    assert label_head("(3 models)") == "(3 models)"  # never to nothing


async def test_at_80x24_the_status_line_says_what_enter_does_whole(tmp_path: Path) -> None:
    app = make_app(position=position(tmp_path), seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        status = (await at_the_targets(pilot)).query_one(StatusLine)
        await wait_for(pilot, lambda: "Enter: Horde Mob Red" in str(status.render()))
        line = str(status.render())
        assert line.strip() == "(8,12) open ground · B1.1 Mob Boss · Enter: Horde Mob Red"
    app = make_app(position=position(tmp_path), seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:  # room for all of it
        status = (await at_the_targets(pilot)).query_one(StatusLine)
        whole = 'Enter: Horde Mob Red (14", 4 of 5 models in range)'
        await wait_for(pilot, lambda: whole in str(status.render()), whole)


async def test_at_80x24_the_viewers_verdict_steps_and_keys_read_whole(saves_dir: Path) -> None:
    app = make_app(replay=path_of("wh40k6"), saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await wait_for(pilot, lambda: screen.timeline.verdict is Verdict.VERIFIED, "verified")
        await pilot.pause()
        shown = rows(app)
        assert any(row.rstrip().endswith("✔ Verified: all rolls and states match") for row in shown)
        last = screen.timeline.last
        assert any(f"{last} T7 P1: End the Shooting phase" in row for row in shown), shown
        assert not any("Iron Wardens: End…" in row for row in shown)
        await press_until(pilot, "question_mark", lambda: bool(app.screen.query(".keys-help")))
        await pilot.pause()
        keys = rows(app)
        wrapped = next(row for row in keys if "new name" in row)
        first = next(row for row in keys if "first / last step" in row)
        # The wrapped end of "c  continue from here ..." stands under the words, not the keys.
        assert wrapped.index("new name") >= first.index("first / last step"), keys
