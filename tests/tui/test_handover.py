"""Hidden information: the hand-over screen covers the board around every secret Decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.scenario import load_scenario
from tests.tui.conftest import ROOT
from tests.tui.keys import changed, press_until, wait_for
from tests.tui.secret import install
from tests.tui.test_layout import screen_lines
from tui.app import WargridApp
from tui.game_screen import GameScreen
from tui.modals import GameOverScreen, HandOverScreen


async def test_secret_decisions_always_get_a_covering_hand_over(
    monkeypatch: pytest.MonkeyPatch, saves_dir: Path
) -> None:
    scenario = install(monkeypatch)
    app = WargridApp(saves_dir=saves_dir)
    game = Game(scenario, 1)
    async with app.run_test() as pilot:
        await pilot.pause()
        screen = app.open_game(game, handover=False)  # off: secrets must still get one
        for expected_player in (0, 1, 0, 1):
            await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen))
            cover = app.screen
            assert isinstance(cover, HandOverScreen)
            assert cover.hidden and cover.has_class("-hidden")
            assert cover.styles.background.a == 1  # opaque: the board is hidden
            # 'o' may not switch the screens off for secrets.
            await press_until(pilot, "o", lambda: app.screen is screen)
            pending = game.pending
            assert pending is not None and pending.player == expected_player
            await press_until(pilot, "3", changed(lambda: game.pending, pending))
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert game.outcome is not None and game.outcome.winner is None
        assert isinstance(screen, GameScreen) and not screen.handover


async def test_the_secret_warning_wraps_whole_at_80x24(saves_dir: Path) -> None:
    app = WargridApp(saves_dir=saves_dir)
    game = Game(load_scenario(ROOT / "scenarios" / "confrontation-crossing.toml"), 7)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_game(game, handover=False)  # the deck stacking is secret: covered
        await wait_for(pilot, lambda: isinstance(app.screen, HandOverScreen))
        await pilot.pause()
        lines = [line.strip() for line in screen_lines(pilot)]
        # Before: "...stays covered" / "until" / "the other player looks away...".
        assert "until" not in lines
        assert any(line.endswith("covered until") or "until the" in line for line in lines)
