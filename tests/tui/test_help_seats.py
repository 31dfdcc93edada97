"""The help says who sits at this keyboard (2026-11-27 playtest against the computer: it
said "Two players share this keyboard" to a player alone against the computer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import send_key, wait_for
from tests.tui.play import opened_game
from tests.tui.test_input import app_on
from tui.help import HelpScreen


@pytest.mark.parametrize(
    ("computer", "said", "unsaid"),
    [
        (("", "easy"), "You play against the computer", "share this keyboard"),
        (("", ""), "Two players share this keyboard (hot-seat).", "You play"),
    ],
)
async def test_the_help_says_who_plays_at_this_keyboard(
    saves_dir: Path, computer: tuple[str, str], said: str, unsaid: str
) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml")
    app = app_on(Game(scenario, 3, computer=computer), saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        await send_key(pilot, "question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert isinstance(app.screen, HelpScreen)
        assert said in app.screen.source and unsaid not in app.screen.source
        await send_key(pilot, "escape")
        await wait_for(pilot, lambda: app.screen is screen, "the game again")
