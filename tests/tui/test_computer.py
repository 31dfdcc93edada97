"""Playing against the computer in the TUI: the form, thinking, pace, skipping, Continue.

A person here presses the first option's key at each of their Decisions; the computer
answers its own through a worker. Whole games in every ruleset run at the "instant" pace
(the pace itself is tested with "slow", picked on the Settings screen).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from time import monotonic
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import OptionList, Select

from engine.bot.players import make_bot
from engine.game import Game
from engine.save import read_save
from engine.scenario import load_scenario
from tests.tui.keys import new_game_form, press_until, send_key, wait_for
from tests.tui.play import first_key, game_screen, keys_of, opened_game, press_for_choice
from tests.tui.test_engine_bug import RulesBug
from tui.app import WargridApp, make_app
from tui.computer import computer_turn
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen
from tui.settings import PACES, Settings, load_settings, save_settings
from tui.settings_screen import SettingsScreen

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


def prompt_text(screen: GameScreen) -> str:
    return str(screen.query_one(DecisionPanel).prompt.render())


async def play_against_computer(pilot: Pilot[Any], limit: int = 3000) -> GameScreen:
    """The person takes the first option each time; the computer plays its own."""
    app = pilot.app
    await wait_for(pilot, lambda: any(isinstance(s, GameScreen) for s in app.screen_stack))
    screen = game_screen(pilot)
    while not isinstance(app.screen, GameOverScreen):
        game = screen.game
        made = len(game.choices)
        assert made < limit, f"no game over after {limit} choices"

        def answered(n: int = made) -> bool:
            return len(screen.game.choices) > n or isinstance(app.screen, GameOverScreen)

        if computer_turn(game):
            # A move of normal may think for a second; a loaded machine makes it many.
            await wait_for(pilot, answered, "the computer's move", timeout=60)
            continue
        assert game.pending is not None
        await press_for_choice(pilot, first_key(game.pending, keys_of(pilot)), answered)
    return screen


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scenario", "seat", "level"),
    [
        ("killteam-crossroads", 1, "easy"),
        ("wh40k6-open-war", 0, "easy"),
        ("apocalypse-crossing", 1, "easy"),
        ("confrontation-crossing", 0, "easy"),
        ("fatigue-crossroads", 1, "easy"),
        # normal once went round for ever re-placing a wh40k6 unit ("Start again")
        ("wh40k6-open-war", 0, "normal"),
    ],
)
async def test_a_whole_game_against_the_computer(
    scenario: str, seat: int, level: str, saves_dir: Path
) -> None:
    save_settings(saves_dir, Settings(pace="instant"))
    seats = (level, "") if seat == 0 else ("", level)
    app = make_app(
        scenario=SCENARIOS / f"{scenario}.toml", seed=3, saves_dir=saves_dir, computer=seats
    )
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await play_against_computer(pilot)
        game = screen.game
        assert game.outcome is not None
        mine = [d for d in game.answered if d.player == seat]
        assert mine  # the computer made choices of its own
    saved = read_save(next(saves_dir.glob("*.wargrid")))
    assert saved.computer == seats and len(saved.choices) == len(game.choices)


@pytest.mark.slow
def test_normal_plays_a_whole_apocalypse_game_as_the_first_side() -> None:
    """The game the Pilot played against normal at the Apocalypse crossing (seed 3, the
    computer first), played without the screen: the same players (seeded as `Autoplay`
    seeds them) and the same first options for the person, to a result. What the screen
    adds is proven by the Pilot games above: a whole Apocalypse game against the computer
    (easy), and a whole game against normal's slower moves in its worker (wh40k6); the
    screen took three quarters of this game's time."""
    game = Game(load_scenario(SCENARIOS / "apocalypse-crossing.toml"), 3, computer=("normal", ""))
    computer = make_bot("normal", game.seed * 2)
    while (pending := game.pending) is not None:
        assert len(game.choices) < 3000, "no game over after 3000 choices"
        if computer_turn(game):
            game.choose(computer.decide(game))
        else:
            game.choose_key(pending.options[0].key)
    assert game.outcome is not None
    assert any(d.player == 0 for d in game.answered)  # the computer made choices of its own


async def test_the_form_seats_the_computer(saves_dir: Path) -> None:
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(120, 45)) as pilot:
        form = await new_game_form(pilot)
        form.query_one("#seat-2", Select).value = "normal"
        await pilot.pause()
        form.query_one("#scenario-list", OptionList).focus()
        await press_until(pilot, "enter", lambda: isinstance(app.screen, GameScreen))
        game = game_screen(pilot).game
        assert game.computer == ("", "normal")
        assert game.players == ("Player 1", "Computer (normal)")


def computer_pair(saves_dir: Path) -> App[None]:
    """Two easy computers at the fatigue crossroads (seed 2): nobody needs to press a key."""
    return make_app(
        scenario=SCENARIOS / "fatigue-crossroads.toml",
        seed=2,
        saves_dir=saves_dir,
        computer=("easy", "easy"),
    )


async def pick_slow_pace(saves_dir: Path) -> None:
    """From the main menu: s, then the "slow" pace (one below the highlighted normal)."""
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await press_until(pilot, "s", lambda: isinstance(app.screen, SettingsScreen))
        await wait_for(pilot, lambda: "(•) Computer's pace: normal" in screen_words(app))
        await send_key(pilot, "down")
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: "(•) Computer's pace: slow" in screen_words(app))
        await send_key(pilot, "escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), "the menu")


def screen_words(app: App[None]) -> str:
    """Every line of the current screen's option lists."""
    return "\n".join(
        str(menu.get_option_at_index(i).prompt)
        for menu in app.screen.query(OptionList)
        for i in range(menu.option_count)
    )


async def test_the_pace_is_a_setting_kept_for_the_next_run(saves_dir: Path) -> None:
    assert load_settings(saves_dir).pace == "normal"  # a new player's
    await pick_slow_pace(saves_dir)
    assert load_settings(saves_dir).pace == "slow"
    app = make_app(saves_dir=saves_dir)  # the next run shows it picked
    async with app.run_test(size=(80, 24)) as pilot:
        await press_until(pilot, "s", lambda: isinstance(app.screen, SettingsScreen))
        await wait_for(pilot, lambda: "(•) Computer's pace: slow" in screen_words(app))
        assert "( ) Computer's pace: normal" in screen_words(app)


async def test_the_computer_waits_its_pace_and_f_skips_ahead(saves_dir: Path) -> None:
    """Computer against computer at the slow pace picked on the Settings screen: each
    move comes at least 2 s after the one before; F plays on without pauses (at the
    slow pace, 20 moves would take 40 s: the wait gives up after 10)."""
    await pick_slow_pace(saves_dir)
    app = computer_pair(saves_dir)
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await opened_game(pilot)
        made: list[float] = []
        screen.game.listeners.append(lambda _: made.append(monotonic()))
        await wait_for(pilot, lambda: len(screen.game.choices) >= 1, "the first move")
        assert "is thinking… (F: skip ahead)" in prompt_text(screen)
        await send_key(pilot, "question_mark")  # the screen still answers keys
        await wait_for(pilot, lambda: app.screen is not screen, "the help")
        await send_key(pilot, "escape")
        await wait_for(pilot, lambda: app.screen is screen, "back to the game")
        await wait_for(pilot, lambda: len(made) >= 2, "two more moves")
        assert made[1] - made[0] >= PACES["slow"]
        await send_key(pilot, "F")
        await wait_for(pilot, lambda: len(screen.game.choices) > 20, "moves without pause")


async def test_a_person_cannot_answer_for_the_computer(saves_dir: Path) -> None:
    save_settings(saves_dir, Settings(pace="slow"))
    app = computer_pair(saves_dir)
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await opened_game(pilot)
        await wait_for(pilot, lambda: len(screen.game.choices) == 1, "the first move")
        await send_key(pilot, "1")
        await send_key(pilot, "enter")
        await pilot.pause(0.05)
        assert len(screen.game.choices) == 1


def killteam_against(saves_dir: Path, level: str) -> App[None]:
    """A person (first side) against the computer at the Kill Team crossroads (seed 5)."""
    return make_app(
        scenario=SCENARIOS / "killteam-crossroads.toml",
        seed=5,
        saves_dir=saves_dir,
        computer=("", level),
    )


async def test_continue_lets_the_computer_play_on(saves_dir: Path) -> None:
    save_settings(saves_dir, Settings(pace="instant"))
    app = killteam_against(saves_dir, "normal")
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await opened_game(pilot)
        for _ in range(6):
            game = screen.game
            made = len(game.choices)

            def moved(n: int = made, on: GameScreen = screen) -> bool:
                return len(on.game.choices) > n

            if computer_turn(game):
                await wait_for(pilot, moved, "the computer's move")
            else:
                assert game.pending is not None
                await press_for_choice(pilot, first_key(game.pending, keys_of(pilot)), moved)
        made = len(screen.game.choices)
    path = next(saves_dir.glob("*.wargrid"))
    assert read_save(path).computer == ("", "normal")
    again = make_app(load=path, saves_dir=saves_dir)
    async with again.run_test(size=(120, 45)) as pilot:
        screen = await opened_game(pilot)
        assert screen.game.computer == ("", "normal") and len(screen.game.choices) >= made
        # the computer plays on until the person must decide
        await wait_for(
            pilot, lambda: not computer_turn(screen.game), "the person's turn", timeout=60.0
        )
        assert screen.game.pending is not None and screen.game.pending.player == 0


async def test_a_computer_move_that_hits_a_rules_bug_gives_way_to_another(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that fails on the computer's move (on the screen's thread: not in the
    computer's look-ahead) is reported, and the computer plays another option."""
    save_settings(saves_dir, Settings(pace="instant"))
    bug = RulesBug(monkeypatch, main_thread=True)
    app = killteam_against(saves_dir, "easy")
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await opened_game(pilot)
        game = screen.game
        assert game.pending is not None and game.pending.player == 0
        await press_for_choice(
            pilot, first_key(game.pending, keys_of(pilot)), lambda: len(game.choices) == 1
        )
        asked = game.pending
        assert asked is not None and asked.player == 1
        bug.armed = True
        await wait_for(pilot, lambda: len(game.choices) > 1, "the computer's move")
        assert not bug.armed  # its first pick hit the bug
        (report,) = (saves_dir / "bugs").glob("*.toml")
        failed = tomllib.loads(report.read_text())["choices"]
        taken = game.choices[1]
        assert taken.decision_id == asked.id and [taken.key] != failed


@pytest.mark.slow
async def test_a_prompt_answered_for_the_person_while_the_computer_plays_is_shown(
    saves_dir: Path,
) -> None:
    """Played at 80x24 against the computer: ending the shooting phase ended the assault
    phase too ("No unit can charge"), but the note went to the computer's Decision and the
    person never saw why their turn was over. It waits for their next Decision."""
    save_settings(saves_dir, Settings(pace="instant"))
    scenario = load_scenario(SCENARIOS / "wh40k6-open-war.toml")
    game = Game(scenario, 5, computer=("", "easy"))
    bot = make_bot("easy", 5 + 7919)
    while True:  # the person takes the first option; stop at the choice before the note
        pending = game.pending
        assert pending is not None
        if pending.player == 1:
            game.choose(bot.decide(game))
            continue
        trial = game.replayed(game.choices)
        trial.choose_key(pending.options[0].key)
        if trial.pending is not None and trial.pending.told:
            break
        game.choose_key(pending.options[0].key)
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(game, handover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        made = len(game.choices)
        await press_for_choice(
            pilot, first_key(pending, keys_of(pilot)), lambda: len(screen.game.choices) > made
        )
        await wait_for(pilot, lambda: not computer_turn(screen.game), "the person's turn",
                       timeout=60.0)  # fmt: skip
        notice = str(screen.decision_panel.notice.content).replace("\n", " ")
        # Said as earlier: such notes had stayed into later turns as if done just now.
        assert notice.startswith("Earlier, done for you: No unit can charge")
