"""Small things a player notices in the app: replay rows name the phase a choice was made
in, and the hand-over setting survives Continue."""

from __future__ import annotations

from pathlib import Path

from engine.timeline import timeline_of_file
from tests.tui.conftest import CROSSROADS, ROOT
from tests.tui.keys import send_key, wait_for
from tests.tui.play import first_key, game_screen, keys_of, press_for_choice
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.menu import MainMenu
from tui.modals import HandOverScreen
from tui.replay_text import step_line

KILLTEAM = ROOT / "tests" / "replays" / "killteam.wargrid"


def test_a_replay_row_names_the_phase_its_choice_was_made_in() -> None:
    timeline = timeline_of_file(KILLTEAM)
    # The last deployment placement: the game is in the Initiative phase after it.
    last = next(
        s
        for s in range(1, timeline.last + 1)
        if timeline.at(s - 1).phase == "Deployment" and timeline.at(s).phase != "Deployment"
    )
    assert " Deployment " in step_line(timeline, last).plain
    assert timeline.at(last).phase not in step_line(timeline, last).plain


async def test_hand_over_screens_stay_off_after_continue(saves_dir: Path) -> None:
    app = make_app(scenario=CROSSROADS, seed=3, saves_dir=saves_dir)
    async with app.run_test() as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: app.screen is screen, "the game")
        await send_key(pilot, "o")  # the players share everything: no hand-over screens
        assert screen.handover is False
        game = screen.game
        decision = game.pending
        assert decision is not None
        made = len(game.choices)
        await press_for_choice(
            pilot, first_key(decision, keys_of(pilot)), lambda: len(game.choices) > made
        )
        await send_key(pilot, "q")
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await send_key(pilot, "c")
        await wait_for(
            pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen), "the game again"
        )
        await pilot.pause()
        assert not isinstance(app.screen, HandOverScreen)
        again = game_screen(pilot)
        assert again is not screen and again.handover is False
        assert len(again.game.choices) == made + 1
