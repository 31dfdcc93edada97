"""`n` / `p` ("next option") found doing nothing, unseen, in tmux at 80x24: on a list of
answers no option has a cell to jump to, and wh40k6's "Which unit acts next?" named no
unit's place, so the cursor sat on the rock in the middle of the table."""

from __future__ import annotations

from pathlib import Path

from tests.tui.keys import send_key, wait_for
from tests.tui.play import opened_game
from tests.tui.test_input import app_on
from tests.tui.test_playtest_u14d import wh40k6_at
from tui.panels import StatusLine


async def test_n_moves_through_a_list_that_has_no_cells(saves_dir: Path) -> None:
    game = wh40k6_at("Agree on the mission")
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        rows = screen.decision_panel.option_list
        assert rows.highlighted == 0
        await send_key(pilot, "n")
        await wait_for(pilot, lambda: rows.highlighted == 1, "the second row")
        await send_key(pilot, "p")
        await send_key(pilot, "p")
        last = rows.option_count - 1
        await wait_for(pilot, lambda: rows.highlighted == last, "round to the last row")
        assert screen.game.choices == game.choices  # browsing chose nothing


async def test_the_shooting_list_shows_each_unit_on_the_board(saves_dir: Path) -> None:
    game = wh40k6_at("Which unit acts next?")
    decision = game.pending
    assert decision is not None
    units = [o for o in decision.options if not o.ends]
    assert len(units) >= 2 and all(o.cell is not None for o in units)
    app = app_on(game, saves_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.battlefield
        await wait_for(pilot, lambda: field.cursor == units[0].cell, "option 1's unit")
        status = screen.query_one(StatusLine)
        name = units[0].label.split(":")[0]
        await wait_for(pilot, lambda: name in str(status.render()), "its name below the map")
        await send_key(pilot, "n")
        await wait_for(pilot, lambda: field.cursor == units[1].cell, "option 2's unit")
