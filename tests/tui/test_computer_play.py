"""What a new player met playing against the computer at 80x24 (issue 20's playtest)."""

from __future__ import annotations

from pathlib import Path

from tests.tui.keys import send_key, wait_for
from tests.tui.play import opened_game
from tests.tui.test_computer import computer_pair
from tui.decision_panel import DecisionPanel
from tui.settings import Settings, save_settings


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
