"""Small traps of the new-player playtest (issue #14): deployment's cursor, the model
card while shooting, the fatigue force's wording. Each test presses the keys a player
pressed and reads the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from engine.board import Cell
from engine.decisions import Decision
from engine.game import Game
from tests.tui.keys import send_key, wait_for, walk_cursor
from tests.tui.play import opened_game
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.game_screen import GameScreen
from tui.option_keys import key_for
from tui.panels import ModelPanel


def pending(screen: GameScreen) -> Decision:
    """The Decision the screen waits on."""
    return pending_of(screen.game)


def pending_of(game: Game) -> Decision:
    """The Decision ``game`` waits on."""
    assert game.pending is not None
    return game.pending


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


async def test_the_card_says_shooting_while_the_model_chooses_its_weapons(saves_dir: Path) -> None:
    # Before: the card of a model still choosing its weapons said "has shot".
    game = played_to("killteam-crossroads", "")
    while not pending_of(game).prompt.endswith("fire which weapons?"):
        game.choose_key(next(o.key for o in pending_of(game).options if not o.ends))
    shooter = pending_of(game).subject
    assert shooter is not None
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        card = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: shooter in str(card.content), "the shooter's card")
        assert "shooting" in str(card.content) and "has shot" not in str(card.content)
        await answer(pilot, screen, key_for(pending(screen), "pass"))
        view = screen.game.view().model(shooter)
        assert view is not None and "has shot" in view.states and "shooting" not in view.states
