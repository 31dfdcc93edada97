"""What a new player's playtest found in the option keys and in Confrontation: each test
presses the keys the player pressed and reads the screen.

Option keys (`tui.option_keys`): "Nothing" and "Stop" answer to 0 in every list, another
fighter's list is dealt from 1, and a list asked again straight away has no gaps.
Confrontation: the note about the last charge named the wrong thing, a shot into a melee
did not say it may hit the shooter's own fighter, and a run's cursor started beside the
runner.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.bot import RandomBot
from engine.decisions import Decision
from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import app_at, at_the_table, keys_of
from tests.tui.test_input import advanced, app_on, notice
from tests.tui.test_option_room import prompt_of
from tests.tui.test_playtest_u14d import log_text
from tui.decision_panel import DecisionPanel
from tui.game_screen import GameScreen
from tui.option_keys import DEALT

SIZE = (120, 45)


def taken(screen: GameScreen) -> Callable[[], bool]:
    """True once a choice more than now is made."""
    made = len(screen.game.choices)
    return lambda: len(screen.game.choices) > made


def rows_of(lines: list[str]) -> list[str]:
    """The key of each listed row ("1", "0", "e")."""
    return [line.split(" ", 1)[0] for line in lines]


def listed(panel: DecisionPanel) -> list[str]:
    """The option rows as the list shows them, each whole (key, label, odds)."""
    options = panel.option_list
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def is_declaration(decision: Decision) -> bool:
    return decision.prompt.startswith("Declare the action of")


async def test_nothing_is_0_for_every_fighter_and_each_list_starts_at_1(
    saves_dir: Path,
) -> None:
    """Two fighters' declarations: "Nothing" had moved from key 2 to key 4 between them,
    so a player pressing 2 again committed a charge; the second list kept the first's
    keys (the names differ only by their numbers: "B2.2", "B2.3")."""
    game = advanced(
        "confrontation-crossing",
        2,
        lambda d: is_declaration(d) and len(d.options) >= 3,
    )
    async with app_on(game, saves_dir).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        panel = screen.decision_panel
        first = screen.game.pending
        assert first is not None
        await wait_for(pilot, lambda: panel.option_list.option_count > 0, "the list")
        lines = listed(panel)
        keys = rows_of(lines)
        assert keys[0] == "1" and keys[-1] == "0" and "0 Nothing" in lines[-1]
        assert keys[:-1] == list(DEALT[: len(keys) - 1])  # no gaps
        made = len(screen.game.choices)
        await press_until(pilot, "0", lambda: len(screen.game.choices) > made, "Nothing")
        assert screen.game.choices[-1].key == "nothing"
        await wait_for(pilot, lambda: screen.game.pending is not first, "the next question")
        # Every fighter's declaration after it lists its options from 1, Nothing on 0.
        while (pending := screen.game.pending) is not None and is_declaration(pending):
            await wait_for(pilot, lambda: panel.decision is pending, "the list")
            lines = listed(panel)
            keys = rows_of(lines)
            assert keys[:-1] == list(DEALT[: len(keys) - 1]), lines
            assert keys[-1] == "0" and "Nothing" in lines[-1]
            await press_until(pilot, "0", taken(screen))


async def test_re_roll_is_1_and_stop_is_0_whoever_is_ahead(saves_dir: Path) -> None:
    """The Tactical roll listed "1 Stop (already successful) / 2 Re-roll", the attack
    test "1 Re-roll / 2 Stop": a player who learnt one pressed the other."""
    game = advanced(
        "confrontation-crossing",
        2,
        lambda d: any(o.label == "Stop (already successful)" for o in d.options),
    )
    async with app_on(game, saves_dir).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: panel.option_list.option_count > 0, "the list")
        lines = listed(panel)
        assert lines[0].startswith("1 Re-roll and add")
        assert lines[1].startswith("0 Stop (already successful)")
        assert panel.option_list.highlighted == 1  # Enter still stops when already ahead
        made = len(screen.game.choices)
        await press_until(pilot, "1", lambda: len(screen.game.choices) > made, "the re-roll")
        assert screen.game.choices[-1].key == "yes"


async def test_holding_units_one_by_one_lists_them_from_1(saves_dir: Path) -> None:
    """wh40k6 "Hold a unit in reserve?": once a unit was held, the list read "1, 3, 4 ..."
    ("1 picks nothing here" for the next press of habit)."""
    game = advanced("wh40k6-open-war", 4, lambda d: d.prompt == "Hold a unit in reserve?")
    async with app_on(game, saves_dir).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        panel = screen.decision_panel
        first = screen.game.pending
        await wait_for(pilot, lambda: panel.option_list.option_count > 0, "the list")
        before = rows_of(listed(panel))
        assert before[:4] == ["1", "2", "3", "4"]
        made = len(screen.game.choices)
        await press_until(pilot, "2", lambda: len(screen.game.choices) > made, "a unit held")
        again = screen.game.pending
        assert first is not None and again is not None and again is not first
        assert again.prompt == first.prompt
        await wait_for(pilot, lambda: panel.decision is again, "the list again")
        after = rows_of(listed(panel))
        assert after == list(DEALT[: len(after)]), listed(panel)


def played(name: str, seed: int, until: Callable[[Decision], bool]) -> Game:
    """A game of two random players on ``scenarios/name.toml`` until ``until`` holds."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed)
    bot = RandomBot(seed)
    while game.pending is not None and not until(game.pending):
        game.choose(bot.choose(game.pending))
    assert game.pending is not None
    return game


def about_another(decision: Decision) -> bool:
    """A card's fighter is asked what it does, under a note that names another fighter
    as the last of something."""
    if not decision.prompt.startswith("What does"):
        return False
    for note in decision.notes:
        if " the last " in note:
            named = note.split(" is the last")[0].split("'s charge")[0]
            if named not in decision.prompt:
                return True
    return False


async def test_the_last_charge_is_not_called_the_last_fighter_of_the_card(
    saves_dir: Path,
) -> None:
    """ "Done for you: Bogfen Cutthroat B2.1 is the last fighter of the card: it goes
    now" over "What does Bogfen Cutthroat B2.2 do?": B2.1 was the last charge, and B2.2
    (common actions) was still to act."""
    game = played("confrontation-crossing", 2, about_another)
    async with app_on(game, saves_dir).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        await wait_for(pilot, lambda: "Done for you" in notice(screen), "the note")
        said = notice(screen)
        assert "charge is the last of the card: it is resolved now" in said, said
        assert "last fighter of the card" not in said


MELEE = """scenario = "confrontation-crossing.toml"
round = 1
phase = "Activation"
next_player = 1

[confrontation]
tactical_winner = 1

[[confrontation.fighters]]
player = 1
profile = "crossbowman"
cell = [2, 2]
facing = "N"

[[confrontation.fighters]]
player = 1
profile = "spearman"
cell = [3, 11]

[[confrontation.fighters]]
player = 2
profile = "cutthroat"
cell = [2, 11]
"""
"""X10: the crossbowman A1 shoots at B1, in contact with his spearman A2."""


async def answer(pilot: Pilot[Any], screen: GameScreen, label: str) -> None:
    """Press the key the list shows for the option labelled ``label`` (its start)."""
    game = screen.game
    pending = game.pending
    assert pending is not None
    option = next(o for o in pending.options if o.label.startswith(label))
    key = keys_of(pilot).key_for(pending, option.key)
    made = len(game.choices)
    await press_until(pilot, key, lambda: len(game.choices) > made, label)


async def test_a_shot_into_a_melee_says_it_may_hit_your_own_fighter(tmp_path: Path) -> None:
    """The target's row and detail say a hit may be the spearman's (T6: 1-3), and the
    log's distribution roll says what it needed and what it meant."""
    async with app_at(tmp_path, MELEE, seed=2).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        panel = screen.decision_panel
        await answer(pilot, screen, "Order of the Lantern")  # takes the first turn
        await answer(pilot, screen, "Common actions")
        await answer(pilot, screen, "Shoot")
        await wait_for(pilot, lambda: "choose a target" in prompt_of(screen), "the targets")
        assert any("in melee: 1-3 hits yours" in line for line in listed(panel))
        detail = str(panel.detail.render())
        assert "In contact with your Lantern Spearman A2" in detail
        assert "hits your own fighter 25%" in detail
        await answer(pilot, screen, "Bogfen Cutthroat B1")
        await wait_for(pilot, lambda: "distribution roll" in log_text(screen), "the roll")
        text = log_text(screen)
        assert "distribution roll: 2 vs 4+ (1-3 hits your own fighter)" in text, text
        assert "Lantern Spearman A2 is hit instead" in text


async def test_a_run_starts_the_cursor_on_the_runner(tmp_path: Path) -> None:
    """A walk's cursor started on the fighter, a run's on a cell beside it (the runner
    may not stay): both start on the fighter now."""
    async with app_at(tmp_path, MELEE, seed=2).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        await answer(pilot, screen, "Order of the Lantern")
        await answer(pilot, screen, "Common actions")
        await answer(pilot, screen, "Run")
        pending = screen.game.pending
        assert pending is not None and pending.prompt.startswith("Run: where does")
        await wait_for(pilot, lambda: screen.decision_panel.decision is pending, "the run")
        runner = screen.game.view().model(pending.subject or "")
        assert runner is not None and runner.cell is not None
        assert screen.battlefield.cursor == runner.cell
        assert all(o.cell != runner.cell for o in pending.options)  # it may not stay
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: "is not an option" in notice(screen), "why not")
        assert "Lantern Crossbowman A1 may not stay where it is" in notice(screen)


DOING_NOTHING = [
    ("killteam-crossroads", "Pass (do not shoot)"),
    ("wh40k6-open-war", "Do nothing"),
    ("apocalypse-crossing", "Hold fire"),
    ("fatigue-crossroads", "No re-roll"),
]
"""(scenario, option): an option that does nothing, listed after a varying number."""


@pytest.mark.parametrize(("name", "label"), DOING_NOTHING)
async def test_doing_nothing_is_0_in_every_ruleset(saves_dir: Path, name: str, label: str) -> None:
    """The rule holds beyond Confrontation: "Pass", "No re-roll", "Do nothing", "Hold
    fire" are the last row, on 0 (Kill Team's "No re-roll", always first before re-rolls
    that spend a command point, stays on 1: tests/tui/test_playtest_u14j.py)."""
    game = advanced(name, 1, lambda d: any(o.label == label for o in d.options))
    async with app_on(game, saves_dir).run_test(size=SIZE) as pilot:
        screen = await at_the_table(pilot)
        panel = screen.decision_panel
        await wait_for(pilot, lambda: panel.option_list.option_count > 0, "the list")
        rows = listed(panel)
        assert rows[-1].startswith(f"0 {label}"), rows
        pending = screen.game.pending
        assert pending is not None
        chosen = next(o.key for o in pending.options if o.label == label)
        await press_until(pilot, "0", taken(screen), label)
        assert screen.game.choices[-1].key == chosen
