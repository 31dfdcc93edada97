"""What a new player met playing against the computer at 80x24 (issue 20's playtest)."""

from __future__ import annotations

import itertools
from pathlib import Path
from time import monotonic

import pytest
from textual.app import App
from textual.widgets import OptionList

from engine.board import Cell
from engine.bot.players import RandomPlayer
from engine.game import Game
from engine.scenario import load_scenario
from tests.replays.make import path_of
from tests.tui.keys import send_key, wait_for
from tests.tui.play import first_key, game_screen, keys_of, opened_game, press_for_choice
from tests.tui.test_computer import SCENARIOS, computer_pair
from tests.tui.test_input import app_on, notice
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.computer import computer_turn
from tui.decision_panel import DecisionPanel
from tui.modals import GameOverScreen
from tui.settings import PACES, Settings, save_settings


async def test_f_skips_the_computers_pauses_and_other_keys_say_it_decides(
    saves_dir: Path,
) -> None:
    """The panel reads "(F: skip ahead)"; the unshifted f answered "f picks nothing here:
    the options' keys are 1, 2, 3, 4 or 5" (the computer's hidden list) and skipped
    nothing. At the slow pace (2 s a move), 20 moves in the wait's 10 s need the skip."""
    save_settings(saves_dir, Settings(pace="slow"))
    app = computer_pair(saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.query_one(DecisionPanel)
        await wait_for(pilot, lambda: len(screen.game.choices) >= 1, "the first move")
        await send_key(pilot, "x")
        assert panel.refused == "The computer is deciding: wait, or press F to skip its pauses."
        await send_key(pilot, "f")
        assert "picks nothing" not in panel.refused
        await wait_for(pilot, lambda: len(screen.game.choices) > 20, "moves without pause")


def in_view(field: Battlefield, cell: Cell) -> bool:
    """Whether ``cell`` is drawn inside the battlefield's scrolled window."""
    x = cell.x // field.across * field.cell_width
    y = (field.board.height - 1 - cell.y) // field.down * field.cell_height
    left, top = field.scroll_offset
    return left <= x < left + field.size.width and top <= y < top + field.size.height


def wardens_against_easy(saves_dir: Path, pace: str = "fast") -> App[None]:
    """wh40k6 Open War, seed 11: the person plays the Wardens, easy the Horde, at the fast
    pace unless told (the Horde deploys and moves across a table wider than 80x24 shows)."""
    save_settings(saves_dir, Settings(pace=pace))
    return make_app(
        scenario=SCENARIOS / "wh40k6-open-war.toml",
        seed=11,
        saves_dir=saves_dir,
        computer=("", "easy"),
    )


@pytest.mark.slow
async def test_the_board_shows_where_the_computer_moves(saves_dir: Path) -> None:
    """At 80x24 a 72x48 wh40k6 table shows 39x21 cells: the Horde deployed, moved, ran
    and shot out of sight, the view staying on the person's cursor. Each move of the
    computer's that another follows is now shown where it happens (before, the second
    of them, the Horde deploying at (29,34), was out of view)."""
    app = wardens_against_easy(saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        checked = 0  # the computer's moves to a cell, each followed by another of its own
        while checked < 6:
            game = screen.game
            made = len(game.choices)
            assert made < 200, "the computer never moved on the board"

            def moved(n: int = made) -> bool:
                return len(screen.game.choices) > n

            if not computer_turn(game):
                assert game.pending is not None
                await press_for_choice(pilot, first_key(game.pending, keys_of(pilot)), moved)
                continue
            asked = game.pending
            assert asked is not None
            await wait_for(pilot, moved, "the computer's move", timeout=60)
            option = asked.option(screen.game.choices[made].key)
            if option is None or option.cell is None or not computer_turn(screen.game):
                continue
            assert in_view(field, option.cell), f"the computer's move to {option.cell} is unseen"
            checked += 1


def after_the_computers_moves(name: str, seed: int) -> Game:
    """A person (first side) against the computer, both played by a seeded random bot,
    at the person's first Decision whose undo takes back the computer's moves too (no
    dice rolled since the person's own last choice)."""
    game = Game(load_scenario(SCENARIOS / f"{name}.toml"), seed, computer=("", "easy"))
    bot = RandomPlayer(1)
    while game.pending is not None:
        if game.pending.player == 0 and game.can_undo and game.answered[-1:]:
            back = game.undone()
            while computer_turn(back) and back.can_undo:
                back = back.undone()
            if game.answered[-1].player == 1 and not computer_turn(back):
                return game
        game.choose(bot.decide(game))
    raise AssertionError("no such moment")


async def test_undo_says_it_took_back_the_computers_moves_too(saves_dir: Path) -> None:
    """Confrontation at 80x24: u took back the Bogfen Slingers' run along with the
    person's last choice, and the slingers went back with nothing said."""
    game = after_the_computers_moves("confrontation-crossing", 4)
    made = len(game.choices)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: screen.decision_panel.option_list.option_count > 0)
        await send_key(pilot, "u")
        await wait_for(pilot, lambda: len(screen.game.choices) < made, "the undo")
        theirs = made - len(screen.game.choices) - 1
        assert theirs >= 1 and not computer_turn(screen.game)
        moves = "1 move" if theirs == 1 else f"{theirs} moves"
        expected = f"Undone: your last choice and the computer's {moves} after it."
        assert expected in notice(screen)


async def test_a_weapons_odds_name_their_target_in_plain_words(saves_dir: Path) -> None:
    """Kill Team at 80x24, a gunner with one weapon of one profile: under the list the
    odds read "Odds for at B3 Reaver Brute (Combat). Support cannon: 36" Heavy 3...\""""
    game = played_to("killteam-crossroads", "A2 Militia Gunner (Heavy): fire which weapons?")
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        detail = screen.decision_panel.detail

        def said() -> str:
            return str(detail.content).replace("\n", " ")

        await wait_for(pilot, lambda: "Support cannon" in said(), "the weapon's detail")
        assert "Odds at B2 Reaver Gunner (Heavy). Support cannon" in said()


async def test_the_game_over_box_shows_every_next_step_at_80x24(saves_dir: Path) -> None:
    """Kill Team's result at 80x24 (against the computer, "Ashen Reavers win on VP, 4 to
    3"): the summary and its luck lines pushed "Main menu" and "Quit" below the box, and
    Down highlighted rows nobody could see."""
    finished = saves_dir / "done.wargrid"
    finished.write_bytes(path_of("killteam").read_bytes())
    app = make_app(load=finished, saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), "game over")
        await pilot.pause()
        box = app.screen.query_one("#gameover-box")
        choices = app.screen.query_one("#gameover-choices", OptionList)
        assert choices.option_count == 4
        assert box.content_region.contains_region(choices.region)


@pytest.mark.slow
async def test_after_the_computers_moves_the_persons_cursor_is_in_view(saves_dir: Path) -> None:
    """The view follows the computer's moves; the person's next Decision brought it back
    to their cursor only where that Decision moved the cursor to a cell, so after the
    Horde's deployment "Which unit do you deploy next?" left the cursor off screen.
    The view follows each move as it is played (`GameScreen._play_computer`), whatever
    the pace, so the moves come at once: at the fast pace the test waited 0.3 s for each
    of them."""
    app = wardens_against_easy(saves_dir, pace="instant")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        back = 0  # the person's Decisions right after a computer move
        while back < 6:
            game = screen.game
            made = len(game.choices)
            assert made < 200, "the computer never moved before the person's turn"

            def moved(n: int = made) -> bool:
                return len(screen.game.choices) > n

            if computer_turn(game):
                await wait_for(pilot, moved, "the computer's move", timeout=60)
                continue
            assert game.pending is not None
            if game.answered and game.answered[-1].player != game.pending.player:
                await pilot.pause()
                assert in_view(field, field.cursor), f"the cursor {field.cursor} is unseen"
                back += 1
            await press_for_choice(pilot, first_key(game.pending, keys_of(pilot)), moved)


async def test_f_skips_one_stretch_of_the_computers_moves_not_the_game(saves_dir: Path) -> None:
    """Played at 200x60 (wh40k6 against normal): one F in the Horde's turn 1 played every
    later Horde turn without its pace, whole turns gone within a second. F now skips until
    the person must decide; the computer's moves after that come at the pace again."""
    app = wardens_against_easy(saves_dir)  # the fast pace: 0.3 s a move
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await opened_game(pilot)
        skipped = False
        stamps: list[float] = []  # the computer's moves in a row, after the skip
        while len(stamps) < 3:
            game = screen.game
            made = len(game.choices)
            assert made < 300, "the computer never made three moves in a row after the skip"

            def moved(n: int = made) -> bool:
                return len(screen.game.choices) > n

            if not computer_turn(game):
                stamps.clear()
                assert game.pending is not None
                await press_for_choice(pilot, first_key(game.pending, keys_of(pilot)), moved)
            elif not skipped:
                await send_key(pilot, "F")
                skipped = True
                await wait_for(pilot, lambda: not computer_turn(screen.game), "a person's turn")
            else:
                await wait_for(pilot, moved, "the computer's move", timeout=60)
                stamps.append(monotonic())
        gaps = [later - earlier for earlier, later in itertools.pairwise(stamps)]
        assert min(gaps) >= PACES["fast"] * 0.6, gaps  # skipped, they came at once
