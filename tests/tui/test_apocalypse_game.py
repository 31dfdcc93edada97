"""A whole Apocalypse game played through the TUI, key by key, to the game-over screen.

The players always take the first option; secret orders and asset offers come behind
the hand-over screen (answered with Enter), the open hand-over screens are switched
off. Five turns always end the game (digest apocalypse §4.4).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from engine.board import Cell
from engine.game import Game
from tests.tui.keys import press_until, reached, send_key, wait_for, walk_cursor
from tests.tui.play import (
    app_at,
    at_the_table,
    cursor_on,
    first_key,
    game_screen,
    keys_of,
    press_for_choice,
    press_to_game_over,
)
from tui.app import make_app
from tui.decision_panel import DecisionPanel
from tui.info import InfoScreen
from tui.modals import HandOverScreen
from tui.panels import StatusLine

SCENARIO = Path(__file__).parents[2] / "scenarios" / "apocalypse-crossing.toml"


@pytest.mark.slow
async def test_a_full_apocalypse_game_reaches_game_over(tmp_path: Path) -> None:
    app = make_app(scenario=SCENARIO, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        secrets = await press_to_game_over(
            pilot, first_key, handover=lambda top: "enter" if top.hidden else "o"
        )
        game = game_screen(pilot).game
        assert game.outcome is not None
        assert game.ruleset.view().round == 5
        assert secrets >= 10  # four turns of secret orders at least


async def test_embark_at_deployment_is_listed_first_behind_hundreds_of_cells(
    tmp_path: Path,
) -> None:
    """Playtest 2: "Embark in ..." and "Put in Reserve" came after 380 cells in a list cut
    at 60, with no cell to click: now they lead the list, reached with Tab and Enter."""
    app = make_app(scenario=SCENARIO, seed=3, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        screen = game_screen(pilot)

        def captain() -> bool:
            return (
                screen.game.pending is not None and "Legion Captain" in screen.game.pending.prompt
            )

        while not captain():
            if isinstance(app.screen, HandOverScreen):
                await press_until(pilot, "enter", lambda: app.screen is screen)
                continue
            count = len(screen.game.choices)
            await send_key(pilot, "1")
            await wait_for(pilot, reached(lambda: len(screen.game.choices), count + 1))
        if isinstance(app.screen, HandOverScreen):
            await press_until(pilot, "enter", lambda: app.screen is screen)
        pending = screen.game.pending
        assert pending is not None and len(pending.options) > DecisionPanel.FOLLOW_LIMIT
        panel = screen.query_one(DecisionPanel)
        listed = [str(o.prompt) for o in panel.option_list.options]
        assert listed[0].endswith("Embark in Legion Carrier")
        assert listed[1].endswith("Put in Reserve")
        await press_until(pilot, "tab", lambda: panel.option_list.has_focus)
        before = len(screen.game.choices)
        await press_until(pilot, "enter", lambda: len(screen.game.choices) == before + 1)
        assert screen.game.choices[-1].key.startswith("embark:")


POSITION = """
scenario = "apocalypse-crossing.toml"
round = 2
phase = "Orders"

[apocalypse]
initiative = 1

[[apocalypse.detachments]]
player = 1
name = "Legion Cohort"
units = [
  { datasheet = "legion_captain", commander = true, cell = [2, 2] },
  { datasheet = "legion_line_squad", cell = [5, 2] },
]

[[apocalypse.detachments]]
player = 2
name = "Horde Mob"
units = [{ datasheet = "horde_warboss", commander = true, cell = [40, 28] }]
"""


async def test_shift_c_shows_the_command_range_of_the_unit_under_the_cursor(tmp_path: Path) -> None:
    app = app_at(tmp_path, POSITION, seed=1)
    async with app.run_test(size=(200, 60)) as pilot:
        target = Cell(5, 2)  # the Line Squad: its Commander's range is shown
        screen, field = await cursor_on(pilot, target)
        await send_key(pilot, "C")
        expected = next(r for r in screen.game.view().ranges if "A2" in r.models).cells
        await wait_for(pilot, lambda: field._sight == expected)
        assert Cell(14, 2) in expected and Cell(16, 2) not in expected
        await send_key(pilot, "C")
        await wait_for(pilot, lambda: not field._sight)


async def test_terrain_pieces_and_unit_types_are_named_on_screen(tmp_path: Path) -> None:
    """Issue #23: hovering ruins says "ruins 2", not "difficult ground"; the legend (M)
    says what ":" is; the card (I) says what a Carrier's types allow."""
    path = tmp_path / "names.toml"
    units = '{ datasheet = "legion_line_squad", cell = [5, 2] },'
    carrier = units + '\n  { datasheet = "legion_carrier", cell = [9, 2] },'
    path.write_text(POSITION.replace(units, carrier))
    app = make_app(position=path, seed=1, saves_dir=tmp_path)
    async with app.run_test(size=(200, 60)) as pilot:
        screen, field = await cursor_on(pilot, Cell(23, 15))
        status = screen.query_one(StatusLine)
        expected = '(23,15) ruins 2 (infantry only, +1" to enter, obscures)'
        await wait_for(pilot, lambda: expected in str(status.render()))
        row = screen.game.board.height - 1 - 15
        line = "".join(s.text for s in field.render_line(row - round(field.scroll_y)))
        assert ":" in line and "~" not in line
        await press_until(pilot, "M", lambda: isinstance(app.screen, InfoScreen))
        legend = app.screen
        assert isinstance(legend, InfoScreen)
        assert ':   ruins (infantry only, +1" to enter, obscures)' in legend.body.plain
        assert "difficult ground" not in legend.body.plain
        await press_until(pilot, "escape", lambda: app.screen is screen)
        await walk_cursor(pilot, lambda: field.cursor, Cell(9, 2))
        await press_until(pilot, "I", lambda: isinstance(app.screen, InfoScreen))
        card = app.screen
        assert isinstance(card, InfoScreen)
        assert "Legion Carrier" in card.title_text + card.body.plain
        assert 'Transport: carries 1 unit (INFANTRY LEGION); they embark wholly within 6"' in (
            card.body.plain
        )


async def test_enter_at_a_move_prompt_keeps_the_unit_where_it_is(tmp_path: Path) -> None:
    """Playtest at 80x24: the cursor started on a lit cell beside the unit, so Enter moved
    it 1" ("Legion Captain moves to (19,2) (1")"); in Kill Team and wh40k6 Enter at the
    start stays. It starts on the unit now, and says so."""
    app = app_at(tmp_path, POSITION, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_the_table(pilot)
        game = screen.game
        while (pending := game.pending) is not None and "move where" not in pending.prompt:
            if isinstance(app.screen, HandOverScreen):  # the secret orders
                await press_until(pilot, "enter", lambda: app.screen is screen)
                continue
            await press_for_choice(
                pilot,
                first_key(pending, keys_of(pilot)),
                partial(more_than, game, len(game.choices)),
            )
        assert pending is not None and pending.subject == "A1"
        await wait_for(pilot, lambda: screen.battlefield.cursor == Cell(2, 2), "the cursor on A1")
        status = screen.query_one(StatusLine)
        await wait_for(
            pilot, lambda: "Enter: Stay where it is" in str(status.render()), "the status"
        )
        made = len(game.choices)
        await send_key(pilot, "enter")
        await wait_for(pilot, lambda: len(game.choices) > made, "the choice")
        assert game.choices[-1].key == "stay"
        assert game.view().model("A1").cell == Cell(2, 2)  # type: ignore[union-attr]


def more_than(game: Game, made: int) -> bool:
    return len(game.choices) > made
