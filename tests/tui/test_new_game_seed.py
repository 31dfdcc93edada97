"""The new-game form's seed (issue #18 item 3): a seed out of range is told on the form,
never a crash at the first autosave; an empty one draws a secret 128-bit seed."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.tui.keys import new_game_form, press_until, send_key, wait_for
from tests.tui.play import game_screen
from tests.tui.test_position_key import notified
from tui.app import make_app
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen


async def test_a_seed_out_of_range_is_told_and_an_empty_one_is_secret(saves_dir: Path) -> None:
    app = make_app(saves_dir=saves_dir)
    async with app.run_test() as pilot:
        form = await new_game_form(pilot)
        seed = form.query_one("#seed", Input)
        await press_until(pilot, "tab", lambda: app.focused is seed, "the seed field")
        for key in "9" * 90:
            await send_key(pilot, key)
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: "Seed: a seed must be a whole number" in notified(app))
        assert app.screen is form
        seed.value = ""
        await press_until(pilot, "enter", lambda: isinstance(app.screen, GameScreen))
        screen = game_screen(pilot)  # drawn before the test ends (its mount must not race exit)
        await wait_for(pilot, lambda: screen.is_mounted and bool(screen.query(DecisionPanel)))
        assert screen.game.seed.bit_length() > 64  # 1 in 2**64 to fail by chance
