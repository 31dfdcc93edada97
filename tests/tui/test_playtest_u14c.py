"""Traps found playing Kill Team and fatigue in tmux as a new player would (issue #14):
each test presses the keys that showed the problem and reads the screen."""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.keys import send_key, wait_for, walk_cursor
from tests.tui.play import opened_game
from tui.app import WargridApp
from tui.battlefield import Battlefield

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def played_to(name: str, prompt: str, seed: int = 3) -> Game:
    """``name``'s scenario played by the engine (first ordinary options) up to ``prompt``."""
    game = Game(load_scenario(SCENARIOS / f"{name}.toml"), seed)
    while game.pending is not None and not game.pending.prompt.startswith(prompt):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    return game


async def test_n_from_an_unlit_cell_goes_to_the_nearest_lit_cell(saves_dir: Path) -> None:
    """Played at 80x24: placing the Reaver Boss, the cursor walked off the zone and Enter
    was refused; `n` then took it to (0,16), the far corner of the zone."""
    game = played_to("killteam-crossroads", "Deployment: place")
    decision = game.pending
    assert decision is not None
    lit = {o.cell for o in decision.options if o.cell is not None}
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(game, handover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        start = field.cursor
        assert start in lit
        rows = 1 if start.y < game.board.height // 2 else -1  # towards the other zone
        outside = start
        while outside in lit:
            outside = Cell(outside.x, outside.y + rows)
        assert outside not in lit
        await walk_cursor(pilot, lambda: field.cursor, outside)
        await send_key(pilot, "n")
        await wait_for(pilot, lambda: field.cursor != outside, "the cursor to hop")
        assert field.cursor == Cell(outside.x, outside.y - rows)  # was the zone's corner
