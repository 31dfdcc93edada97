"""The `w` key saves the current moment as a position that starts a new game."""

from __future__ import annotations

from pathlib import Path

from engine.bot import RandomBot
from engine.game import Game
from engine.position import load_position
from engine.save import write_save
from engine.scenario import load_scenario
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import press_until, wait_for
from tests.tui.play import game_screen
from tui.app import make_app
from tui.game_screen import GameScreen


def notified(app: object) -> str:
    return " ".join(str(n.message) for n in app._notifications)  # type: ignore[attr-defined]


async def test_w_during_setup_says_why_not(saves_dir: Path) -> None:
    app = make_app(scenario=CROSSROADS, seed=11, saves_dir=saves_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await press_until(pilot, "w", lambda: "position" in notified(app))
        assert "Cannot save a position" in notified(app)
    assert not list(saves_dir.glob("*.position.toml"))


async def test_w_in_a_phase_writes_a_loadable_position(saves_dir: Path) -> None:
    game = Game(load_scenario(CROSSROADS), 11)
    bot = RandomBot(11)
    while game.view().phase != "Shooting":
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
    save = saves_dir / "mid.wargrid"
    write_save(game, save)
    app = make_app(load=save, saves_dir=saves_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert game_screen(pilot).game.view().phase == "Shooting"
        await press_until(pilot, "w", lambda: "Position saved" in notified(app))
    [path] = list(saves_dir.glob("*.position.toml"))
    position = load_position(path)
    again = Game(position.scenario, 2, position=position)
    assert again.view().phase == "Shooting"
    assert [(m.id, m.cell, m.wounds) for m in again.view().models] == [
        (m.id, m.cell, m.wounds) for m in game.view().models
    ]
