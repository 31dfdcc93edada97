"""Undo lands where the player was: on the option they had taken at the Decision asked
again (its list row highlighted, the board cursor on its cell), not on option 1."""

from __future__ import annotations

from pathlib import Path

from tests.tui.keys import press_until, send_key, wait_for, walk_cursor
from tests.tui.play import opened_game
from tests.tui.test_game import shown
from tests.tui.test_playtest_u14c import app_at, played_to
from tui.battlefield import Battlefield
from tui.panels import StatusLine


async def test_undo_highlights_the_unit_that_was_picked(saves_dir: Path) -> None:
    """wh40k6's "Which unit acts next?": 3 picked Warden Squad Beta; after u the list
    highlighted 1 (the Lexicar) and the cursor stood on the Lexicar."""
    game = played_to("wh40k6-open-war", "Which unit acts next?")
    decision = game.pending
    assert decision is not None
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        panel = screen.decision_panel
        rows = panel.keys.rows(decision)
        third = rows[2]
        assert third.key == "3" and third.option.cell is not None
        assert panel.rows[panel.option_list.highlighted or 0] != third.option  # starts elsewhere
        count = len(screen.game.choices)
        await press_until(pilot, "3", lambda: len(screen.game.choices) == count + 1)
        assert screen.game.choices[-1].key == third.option.key
        await press_until(pilot, "u", lambda: len(screen.game.choices) == count)
        assert screen.game.pending == decision
        await wait_for(pilot, lambda: panel.option_list.highlighted == 2, "row 3 highlighted")
        assert panel.rows[2] == third.option
        assert screen.query_one(Battlefield).cursor == third.option.cell
        status = shown(screen.query_one(StatusLine))
        assert "Enter: Warden Squad Beta" in status and third.option.label.startswith(
            "Warden Squad Beta"
        )
        await press_until(pilot, "enter", lambda: len(screen.game.choices) == count + 1)
        assert screen.game.choices[-1].key == third.option.key  # Enter takes it again


async def test_undo_puts_the_cursor_back_on_the_cell_picked(saves_dir: Path) -> None:
    """Kill Team deployment: a model placed on a cell away from where the cursor started
    comes back, after u, with the cursor on that cell (it went back to the start)."""
    game = played_to("killteam-crossroads", "Deployment: place")
    decision = game.pending
    assert decision is not None
    lit = [o.cell for o in decision.options if o.cell is not None]
    async with app_at(game, saves_dir).run_test(size=(80, 24)) as pilot:
        screen = await opened_game(pilot)
        field = screen.query_one(Battlefield)
        start = field.cursor
        target = next(c for c in lit if c != start and abs(c.x - start.x) + abs(c.y - start.y) > 2)
        field.focus()
        await walk_cursor(pilot, lambda: field.cursor, target)
        count = len(screen.game.choices)
        await press_until(pilot, "enter", lambda: len(screen.game.choices) == count + 1)
        await wait_for(pilot, lambda: screen.game.pending != decision, "the next Decision")
        await send_key(pilot, "u")
        await wait_for(pilot, lambda: len(screen.game.choices) == count, "the undo")
        assert screen.game.pending == decision
        assert field.cursor == target != start
