"""Keys that never surprise: the traps the 2026-11-25 playtest fell into, pressed as a
player would (digits on a cell picker, a prompt the game answered by itself, options that
end a phase, F1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Static
from textual.widgets._toast import Toast

from engine.board import Cell
from engine.decisions import Decision
from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import send_key, wait_for
from tests.tui.play import game_screen
from tui.app import WargridApp
from tui.confirm import ConfirmScreen
from tui.game_screen import GameScreen
from tui.option_keys import option_for_key


def advanced(name: str, seed: int, until: Callable[[Decision], bool]) -> Game:
    """A game on ``scenarios/name.toml`` whose players took the first option that ends
    nothing, until ``until`` holds for the pending Decision."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed)
    while game.pending is not None and not until(game.pending):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    assert game.pending is not None
    return game


def app_on(game: Game, saves_dir: Path) -> WargridApp:
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(game, handover=False)
    return app


def notice(screen: GameScreen) -> str:
    """The decision panel's notice line, as plain text."""
    return str(screen.decision_panel.notice.content).replace("\n", " ")


def listed(screen: GameScreen) -> list[str]:
    options = screen.decision_panel.option_list
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def walk_to(pilot: Pilot[Any], screen: GameScreen, target: Cell) -> None:
    """Move the board cursor to ``target`` with the arrow keys."""
    while screen.battlefield.cursor != target:
        here = screen.battlefield.cursor
        key = (
            "right"
            if here.x < target.x
            else "left"
            if here.x > target.x
            else "up"
            if here.y < target.y
            else "down"
        )
        await send_key(pilot, key)


async def test_digits_never_pick_a_cell_and_a_refused_enter_says_why(saves_dir: Path) -> None:
    game = advanced("killteam-crossroads", 5, lambda d: d.kind.name == "PICK_CELL")
    decision = game.pending
    assert decision is not None
    lit = {o.cell for o in decision.options}
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: screen.battlefield.has_focus, "the board to take keys")
        unlit = next(
            Cell(x, y) for y in range(game.board.height) for x in (0, 1) if Cell(x, y) not in lit
        )
        await walk_to(pilot, screen, unlit)
        made = len(screen.game.choices)
        await send_key(pilot, "enter")
        # Said next to the prompt, not only in the footer.
        await wait_for(pilot, lambda: "not an option" in notice(screen), "the refusal")
        for digit in "12":
            await send_key(pilot, digit)
            assert len(screen.game.choices) == made  # no model landed on a listed cell
            assert "digits never choose a cell" in notice(screen)
        assert screen.battlefield.cursor == unlit
        assert screen.game.pending is decision
        # The cells are not listed with digits either: nothing on screen says "1 = a cell".
        assert not any(line[:1].isdigit() for line in listed(screen))


async def test_a_prompt_answered_by_itself_says_so_and_1_places_nothing(saves_dir: Path) -> None:
    # Kill Team deployment: the last model of a side is not asked for; its placement is.
    game = advanced("killteam-crossroads", 5, lambda d: bool(d.notes))
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: "Done for you" in notice(screen), "the note")
        assert "B10 Scrapling is the only model left to place." in notice(screen)
        made = len(screen.game.choices)
        await send_key(pilot, "1")  # habit from the "choose the next model" prompt
        assert len(screen.game.choices) == made
        cursor = screen.battlefield.cursor
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the placement")
        placed = screen.game.view().model("B10")
        assert placed is not None and placed.cell == cursor != Cell(0, 0)
        assert "B10" not in notice(screen)  # the note went with its prompt


async def test_ending_a_phase_is_e_last_in_the_list_and_asks_first(saves_dir: Path) -> None:
    # wh40k6 used to list "End the Movement phase" as option 1: pressing 1 skipped phases.
    game = advanced("wh40k6-emperors-will", 5, lambda d: d.prompt == "Which unit moves next?")
    decision = game.pending
    assert decision is not None
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: bool(listed(screen)), "the options")
        lines = listed(screen)
        assert lines[-1] == "e End the Movement phase"
        assert lines[0].startswith("1 Move ")
        made = len(screen.game.choices)
        await send_key(pilot, "e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "a question")
        await send_key(pilot, "n")  # no: back to the same prompt, nothing changed
        await wait_for(pilot, lambda: pilot.app.screen is screen, "the game again")
        assert len(screen.game.choices) == made and screen.game.pending is decision
        await send_key(pilot, "e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "a question")
        await wait_for(pilot, lambda: bool(pilot.app.screen.query("#confirm-text")), "its text")
        box = pilot.app.screen.query_one("#confirm-text", Static)
        assert isinstance(box.content, Text)
        assert " e  again,  y  or Enter: yes" in box.content.plain  # every key that answers
        await send_key(pilot, "e")  # e twice ends it, as the box says
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the phase to end")
        assert screen.game.answered[-1] is decision
        assert screen.game.choices[-1].key == "end"


async def test_1_in_the_movement_phase_moves_a_unit_instead_of_ending_it(
    saves_dir: Path,
) -> None:
    game = advanced("wh40k6-emperors-will", 5, lambda d: d.prompt == "Which unit moves next?")
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        made = len(screen.game.choices)
        await send_key(pilot, "1")
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "a choice")
        assert screen.game.choices[-1].key != "end"
        assert screen.game.view().phase == "Movement"


async def test_f1_opens_help_as_question_mark_does(saves_dir: Path) -> None:
    from tui.help import HelpScreen

    game = advanced("killteam-crossroads", 5, lambda d: True)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, GameScreen), "the game")
        await send_key(pilot, "f1")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "help")


async def test_the_highlighted_option_stays_in_view_in_a_long_list(saves_dir: Path) -> None:
    # Confrontation at 80x24 lists some of its 11 declarations: the rest scroll in.
    game = advanced("confrontation-crossing", 5, lambda d: d.prompt.startswith("Declare the"))
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: options.option_count > 0, "the options")
        options.focus()
        await wait_for(pilot, lambda: options.has_focus, "the list")
        assert options.size.height < len(options._lines)  # too many rows to show at once
        await send_key(pilot, "home")  # the highlight may start on the subject's option
        assert options.highlighted == 0
        for _ in range(options.option_count - 1):
            await send_key(pilot, "down")
            await pilot.pause()
            top = round(options.scroll_y)
            first = options._index_to_line[options.highlighted or 0]  # labels may wrap
            assert top <= first < top + options.size.height
        assert options.highlighted == options.option_count - 1  # "Nothing", last


# A digit typed ahead after a prompt answered by itself: tests/tui/test_playtest_u14g.py.


async def test_a_prompt_answered_for_the_other_side_is_told_and_keys_act_at_once(
    saves_dir: Path,
) -> None:
    # wh40k6: the other side's Assault phase had no charge to declare; this side moves next.
    game = advanced("wh40k6-emperors-will", 1, lambda d: bool(d.told) and not d.notes)
    decision = game.pending
    assert decision is not None and decision.prompt == "Which unit moves next?"
    first = option_for_key(decision, "1")
    assert first is not None
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: "Done for the other side" in notice(screen), "the note")
        assert "No unit can charge: the charges are over." in notice(screen)
        assert "Done for you" not in notice(screen)
        made = len(screen.game.choices)
        await send_key(pilot, "1")
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the choice")
        assert screen.game.choices[-1].key == first.key


async def test_a_save_notice_puts_the_file_name_on_a_line_of_its_own(saves_dir: Path) -> None:
    """Played at 80x24: "Saved to /tmp/pt/open-war-20261127-105115.war" / "grid." broke
    the file's name across the notice's lines."""
    game = Game(load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml"), 3)
    path = saves_dir / "hold-the-crossroads-20261127-115202.wargrid"
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(game, save_path=path, handover=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        await send_key(pilot, "s")
        await wait_for(pilot, lambda: bool(app._notifications), "the notice")
        said = [str(n.message) for n in app._notifications][-1]
        assert said.splitlines() == [f"Saved {path.name}", f"in {saves_dir}"]
        assert path.exists()
        await wait_for(pilot, lambda: bool(app.screen.query(Toast)), "the notice shown")
        toast = app.screen.query_one(Toast)  # as wide as the name's line needs
        await wait_for(pilot, lambda: toast.content_region.width > 0, "the notice laid out")
        assert toast.content_region.width >= len(f"Saved {path.name}")
