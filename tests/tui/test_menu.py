"""The main menu, saves, replays, help from the menu, and the too-small terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from engine.errors import SaveError
from engine.game import Game
from engine.save import write_save
from engine.scenario import load_scenario
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import mounted, press_until, send_key, wait_for
from tests.tui.play import game_screen
from tests.tui.test_game import shown
from tui.app import WargridApp, make_app
from tui.game_screen import GameScreen
from tui.help import HelpScreen
from tui.menu import MainMenu
from tui.modals import HandOverScreen, TooSmallScreen
from tui.new_game import NewGameScreen, SavesScreen


def saved_game(saves_dir: Path, name: str, choices: int) -> Game:
    """A game with its first ``choices`` options taken, written to ``saves_dir/name``."""
    game = Game(load_scenario(CROSSROADS), 11)
    for _ in range(choices):
        assert game.pending is not None
        game.choose_key(game.pending.options[0].key)
    write_save(game, saves_dir / name)
    return game


async def test_menu_offers_every_entry_and_continue_only_with_a_save(saves_dir: Path) -> None:
    app = make_app(saves_dir=saves_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-list", OptionList)
        await wait_for(
            pilot, lambda: "No unfinished game" in shown(app.screen.query_one("#menu-note", Static))
        )
        labels = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert labels == [
            "[n] New game",
            "[c] Continue the last game",
            "[l] Load a saved game",
            "[r] Open a replay",
            "[s] Settings",
            "[?] Rules and help",
            "[q] Quit",
        ]
        assert menu.get_option("continue").disabled
        await press_until(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
        await press_until(pilot, "escape", lambda: isinstance(app.screen, MainMenu))


async def test_load_lists_saves_and_opens_one_where_it_stopped(saves_dir: Path) -> None:
    game = saved_game(saves_dir, "old.wargrid", 3)
    (saves_dir / "broken.wargrid").write_bytes(b"not a save")
    app = make_app(saves_dir=saves_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-list", OptionList)
        await wait_for(pilot, lambda: not menu.get_option("continue").disabled)
        await press_until(pilot, "l", lambda: isinstance(app.screen, SavesScreen))
        saves = app.screen
        assert isinstance(saves, SavesScreen)
        await wait_for(pilot, lambda: len(saves.entries) == 2)
        listing = {e.path.name: e for e in saves.entries}
        assert listing["broken.wargrid"].data is None
        assert "not a wargrid save" in listing["broken.wargrid"].describe()
        index = saves.entries.index(listing["old.wargrid"])
        options = saves.query_one("#saves-list", OptionList)
        options.highlighted = index
        await press_until(
            pilot,
            "enter",
            lambda: isinstance(app.screen, GameScreen | HandOverScreen) and mounted(app),
        )
        opened = game_screen(pilot)
        assert opened.game.choices == game.choices
        assert opened.save_path == saves_dir / "old.wargrid"


async def test_a_read_only_game_screen_refuses_every_choice(saves_dir: Path) -> None:
    game = saved_game(saves_dir, "done.wargrid", 4)
    app = make_app(saves_dir=saves_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = GameScreen(game, read_only=True)
        await app.push_screen(screen)
        await wait_for(pilot, lambda: "Read-only" in shown(screen.decision_panel.prompt))
        await send_key(pilot, "1")
        await send_key(pilot, "u")
        assert len(screen.game.choices) == 4  # nothing can change it


def test_make_app_refuses_a_damaged_save_with_one_line(saves_dir: Path) -> None:
    bad = saves_dir / "bad.wargrid"
    bad.write_bytes(b"\x00garbage")
    with pytest.raises(SaveError, match="not a wargrid save"):
        make_app(load=bad, saves_dir=saves_dir)


async def test_help_from_the_menu_has_each_rulesets_reference(saves_dir: Path) -> None:
    app = make_app(saves_dir=saves_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        await press_until(
            pilot,
            "question_mark",
            lambda: isinstance(app.screen, HelpScreen) and bool(app.screen.query("#help-text")),
        )
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.source
        assert "# How to play" in source
        assert "Kill Team (2018) quick reference" in source
        await press_until(pilot, "escape", lambda: isinstance(app.screen, MainMenu))


async def test_a_too_small_terminal_asks_to_enlarge_and_recovers(saves_dir: Path) -> None:
    app = make_app(scenario=CROSSROADS, seed=7, saves_dir=saves_dir)
    assert isinstance(app, WargridApp)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        text = app.screen.query_one("#too-small-text", Static)
        await wait_for(pilot, lambda: "60x20" in shown(text))
        assert "at least 80x24" in shown(text)
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
        await pilot.resize_terminal(80, 23)
        await wait_for(pilot, lambda: isinstance(app.screen, TooSmallScreen))
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen))
