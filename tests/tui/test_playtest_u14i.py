"""Small traps of the new-player playtest (issue #14): deployment's cursor, the model
card while shooting, the fatigue force's wording. Each test presses the keys a player
pressed and reads the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from engine.board import Cell
from engine.decisions import Decision
from tests.tui.keys import send_key, wait_for, walk_cursor
from tests.tui.play import opened_game
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.game_screen import GameScreen


def pending(screen: GameScreen) -> Decision:
    """The Decision the screen waits on."""
    decision = screen.game.pending
    assert decision is not None
    return decision


async def answer(pilot: Pilot[Any], screen: GameScreen, key: str) -> None:
    """Press ``key`` and wait until it made a choice."""
    made = len(screen.game.choices)
    await send_key(pilot, key)
    await wait_for(pilot, lambda: len(screen.game.choices) > made, f"the choice by {key!r}")


async def test_the_next_model_to_deploy_starts_beside_the_last_one_placed(
    saves_dir: Path,
) -> None:
    # Before: every model's cursor started in the middle of the zone, wherever the
    # player had put the model before (the playtest moved it away for each model).
    game = played_to("killteam-crossroads", "Deployment: place B1")
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.battlefield
        lit = {o.cell for o in pending(screen).options if o.cell is not None}
        corner = Cell(3, 20)
        assert corner in lit
        await walk_cursor(pilot, lambda: field.cursor, corner)
        await answer(pilot, screen, "enter")  # B1 placed at (3,20)
        while not pending(screen).prompt.startswith("Deployment: place B2"):
            await answer(pilot, screen, "1" if "next model" in pending(screen).prompt else "enter")
        await pilot.pause()
        start = field.cursor
        placed = screen.game.view().model("B1")
        assert placed is not None and placed.cell == corner
        assert start in {o.cell for o in pending(screen).options}
        assert abs(start.x - corner.x) <= 1 and abs(start.y - corner.y) <= 1, start
