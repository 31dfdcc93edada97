"""Traps from the tmux playtest of Confrontation and the screens around a game (issue 14),
each pressed as a new player would."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from engine.decisions import Decision, DecisionKind
from engine.game import Game
from engine.save import write_save
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import mounted, press_until, send_key, wait_for
from tests.tui.play import game_screen
from tests.tui.test_input import advanced, app_on, listed, walk_to
from tests.tui.test_layout import screen_lines
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.menu import MainMenu
from tui.modals import HandOverScreen
from tui.new_game import SavesScreen
from tui.panels import PhasePanel
from tui.placement import start_cell
from tui.replay_screen import ReplayScreen
from tui.saves import new_save_path


async def listing(pilot: Pilot[Any]) -> GameScreen:
    """The game screen past a hand-over screen, its option list filled."""
    screen = game_screen(pilot)
    if pilot.app.screen is not screen:  # a hand-over screen first
        await press_until(pilot, "enter", lambda: pilot.app.screen is screen, "the game")
    options = screen.decision_panel.option_list
    await wait_for(pilot, lambda: options.option_count > 0, "the options")
    return screen


async def test_a_deployment_zone_is_not_listed_cell_by_cell(saves_dir: Path) -> None:
    # Before: "cell (0,0)", "cell (1,0)", ... filled the list at 80x24, nowhere near the
    # cursor. One row stands for the cell under the cursor; browsing it moves nothing.
    game = advanced("confrontation-crossing", 7, lambda d: d.prompt.startswith("Deployment: place"))
    decision = game.pending
    assert decision is not None
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = game_screen(pilot)
        options = screen.decision_panel.option_list
        await wait_for(pilot, lambda: options.option_count > 0, "the options")
        assert listed(screen) == [f"  + cell at the cursor (1 of {len(decision.options):,})"]
        start = screen.battlefield.cursor
        await press_until(pilot, "tab", lambda: options.has_focus, "the list")
        await send_key(pilot, "down")
        await send_key(pilot, "up")
        assert screen.battlefield.cursor == start


async def test_the_log_moved_under_the_map_keeps_its_id(saves_dir: Path) -> None:
    # At 200x60 Confrontation's 36x36 map leaves room under it, and the log moves there as
    # a new panel; it lost id="log", so "#log" found nothing.
    game = advanced("confrontation-crossing", 7, lambda d: d.prompt.startswith("Deployment: place"))
    async with app_on(game, saves_dir).run_test(size=(200, 60)) as pilot:
        screen = game_screen(pilot)
        await wait_for(pilot, lambda: bool(screen.query("#game-left LogPanel")), "the move")
        log = screen.query_one("#log", LogPanel)
        assert log.parent is not None and log.parent.id == "game-left"
        assert len(screen.query(LogPanel)) == 1
        for size, column in (((80, 24), "game-right"), ((200, 60), "game-left")):
            await pilot.resize_terminal(*size)
            await wait_for(pilot, lambda s=size: pilot.app.size == s, "the new size")  # type: ignore[misc]
            await pilot.pause()
            logs = screen.query(LogPanel)
            assert len(logs) == 1 and logs.first().id == "log"
            assert getattr(logs.first().parent, "id", "") == column


def drawn(widget: Widget) -> list[str]:
    """The widget's rows as drawn."""
    strips = widget.render_lines(widget.region.reset_offset)
    return ["".join(seg.text for seg in strip).rstrip() for strip in strips]


async def test_the_menus_last_game_says_where_it_stands_in_whole_words(saves_dir: Path) -> None:
    # Before: "Last game:" over "skirmish-at-the-crossing-20261126-235653.wargr" and "id".
    game = Game(load_scenario(ROOT / "scenarios" / "confrontation-crossing.toml"), 5)
    write_save(game, new_save_path(saves_dir, game.scenario.name))
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        note = app.screen.query_one("#menu-note", Static)
        await wait_for(pilot, lambda: "Last game" in str(note.render()), "the last game")
        await pilot.pause()
        source = str(note.render())
        rows = drawn(note)
        assert " ".join(" ".join(rows).split()) == " ".join(source.split())
        assert "Skirmish at the Crossing (Confrontation 3" in source
        assert "Player 1's turn (Order of the Lantern)" in source
        assert "last played" in source


async def test_a_charge_out_of_reach_says_it_fails_once(saves_dir: Path) -> None:
    # Before: "Charge Grish the Sly B1 (out of reach: will fail)  [charge succeeds 0%]".
    def declaring(d: Decision) -> bool:
        far = any(o.odds is not None and o.odds.chances[0][1] == 0 for o in d.options)
        return d.prompt.startswith("Declare the action") and far

    game = advanced("confrontation-crossing", 3, declaring)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await listing(pilot)
        rows = listed(screen)
        failing = [row for row in rows if "charge succeeds 0%" in row]
        assert failing and all(
            row.endswith("(out of reach)  [charge succeeds 0%]") for row in failing
        )
        assert not any("will fail" in row for row in rows)


async def test_the_legend_shows_models_as_one_character_cells_draw_them(saves_dir: Path) -> None:
    # At 80x24 Confrontation's cells are one character: the map shows "A", the legend
    # said "A'  Captain Aldric Vane" (a mark the player never sees there).
    game = advanced("confrontation-crossing", 7, lambda d: d.prompt.startswith("Declare"))
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await listing(pilot)
        field = screen.battlefield
        assert field.cell_width == 1
        captain = next(m for m in game.view().models if m.name.startswith("Captain"))
        assert captain.cell is not None
        await walk_to(pilot, screen, captain.cell)
        row = screen_lines(pilot)[field.board.height - 1 - captain.cell.y - round(field.scroll_y)]
        assert row[captain.cell.x] == "A"  # the letter alone, no mark
        await press_until(pilot, "M", lambda: isinstance(pilot.app.screen, InfoScreen), "legend")
        legend = pilot.app.screen
        assert isinstance(legend, InfoScreen)
        text = legend.body.plain
        assert "\n  A   Captain Aldric Vane" in text and "A'" not in text
        assert "(seat 2): letter underlined (bold, reverse video)" in text
        shown = next(span for span in legend.body.spans if legend.body.plain[span.start] == "G")
        assert "reverse" in str(shown.style)  # as the map draws seat 2


def entered(seed: int, until: Callable[[Game], bool]) -> Game:
    """A Confrontation game whose players pressed Enter at every prompt: a cell where the
    cursor starts, else the highlighted (suggested or first) option."""
    game = Game(load_scenario(ROOT / "scenarios" / "confrontation-crossing.toml"), seed)
    while game.pending is not None and not until(game):
        decision = game.pending
        if decision.kind is DecisionKind.PICK_CELL:
            cell = start_cell(decision, game.view())
            option = next(o for o in decision.options if o.cell == cell)
        else:
            option = next((o for o in decision.options if o.suggested), decision.options[0])
        game.choose_key(option.key)
    return game


async def test_enter_on_a_list_of_models_takes_option_one(saves_dir: Path) -> None:
    # Round 1's Tactical roll lists the Captain (DIS 4) then a Spearman (DIS 2), side by
    # side on the board. The cursor started on the Spearman, nearest the middle of the
    # two, so Enter took the worse option 2 while the list read 1, 2.
    def tactical(game: Game) -> bool:
        pending = game.pending
        return game.view().round == 1 and pending is not None and "Discipline" in pending.prompt

    game = entered(2, tactical)
    decision = game.pending
    assert decision is not None and decision.options[0].label.startswith("Captain")
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await listing(pilot)
        assert screen.battlefield.cursor == decision.options[0].cell
        await press_until(pilot, "enter", lambda: game.pending is not decision, "the choice")
        assert game.choices[-1].key == decision.options[0].key


async def test_the_log_panel_never_starts_on_the_tail_of_a_wrapped_line(
    saves_dir: Path,
) -> None:
    # At 80x24 the panel's top row read "+ 4) against Bogfen Raiders 7 (4 + 3)": the end
    # of the Tactical roll's line, its start scrolled away. Its first words stand there now.
    # (Seed 1 at the first declaration: the Tactical roll's winner line, three rows since
    # it says what the winner chooses, is cut at the top.)
    def first_declaration(game: Game) -> bool:
        pending = game.pending
        return pending is not None and pending.prompt.startswith("Declare the action")

    game = entered(1, first_declaration)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await listing(pilot)
        log = screen.query_one("#log", LogPanel)
        await wait_for(pilot, lambda: log.max_scroll_y > 0, "a log taller than its panel")
        await pilot.pause()
        rows = [row.strip() for row in drawn(log)]
        entries = [line.plain for line in log._texts]
        # Each row is an entry's start or the rest of the row above; the entry cut at the
        # top shows its first words, ending in "…".
        assert rows[0].endswith("…") and rows[0] != "…", rows
        assert any(entry.startswith(rows[0][:-1]) for entry in entries), rows
        assert rows[0] == "Bogfen Raiders win the Tactical roll an…"


async def test_with_every_target_out_of_range_enter_holds_fire(saves_dir: Path) -> None:
    # A Slinger walked, then had to shoot: every target was out of range and listed before
    # "Hold fire"; the cursor sat on the nearest, and Enter spent the shot on it.
    game = Game(load_scenario(ROOT / "scenarios" / "confrontation-crossing.toml"), 2)
    while game.pending is not None and "choose a target" not in game.pending.prompt:
        offered = game.pending.options
        walk = next((o for o in offered if o.label.startswith("Walk, then shoot")), None)
        game.choose_key((walk or next(o for o in offered if not o.ends)).key)
    decision = game.pending
    assert decision is not None  # no target in range: each says its shot cannot hit
    assert all(o.odds is None or o.odds.hit == 0 for o in decision.options)
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await listing(pilot)
        options = screen.decision_panel.option_list
        # Hold fire is on 0 and listed last, as "Nothing" is, and highlighted first.
        assert listed(screen)[-1] == "0 Hold fire" and "out of range" in listed(screen)[0]
        assert options.highlighted == options.option_count - 1 and options.has_focus
        await press_until(pilot, "enter", lambda: game.pending is not decision, "the choice")
        assert any(e.kind == "FireHeld" for e in game.events[-3:])


async def test_the_option_list_never_starts_on_the_end_of_an_option(saves_dir: Path) -> None:
    # At 80x24 the list's top row read "unsaved 13%, slay 2%]": the end of a target's
    # three lines, scrolled so that the highlighted one below it showed whole.
    game = Game(load_scenario(ROOT / "scenarios" / "confrontation-crossing.toml"), 1)
    while game.pending is not None and "choose a target" not in game.pending.prompt:
        offered = game.pending.options
        shoot = next((o for o in offered if o.label.startswith(("Shoot", "Run"))), None)
        game.choose_key((shoot or next(o for o in offered if not o.ends)).key)
    assert game.pending is not None and sum(o.odds is not None for o in game.pending.options) > 3
    async with app_on(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await listing(pilot)
        options = screen.decision_panel.option_list
        await pilot.pause()
        starts = set(options._index_to_line.values())
        assert round(options.scroll_y) in starts, drawn(options)[:2]
        options.focus()
        for _ in range(options.option_count - 1):
            await send_key(pilot, "down")
            await pilot.pause()
            # (scrolled to the end, the list's last option decides where it starts)
            end = options.scroll_y == options.max_scroll_y
            assert round(options.scroll_y) in starts or end, drawn(options)[:2]


async def test_the_sides_table_shows_no_tactical_roll_winner_before_the_rounds_roll(
    saves_dir: Path,
) -> None:
    # At 200x60, stacking round 1's activation deck, the sides table said "won" for the
    # side that won the deployment roll: this round's Tactical roll was still to come.
    def stacking(game: Game) -> bool:
        pending = game.pending
        return game.view().round == 1 and pending is not None and "activation" in pending.prompt

    game = entered(2, stacking)
    async with app_on(game, saves_dir).run_test(size=(200, 60)) as pilot:
        screen = await listing(pilot)
        phase = screen.query_one(PhasePanel)
        await wait_for(pilot, lambda: "Tactical roll" in " ".join(drawn(phase)), "the table")
        rows = drawn(phase)
        assert not any(row.rstrip().endswith("won") for row in rows), rows


@pytest.mark.parametrize("key", ["l", "r"])
async def test_enter_on_the_load_and_replay_lists_opens_the_newest_save(
    key: str, saves_dir: Path
) -> None:
    # "Pick a file and press Enter": Enter at once did nothing, as no row was highlighted.
    game = Game(load_scenario(ROOT / "scenarios" / "confrontation-crossing.toml"), 5)
    write_save(game, new_save_path(saves_dir, game.scenario.name))
    opened = ReplayScreen if key == "r" else (GameScreen, HandOverScreen)
    app = make_app(saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainMenu), "the menu")
        await send_key(pilot, key)
        await wait_for(pilot, lambda: isinstance(app.screen, SavesScreen), "the list")
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, opened) and mounted(app), "the save")
