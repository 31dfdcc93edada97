"""Small traps of the new-player playtest (issue #14): keys that mean one thing in one
question and the opposite in the next. Each test presses the keys a player pressed and
reads the screen, or walks a played game through every question of its kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from engine.game import Game
from engine.save import read_save, write_save
from engine.scenario import load_scenario
from engine.timeline import build_timeline
from tests.replays.make import path_of
from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import opened_game
from tests.tui.test_game import shown
from tests.tui.test_log import plain
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.app import make_app
from tui.log_panel import LogPanel
from tui.new_game import NewGameScreen
from tui.option_keys import option_for_key
from tui.panels import PhasePanel
from tui.replay_text import step_line
from tui.saves import list_saves

SCENARIOS = Path(__file__).parents[2] / "scenarios"


@pytest.mark.parametrize("key", ["1", "enter"])
async def test_key_1_or_enter_on_the_psychic_re_roll_question_spends_nothing(
    saves_dir: Path, key: str
) -> None:
    # Before: "Re-roll the psychic test ...? (Command Re-roll, 1 CP)" listed "1 Yes",
    # while the hit and wound re-roll questions list "1 No re-roll": 1 spent a CP; and Yes
    # was highlighted: Enter spent it too (u14g).
    game = played_to("killteam-crossroads", "Re-roll the psychic test")
    decision = game.pending
    assert decision is not None and "1 CP" in decision.prompt
    player = decision.player
    cp = game.view().sides[player]
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        options = screen.decision_panel.option_list
        assert str(options.get_option_at_index(0).prompt) == "1 No"
        assert str(options.get_option_at_index(1).prompt) == "2 Yes  [re-roll does better 58%]"
        await wait_for(pilot, lambda: options.has_focus, "the list")
        assert options.highlighted == 0
        made = len(screen.game.choices)
        await send_key(pilot, key)
        await wait_for(pilot, lambda: len(screen.game.choices) == made + 1, "the answer")
        assert screen.game.choices[-1].key == "no"
        assert screen.game.view().sides[player] == cp


def test_every_kill_team_question_that_spends_a_cp_has_spend_nothing_on_key_1() -> None:
    # Psychic, deny, charge and Advance re-rolls, hit and wound dice, the specialists'
    # stratagems: seen across three seeds, answered in turn so each kind comes up.
    seen: set[str] = set()
    for seed in (1, 2, 3):
        game = Game(load_scenario(SCENARIOS / "killteam-crossroads.toml"), seed)
        made = 0
        while game.pending is not None and made < 3000:
            decision = game.pending
            if "CP" in decision.prompt:
                first = option_for_key(decision, "1")
                assert first is not None and first.key == "no", decision.prompt
                seen.add(decision.prompt.split("(")[0].split(" of ")[0])
            ordinary = [o for o in decision.options if not o.ends] or list(decision.options)
            game.choose_key(ordinary[made % len(ordinary)].key)
            made += 1
    assert {"Re-roll the psychic test ", "Re-roll the deny roll ", "Command Re-roll "} <= seen
    assert any(s.startswith("Re-roll the Advance roll") for s in seen)


async def test_the_apocalypse_header_says_turn_as_its_log_does(saves_dir: Path) -> None:
    # Before: the header read "Round 1 · Orders" over a log of "Turn 1: Orders phase";
    # the spec's word is Turn (apocalypse §5.3: "Turn 1 begins with the Initiative phase").
    game = played_to("apocalypse-crossing", "Reserves: bring in a unit?")
    assert game.view().round == 1
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        header = shown(screen.query_one(PhasePanel))
        log = screen.query_one(LogPanel)
        await wait_for(pilot, lambda: bool(log.lines), "the log")
        assert header.startswith("Turn 1 · Orders") or header.startswith("T1 · Orders"), header
        assert "Round" not in header
        assert any("Turn 1: Orders phase" in line for line in plain(log))
        assert not any("Round" in line for line in plain(log))


def test_the_apocalypse_replay_rows_say_t1_not_r1() -> None:
    # Before: the replay viewer's step rows read "R1 Orders" over an Apocalypse log of turns.
    timeline = build_timeline(read_save(path_of("apocalypse")))
    first = timeline.round_start(1)
    assert first is not None
    row = step_line(timeline, first + 1).plain
    assert f"{first + 1:>4} T1 " in row, row


async def test_the_wh40k6_header_says_turn_as_its_log_does(saves_dir: Path) -> None:
    # Before: "Round 1 · Movement" over "Turn 1, Iron Wardens: Movement phase" (the spec's
    # game turn).
    game = Game(load_scenario(SCENARIOS / "wh40k6-emperors-will.toml"), 3)
    while game.pending is not None and game.view().round < 1:
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        header = shown(screen.query_one(PhasePanel))
        assert header.startswith(("Turn 1 · Movement", "T1 · Movement")), header
        assert "Round" not in header


def test_the_load_list_says_turn_for_an_apocalypse_save(tmp_path: Path) -> None:
    # Before: "round 1, Orders" for a game whose log and header say Turn 1.
    game = played_to("apocalypse-crossing", "Reserves: bring in a unit?")
    write_save(game, tmp_path / "apoc.wargrid")
    kill_team = played_to("killteam-crossroads", "Re-roll the psychic test")
    write_save(kill_team, tmp_path / "kt.wargrid")
    lines = {entry.path.stem: entry.describe() for entry in list_saves(tmp_path)}
    assert "turn 1, Orders" in lines["apoc"] and "round" not in lines["apoc"], lines["apoc"]
    assert "round 1, " in lines["kt"], lines["kt"]


async def test_the_new_game_screen_counts_apocalypse_turns(saves_dir: Path) -> None:
    # Before: "... · 5 rounds" under an Apocalypse scenario whose spec plays 5 turns.
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await press_until(pilot, "n", lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        await wait_for(pilot, lambda: bool(screen.query("#scenario-about")), "the scenarios")
        listing = screen.query_one("#scenario-list", OptionList)
        about = screen.query_one("#scenario-about", Static)
        apocalypse = next(
            n
            for n, (path, _, _) in enumerate(screen.scenarios)
            if path.stem == "apocalypse-crossing"
        )
        while listing.highlighted != apocalypse:
            await send_key(pilot, "down" if (listing.highlighted or 0) < apocalypse else "up")
        await wait_for(pilot, lambda: "Apocalypse" in shown(about) or "apocalypse" in shown(about))
        assert " · 5 turns" in shown(about) and "rounds" not in shown(about), shown(about)
