"""Playing Kill Team through the app by keys: a whole game, undo, hand-over, help, clicks."""

from __future__ import annotations

import io
import random
import time
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import Input, OptionList, Static

from engine.save import load_game
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import choose_by_keys, game_screen, play_to_game_over
from tui.app import WargridApp, make_app
from tui.battlefield import Battlefield
from tui.game_screen import GameScreen
from tui.help import HelpScreen
from tui.log_panel import LogPanel
from tui.menu import MainMenu
from tui.modals import GameOverScreen, HandOverScreen
from tui.new_game import NewGameScreen
from tui.panels import PhasePanel, StatusLine


def shown(widget: Static) -> str:
    """The plain text a Static shows (rendered wide, so nothing wraps)."""
    content = widget.content
    if isinstance(content, Text):
        return content.plain
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(content)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]  # StringIO


def new_app(saves_dir: Path, seed: int = 7) -> WargridApp:
    app = make_app(scenario=CROSSROADS, seed=seed, saves_dir=saves_dir)
    assert isinstance(app, WargridApp)
    return app


@pytest.mark.slow
async def test_whole_game_from_the_menu_to_game_over(saves_dir: Path) -> None:
    """New game from the menu with a fixed seed, every Decision answered by keys."""
    app = make_app(saves_dir=saves_dir)
    rng = random.Random(3)
    async with app.run_test() as pilot:
        assert isinstance(app.screen, MainMenu)
        await press_until(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
        form = app.screen
        assert isinstance(form, NewGameScreen)
        index = [path for path, _, _ in form.scenarios].index(CROSSROADS)
        await wait_for(
            pilot,
            lambda: any(
                ol.highlighted == index for ol in form.query("#scenario-list").results(OptionList)
            ),
            "the demo preselected",
        )
        await press_until(pilot, "tab", lambda: isinstance(app.focused, Input), "the seed field")
        for key in "42":
            await send_key(pilot, key)
        await press_until(pilot, "enter", lambda: isinstance(app.screen, GameScreen))
        screen = game_screen(pilot)
        game = screen.game
        assert (game.seed, game.scenario.name) == (42, "Hold the Crossroads")
        started = time.perf_counter()
        handovers = await play_to_game_over(pilot, rng, hasty=0.6)
        assert handovers == 5
        assert isinstance(app.screen, GameOverScreen)
        print(f"{len(game.choices)} choices by keys in {time.perf_counter() - started:.1f} s")
        outcome = game.outcome
        assert outcome is not None
        over = app.screen
        await wait_for(pilot, lambda: bool(over.query("#gameover-title")), "the result")
        title = shown(over.query_one("#gameover-title", Static))
        assert outcome.reason in title
        winner = "A draw" if outcome.winner is None else f"{game.players[outcome.winner]} ("
        assert title.startswith(winner)
        # Every choice went through the keys into the engine, and the autosave holds them.
        (save,) = saves_dir.glob("*.wargrid")
        assert load_game(save).choices == game.choices
        assert load_game(save).outcome == outcome
        await send_key(pilot, "down")  # past "Look at the battlefield", "Open the replay"
        await send_key(pilot, "down")
        await press_until(pilot, "enter", lambda: isinstance(app.screen, MainMenu))


async def test_decision_and_phase_panels_show_the_pending_decision(saves_dir: Path) -> None:
    app = new_app(saves_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        decision = screen.game.pending
        assert decision is not None
        prompt = shown(screen.query_one("#prompt", Static))
        assert prompt.startswith(decision.prompt)
        phase = shown(screen.query_one(PhasePanel))
        assert f"▶ {screen.game.players[decision.player]}" in phase


async def test_a_pick_cell_decision_is_answered_with_the_cursor(saves_dir: Path) -> None:
    """Deployment: the cursor starts on a lit cell; arrows move it; Enter places the model."""
    app = new_app(saves_dir)
    rng = random.Random(1)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        while True:
            if isinstance(app.screen, HandOverScreen):
                await press_until(pilot, "enter", lambda: app.screen is screen)
            pending = screen.game.pending
            assert pending is not None
            if pending.kind.name == "PICK_CELL":
                break
            await choose_by_keys(pilot, rng)
        field = screen.query_one(Battlefield)
        lit = {o.cell: o for o in pending.options}
        assert field.cursor in lit
        await send_key(pilot, "l")
        target = field.cursor
        assert target in lit
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: "Enter: " + lit[target].label in shown(status))
        before = len(screen.game.choices)
        await press_until(pilot, "enter", lambda: len(screen.game.choices) == before + 1)
        assert screen.game.choices[-1].key == lit[target].key


async def test_a_click_on_a_lit_cell_chooses_it(saves_dir: Path) -> None:
    app = new_app(saves_dir)
    rng = random.Random(1)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        while screen.game.pending is None or screen.game.pending.kind.name != "PICK_CELL":
            if isinstance(app.screen, HandOverScreen):
                await press_until(pilot, "enter", lambda: app.screen is screen)
                continue
            await choose_by_keys(pilot, rng)
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        pending = screen.game.pending
        option = pending.options[-1]
        assert option.cell is not None
        field = screen.query_one(Battlefield)
        row = screen.game.board.height - 1 - option.cell.y
        offset = (
            option.cell.x * field.cell_width - round(field.scroll_x),
            row - round(field.scroll_y),
        )
        before = len(screen.game.choices)
        await pilot.click(Battlefield, offset=offset)
        await wait_for(pilot, lambda: len(screen.game.choices) == before + 1)
        assert screen.game.choices[-1].key == option.key


async def test_undo_takes_back_a_choice_and_explains_a_refusal(saves_dir: Path) -> None:
    app = new_app(saves_dir)
    app_rng = random.Random(2)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        first = screen.game.pending
        await choose_by_keys(pilot, app_rng)
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        assert screen.game.can_undo  # the first answer rolls no dice
        await press_until(pilot, "u", lambda: not screen.game.choices)
        assert screen.game.pending == first
        # Play on until a choice is followed by dice: undo must then refuse and say why.
        while screen.game.can_undo or not screen.game.choices:
            if isinstance(app.screen, HandOverScreen):
                await press_until(pilot, "enter", lambda: app.screen is screen)
                continue
            await choose_by_keys(pilot, app_rng)
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        count = len(screen.game.choices)
        status = screen.query_one(StatusLine)
        await press_until(pilot, "u", lambda: "Cannot undo" in shown(status))
        assert "dice were rolled after that choice" in shown(status)
        assert len(screen.game.choices) == count


async def test_hand_over_screen_when_the_deciding_player_changes(saves_dir: Path) -> None:
    app = new_app(saves_dir)
    rng = random.Random(5)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        while not isinstance(app.screen, HandOverScreen):
            player = screen.game.pending.player if screen.game.pending else None
            await choose_by_keys(pilot, rng)
        handover = app.screen
        assert isinstance(handover, HandOverScreen)
        pending = screen.game.pending
        assert pending is not None and pending.player != player
        await wait_for(pilot, lambda: bool(handover.query("#handover-text")))
        text = shown(handover.query_one("#handover-text", Static))
        assert f"{screen.game.players[pending.player]} (" in text
        assert "take the keyboard" in text
        assert not handover.has_class("-hidden")  # open information: the board shows through
        await press_until(pilot, "o", lambda: app.screen is screen)
        assert not screen.handover
        for _ in range(12):
            await choose_by_keys(pilot, rng)
            assert pilot.app.screen is screen


async def test_help_shows_keys_and_the_rulesets_quick_reference(saves_dir: Path) -> None:
    app = new_app(saves_dir)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        await press_until(
            pilot,
            "question_mark",
            lambda: isinstance(app.screen, HelpScreen) and bool(app.screen.query("#help-text")),
        )
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.source
        assert "| u or Ctrl+Z | undo your last choice" in help_text
        assert "| Esc | cancel" in help_text and "(never undoes)" in help_text
        assert screen.game.ruleset.quick_reference() in help_text
        await press_until(pilot, "escape", lambda: app.screen is screen)


async def test_leaving_and_continuing_resumes_exactly(saves_dir: Path) -> None:
    app = new_app(saves_dir)
    rng = random.Random(4)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = game_screen(pilot)
        for _ in range(6):
            if isinstance(app.screen, HandOverScreen):
                await press_until(pilot, "enter", lambda: app.screen is screen)
            await choose_by_keys(pilot, rng)
        while isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        choices = list(screen.game.choices)
        pending = screen.game.pending
        await press_until(pilot, "q", lambda: isinstance(app.screen, MainMenu))
    # A new session: the menu's Continue opens the same game at the same Decision.
    again = make_app(saves_dir=saves_dir)
    async with again.run_test() as pilot:
        await pilot.pause()
        await press_until(pilot, "c", lambda: isinstance(again.screen, GameScreen | HandOverScreen))
        resumed = game_screen(pilot)
        await wait_for(pilot, lambda: bool(resumed.query(LogPanel)), "the game screen drawn")
        assert resumed.game.choices == choices
        assert resumed.game.pending == pending
