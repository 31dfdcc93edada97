"""Traps from the tmux playtest against the computer (issues 14 and 20): Kill Team, fatigue
and Apocalypse at 80x24 and 200x60, pressed as a new player would."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot.players import RandomPlayer
from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import send_key, wait_for
from tests.tui.play import game_screen
from tests.tui.test_input import app_on, notice
from tests.tui.test_playtest_u14g import status
from tui.computer import Autoplay, computer_turn


def undo_stops_at_the_computer(game: Game) -> bool:
    """True when a person's undo, taken back past the computer's moves, would land on a
    computer's Decision (dice were rolled during its moves, so undo stops there)."""
    if not game.can_undo or not game.answered or game.answered[-1].player != 1:
        return False
    back = game.undone()
    while computer_turn(back) and back.can_undo:
        back = back.undone()
    return computer_turn(back)


def against_the_computer(name: str, seed: int) -> Game:
    """A person (first side) against the computer, both played by a seeded random bot
    until the person decides right after the computer's moves that rolled dice."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed, computer=("", "easy"))
    bot = RandomPlayer(1)
    while game.pending is not None:
        if game.pending.player == 0 and undo_stops_at_the_computer(game):
            return game
        game.choose(bot.decide(game))
    raise AssertionError("no such moment")


async def test_undo_after_the_computer_rolled_dice_is_refused_with_why(saves_dir: Path) -> None:
    # Before: u undid the computer's last move (B16 Scrapling's move after its Advance
    # roll); the computer at once played it again, and the screen only flickered
    # "Computer is thinking…": undo did nothing, and nothing said why.
    game = against_the_computer("killteam-crossroads", 5)
    made = list(game.choices)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: screen.decision_panel.option_list.option_count > 0)
        await send_key(pilot, "u")
        await pilot.pause()
        assert "Cannot undo past the computer's move: dice were rolled during it." in notice(screen)
        assert screen.game is game and not computer_turn(screen.game)
        assert screen.game.choices == made


async def test_while_the_computer_decides_the_cursor_offers_nothing(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: after the person placed a model, the computer's turn kept the person's lit
    # cells: the status line read "(14,3) open ground · A10 Militia Seer · Enter: cell
    # (14,3)" (and in Apocalypse "Enter: Sky Raiders" with a shot's odds under the list)
    # while "Computer is thinking…".
    monkeypatch.setattr(Autoplay, "start", lambda self, game: None)  # it never answers
    game = Game(
        load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml"), 5, computer=("", "easy")
    )
    while game.pending is not None and not (
        game.pending.player == 0 and game.pending.prompt.startswith("Deployment: place")
    ):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: "Enter: cell" in status(screen), "the lit cell")
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: computer_turn(screen.game), "the computer's turn")
        await pilot.pause()
        assert "Enter:" not in status(screen)
        assert "thinking" in str(screen.decision_panel.prompt.render())
