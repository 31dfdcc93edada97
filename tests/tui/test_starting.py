"""Starting a game by a scenario's name or title, saves that appear with the first choice,
and a Load list that says where each game stands."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest
from textual.widgets import OptionList

from engine.errors import ScenarioError
from engine.scenario import find_scenario
from tests.tui.conftest import CROSSROADS, ROOT
from tests.tui.keys import gone, press_until, wait_for
from tests.tui.play import game_screen
from tests.tui.test_menu import saved_game
from tui.app import make_app
from tui.cli import main, play_app
from tui.game_screen import GameScreen
from tui.menu import MainMenu
from tui.modals import HandOverScreen
from tui.new_game import SavesScreen


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from a folder with no scenarios/ of its own: only the shipped ones are found."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(
    "name",
    [
        "killteam-crossroads",
        "killteam-crossroads.toml",
        "Hold the Crossroads",
        "HOLD THE CROSSROADS",
    ],
)
def test_a_scenario_is_found_by_file_name_or_title(name: str, elsewhere: Path) -> None:
    assert find_scenario(name).resolve() == CROSSROADS.resolve()


def test_a_path_still_works(elsewhere: Path) -> None:
    assert find_scenario(str(CROSSROADS)) == CROSSROADS


def test_an_unknown_name_lists_the_known_ones(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ScenarioError, match=r"killteam-crossroads \(Hold the Crossroads\)"):
        find_scenario("Hold the Crossways")
    assert main(["play", "Hold the Crossways"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Hold the Crossways: no such scenario" in err
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        assert path.stem in err


async def test_play_by_name_starts_the_game_and_saves_only_once_a_choice_is_made(
    elsewhere: Path,
) -> None:
    saves = elsewhere / "saves"
    app = play_app(["killteam-crossroads", "--seed", "7", "--saves", str(saves)])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        screen = game_screen(pilot)
        assert screen.game.scenario.name == "Hold the Crossroads"
        await pilot.pause()
        assert not list(saves.glob("*.wargrid"))  # opened, nothing chosen: no file yet
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", gone(app, app.screen))
        await press_until(pilot, "1", lambda: len(screen.game.choices) == 1)
        [save] = saves.glob("*.wargrid")
        assert screen.save_path is not None and save.name == screen.save_path.name


async def test_leaving_a_game_before_the_first_choice_leaves_no_save(saves_dir: Path) -> None:
    app = make_app(scenario=CROSSROADS, seed=3, saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", gone(app, app.screen))
        await press_until(pilot, "q", lambda: isinstance(app.screen, MainMenu))
        assert list(saves_dir.iterdir()) == []


async def test_the_load_list_shows_ruleset_round_turn_and_when(saves_dir: Path) -> None:
    game = saved_game(saves_dir, "old.wargrid", 3)
    stamp = datetime(2026, 11, 20, 18, 5).timestamp()
    os.utime(saves_dir / "old.wargrid", (stamp, stamp))
    assert game.pending is not None
    who = game.players[game.pending.player]
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await press_until(pilot, "l", lambda: isinstance(app.screen, SavesScreen))
        saves = app.screen
        assert isinstance(saves, SavesScreen)
        await wait_for(pilot, lambda: len(saves.entries) == 1)
        line = str(saves.query_one("#saves-list", OptionList).get_option_at_index(0).prompt)
    assert "Hold the Crossroads (Kill Team" in line
    assert "setting up" in line or "round " in line
    assert f"{who}'s turn" in line
    assert "last played 2026-11-20 18:05" in line


def test_a_save_with_a_forged_turn_is_refused(saves_dir: Path) -> None:
    import msgpack

    from engine.errors import SaveError
    from engine.save import decode

    saved_game(saves_dir, "old.wargrid", 3)
    doc = msgpack.unpackb((saves_dir / "old.wargrid").read_bytes())
    assert doc["turn"] in (0, 1)
    for forged in (2, -1, "1", True, 1.0):
        doc["turn"] = forged
        with pytest.raises(SaveError, match="'turn' must be a seat number"):
            decode(msgpack.packb(doc), "forged.wargrid")
