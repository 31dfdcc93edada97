"""The layout fits every terminal: a zoomed map on big screens, the cursor in view on small
ones, sides told apart without colour, a legend and whole model cards on a key."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option
from tests.tui.conftest import ROOT
from tests.tui.keys import gone, press_until, send_key, wait_for
from tests.tui.play import first_key, game_screen, keys_of, press_for_choice
from tui.app import make_app
from tui.battlefield import Battlefield
from tui.decision_panel import DecisionPanel
from tui.info import InfoScreen
from tui.log_panel import LogPanel
from tui.modals import HandOverScreen
from tui.panels import ModelPanel

SCENARIOS = ROOT / "scenarios"


async def to_first_cell_choice(pilot: Pilot[Any]) -> None:
    """Answer with the first option (passing hand-over screens) until a Decision lights
    cells."""
    app = pilot.app
    await wait_for(pilot, lambda: bool(app.screen.query(Battlefield)) or _covered(pilot))
    screen = game_screen(pilot)
    while True:
        top = app.screen
        if isinstance(top, HandOverScreen):
            await press_until(pilot, "enter", gone(app, top))
            continue
        decision = screen.game.pending
        assert decision is not None
        if any(o.cell is not None for o in decision.options):
            await pilot.pause()
            return
        await press_for_choice(
            pilot, first_key(decision, keys_of(pilot)), _one_more(screen.game.choices)
        )


def _one_more(choices: Sequence[object]) -> Callable[[], bool]:
    """A predicate: one more choice was made than now (the list grows in place)."""
    made = len(choices)
    return lambda: len(choices) > made


def _covered(pilot: Pilot[Any]) -> bool:
    return isinstance(pilot.app.screen, HandOverScreen)


def cursor_in_view(field: Battlefield) -> bool:
    """The cursor's cell lies inside the battlefield's visible window."""
    x = field.cursor.x * field.cell_width
    y = (field.board.height - 1 - field.cursor.y) * field.cell_height
    view = field.scrollable_content_region
    return (
        field.scroll_x <= x < field.scroll_x + view.width
        and field.scroll_y <= y < field.scroll_y + view.height
    )


def screen_lines(pilot: Pilot[Any]) -> list[str]:
    """The whole screen as plain text lines."""
    app = pilot.app
    return ["".join(s.text for s in strip) for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize(
    "name", ["confrontation-crossing", "wh40k6-open-war", "apocalypse-crossing"]
)
async def test_at_80x24_the_first_map_choice_is_in_view(name: str, saves_dir: Path) -> None:
    app = make_app(scenario=SCENARIOS / f"{name}.toml", seed=3, saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_first_cell_choice(pilot)
        field = game_screen(pilot).battlefield
        decision = game_screen(pilot).game.pending
        assert decision is not None
        assert field.cursor in {o.cell for o in decision.options}
        assert field.virtual_size.height > field.scrollable_content_region.height  # it scrolls
        assert cursor_in_view(field)


async def test_a_big_terminal_zooms_the_map_and_gives_the_panels_the_rest(
    saves_dir: Path,
) -> None:
    app = make_app(scenario=SCENARIOS / "killteam-crossroads.toml", seed=7, saves_dir=saves_dir)
    async with app.run_test(size=(200, 60)) as pilot:
        await to_first_cell_choice(pilot)
        field = game_screen(pilot).battlefield
        # 30x22 cells of 4x2 characters: 120x44 of the 200x58 above the status line.
        assert (field.cell_width, field.cell_height) == (4, 2)
        assert field.virtual_size == (120, 44) and field.size.width == 120
        panel = game_screen(pilot).query_one(DecisionPanel)
        assert panel.region.x > 120 and panel.region.right == 200
        lines = screen_lines(pilot)
        cursor = field.cursor
        row = (field.board.height - 1 - cursor.y) * 2
        assert lines[row][cursor.x * 4 : cursor.x * 4 + 4].strip() == "+"
        await press_until(pilot, "minus", lambda: field.size.width == 60)
        assert field.cell_width == 2 and cursor_in_view(field)
        await press_until(pilot, "plus", lambda: field.cell_width == 4)
        await press_until(pilot, "plus", lambda: field.cell_width == 6)
        await wait_for(pilot, lambda: field.size.width == 160)  # the panels keep 40
        await pilot.pause()
        assert field.cell_height == 3 and cursor_in_view(field)  # too big now: it scrolls


async def test_text_wraps_to_a_wider_screen_instead_of_being_cut(saves_dir: Path) -> None:
    app = make_app(scenario=SCENARIOS / "wh40k6-open-war.toml", seed=1, saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_first_cell_choice(pilot)
        log = game_screen(pilot).query_one(LogPanel)
        narrow = log.virtual_size.height
        await pilot.resize_terminal(200, 60)
        # The log moves under the map (the rows the 72x48 map leaves): a new panel there.
        await wait_for(pilot, lambda: game_screen(pilot).query_one(LogPanel).size.width > 50)
        await pilot.pause()
        log = game_screen(pilot).query_one(LogPanel)
        for widget in game_screen(pilot).query("#game-right *, LogPanel"):
            assert widget.region.right <= 200, widget
        # Every line was wrapped again for the new width: fewer, longer lines.
        assert log.virtual_size.height < narrow
        assert max(len(strip.text.rstrip()) for strip in log.lines) > 42


async def test_sides_differ_by_a_mark_and_the_legend_names_every_letter(saves_dir: Path) -> None:
    app = make_app(scenario=SCENARIOS / "killteam-crossroads.toml", seed=7, saves_dir=saves_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await to_first_cell_choice(pilot)
        screen = game_screen(pilot)
        field = screen.battlefield
        assert field.cell_width == 2
        cell = field.cursor
        decision = screen.game.pending
        assert decision is not None
        made = len(screen.game.choices)
        await press_until(pilot, "enter", lambda: len(screen.game.choices) > made)
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", gone(app, app.screen))
        await pilot.pause()
        placed = field.model_at(cell)
        assert placed is not None and placed.player == decision.player
        row = screen_lines(pilot)[field.board.height - 1 - cell.y - round(field.scroll_y)]
        assert row[cell.x * 2 : cell.x * 2 + 2] == placed.glyph + ("'", '"')[placed.player]

        await press_until(pilot, "M", lambda: isinstance(app.screen, InfoScreen))
        legend = app.screen
        assert isinstance(legend, InfoScreen)
        text = legend.body.plain
        for side in screen.game.scenario.sides:
            assert side in text
        assert 'b"  Reaver Brute' in text and "wall" in text and "O1  objective O1" in text
        await press_until(pilot, "M", gone(app, legend))


async def test_a_model_card_cut_short_at_80x24_shows_whole_on_shift_i(saves_dir: Path) -> None:
    app = make_app(scenario=SCENARIOS / "killteam-crossroads.toml", seed=7, saves_dir=saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_first_cell_choice(pilot)
        screen = game_screen(pilot)
        # The Militia Sergeant carries three weapons: more than the short panel's 4 lines.
        sergeant = next(m for m in screen.game.view().models if "Sergeant" in m.name)
        assert len(sergeant.weapons) >= 2
        while screen.game.view().model(sergeant.id).cell is None:  # type: ignore[union-attr]
            top = app.screen
            if isinstance(top, HandOverScreen):
                await press_until(pilot, "enter", gone(app, top))
                continue
            await press_until(pilot, "enter", _one_more(screen.game.choices))
        placed = screen.game.view().model(sergeant.id)
        assert placed is not None and placed.cell is not None
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", gone(app, app.screen))
        screen.battlefield.cursor = placed.cell
        panel = screen.query_one(ModelPanel)
        await wait_for(pilot, lambda: "Sergeant" in str(panel.render()))
        assert "press I for the whole card" in str(panel.render())
        await press_until(pilot, "I", lambda: isinstance(app.screen, InfoScreen))
        card = app.screen
        assert isinstance(card, InfoScreen)
        for weapon in placed.weapons:
            assert weapon in card.body.plain
        await send_key(pilot, "escape")
        await wait_for(pilot, gone(app, card))
        assert len(screen.game.choices) > 0 and screen.game.pending is not None


class PanelApp(App[None]):
    """A decision panel alone, recording the options it reports as browsed."""

    def __init__(self) -> None:
        super().__init__()
        self.browsed: list[str] = []

    def compose(self) -> ComposeResult:
        yield DecisionPanel(id="decision")

    def on_decision_panel_option_browsed(self, event: DecisionPanel.OptionBrowsed) -> None:
        self.browsed.append(event.option.key)


def cell_picker(cells: Sequence[Cell]) -> Decision:
    options = tuple(Option(f"{c.x},{c.y}", f"cell {c}", cell=c) for c in cells)
    return Decision(0, DecisionKind.PICK_CELL, "Place A1", options, subject="A1")


async def test_a_new_list_does_not_pull_the_cursor_to_its_first_cell() -> None:
    """The list still had focus from the last Decision when a cell picker arrived: its
    first highlight moved the board cursor to option 1 ((0,0)), away from the cell the
    cursor had just started on, so Enter deployed a model in the corner."""
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(DecisionPanel)
        panel.option_list.focus()
        await pilot.pause()
        panel.show(cell_picker([Cell(0, 0), Cell(1, 0), Cell(12, 1)]))
        await pilot.pause()
        assert app.browsed == []
        await send_key(pilot, "down")  # the player browsing is still reported
        await wait_for(pilot, lambda: app.browsed == ["1,0"])


@pytest.mark.parametrize(("size", "words"), [((80, 24), " next "), ((200, 60), " next option ")])
async def test_the_key_line_keeps_every_key_at_any_width(
    size: tuple[int, int], words: str, saves_dir: Path
) -> None:
    """Played at 80x24: the key line ended "... s  save  q" (its last word cut off); at
    80 columns it says shorter words, at 200 the whole ones."""
    app = make_app(scenario=SCENARIOS / "killteam-crossroads.toml", seed=3, saves_dir=saves_dir)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query(Battlefield)) or _covered(pilot))
        await pilot.pause()
        line = next(text for text in screen_lines(pilot) if " undo " in text)
        assert line.rstrip().endswith(" q  menu") and words in line
