"""Traps found playing wh40k6 and Apocalypse in tmux as a new player would (issue #14):
each test presses the keys that showed the problem and reads the screen."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.keys import reached, send_key, wait_for
from tests.tui.play import opened_game
from tui.app import WargridApp, make_app
from tui.decision_panel import DecisionPanel
from tui.panels import ModelPanel, StatusLine

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def shown(panel: DecisionPanel) -> str:
    """The prompt and the listed options as the player reads them."""
    rows = [str(option.prompt) for option in panel.option_list.options]
    return " | ".join([str(panel.prompt.content), *rows])


async def test_the_roster_builder_counts_one_unit_and_one_detachment_in_the_singular(
    tmp_path: Path,
) -> None:
    """Played: "Roster: 1 detachments", "Finish the army (1 detachments)"."""
    app = make_app(scenario=SCENARIOS / "apocalypse-crossing.toml", seed=5, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        for key, after in (("2", "Legion Detachment 1 (empty)"), ("1", "Close")):
            count = len(screen.game.choices)
            await send_key(pilot, key)
            await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1))
            await wait_for(pilot, lambda a=after: a in shown(panel), after)  # type: ignore[misc]
        assert "(1 unit, 20 pts)" in shown(panel)
        row = next(str(r.prompt) for r in panel.option_list.options if "Close" in str(r.prompt))
        count = len(screen.game.choices)
        await send_key(pilot, row[0])  # the row starts with its key
        await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1))
        await wait_for(pilot, lambda: "Roster: 1 detachment," in shown(panel), "the roster")
        assert "Finish the army (1 detachment)" in shown(panel)
        assert "detachments" not in shown(panel)


def wh40k6_at(prompt: str) -> Game:
    """wh40k6 Open War played by the engine (first ordinary options) up to ``prompt``."""
    game = Game(load_scenario(SCENARIOS / "wh40k6-open-war.toml"), 7)
    while game.pending is not None and not game.pending.prompt.startswith(prompt):
        game.choose_key(next(o.key for o in game.pending.options if not o.ends))
    return game


async def test_a_model_card_cut_in_a_small_terminal_is_shown_whole_when_it_grows(
    saves_dir: Path,
) -> None:
    """Played: at 80x24 the Mob Boss card showed two lines and "… more"; resized to
    200x60 it still did (no weapon), until another model was selected."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(wh40k6_at("Deploy A1.1"), handover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "A1.1 Warden Lexicar" in str(panel.render()), "the card")
        assert "… more: press I" in str(panel.render())
        assert "Power blade" not in str(panel.render())
        await pilot.resize_terminal(200, 60)
        await wait_for(pilot, lambda: "Power blade" in str(panel.render()), "the weapons")
        card = str(panel.render())
        assert "A1.1 Warden Lexicar" in card and "• Krak grenades" in card


async def test_the_status_line_says_what_enter_picks_without_naming_the_model_twice(
    saves_dir: Path,
) -> None:
    """Played at 80x24: "(45,12) open ground · A5.1 Warden Outrider · Enter: A5.1 Warden
    Outrider to (45,12): the unit st" - the model named twice, the end cut unmarked."""
    app = WargridApp(saves_dir=saves_dir)
    app.open_game(wh40k6_at("Scout Warden Outriders"), handover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        status = screen.query_one(StatusLine)
        await wait_for(pilot, lambda: str(status.render()).endswith("…"), "the status line")
        line = str(status.render())
        assert line.count("A5.1 Warden Outrider") == 1 and len(line) == 78
        assert line.startswith("(11,0) open ground · Enter: A5.1 Warden Outrider to (11,0)")
        await send_key(pilot, "l")  # off the model: a cell it may move to
        await wait_for(pilot, lambda: str(status.render()).startswith("(12,0)"), "the move")
        assert len(str(status.render())) <= 80
