"""A save from another engine version is continued in a new file, never overwritten."""

from __future__ import annotations

from pathlib import Path

import msgpack

from engine.bot import RandomBot
from engine.game import Game
from engine.save import read_save, to_bytes
from engine.scenario import load_scenario
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import wait_for
from tests.tui.play import game_screen
from tui.app import make_app
from tui.game_screen import GameScreen


async def test_foreign_version_save_is_not_overwritten(saves_dir: Path) -> None:
    game = Game(load_scenario(CROSSROADS), 4)
    bot = RandomBot(4)
    for _ in range(6):
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
    doc = msgpack.unpackb(to_bytes(game))
    doc["engine_version"] = "0.0.1-old"
    old = saves_dir / "old.wargrid"
    old.write_bytes(msgpack.packb(doc))
    before = old.read_bytes()
    app = make_app(load=old, saves_dir=saves_dir)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        screen = game_screen(pilot)
        assert screen.save_path is not None and screen.save_path != old
        await pilot.press("1")
        await wait_for(pilot, lambda: len(screen.game.choices) == 7, "a choice")
    assert old.read_bytes() == before
    continued = saves_dir / "old-continued.wargrid"
    assert len(read_save(continued).choices) == 7
