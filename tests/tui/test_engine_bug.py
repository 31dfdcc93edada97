"""A choice that hits a rules bug costs nothing: the screen says so, the game stays at
that decision, and a bug report beside the saves reproduces it (issue 22)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from engine.events import Scalar
from engine.game import Game
from engine.rulecase import run_case
from engine.ruleset import RuleContext
from engine.save import load_game
from tests.tui.conftest import CROSSROADS
from tests.tui.keys import press_until, send_key, wait_for
from tests.tui.play import game_screen
from tui.app import make_app
from tui.game_screen import GameScreen
from tui.modals import HandOverScreen
from tui.panels import StatusLine


class RulesBug:
    """Arms `RuleContext.emit` to fail once, as a broken rule would mid-choice (with
    ``main_thread``, only there: not in a computer's look-ahead, which runs in a worker)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, main_thread: bool = False) -> None:
        self.armed = False
        emit = RuleContext.emit

        def emit_or_fail(ctx: RuleContext, kind: str, text: str, **fields: Scalar) -> None:
            here = not main_thread or threading.current_thread() is threading.main_thread()
            if self.armed and here:
                self.armed = False
                raise IndexError("a rules bug")
            emit(ctx, kind, text, **fields)

        monkeypatch.setattr(RuleContext, "emit", emit_or_fail)


async def _to_game_screen(pilot: Pilot[Any]) -> GameScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, GameScreen | HandOverScreen))
    if isinstance(app.screen, HandOverScreen):
        top = app.screen
        await press_until(pilot, "o", lambda: app.screen is not top)
    return game_screen(pilot)


def _more_choices_than(game: Game, made: int) -> Callable[[], bool]:
    return lambda: len(game.choices) > made


def _status(screen: GameScreen) -> str:
    return str(screen.query_one(StatusLine).render())


async def test_a_rules_bug_keeps_the_decision_and_writes_a_report(
    saves_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bug = RulesBug(monkeypatch)
    app = make_app(scenario=CROSSROADS, seed=7, saves_dir=saves_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _to_game_screen(pilot)
        game = screen.game
        for made in range(3):  # points format, agreement, the first roster
            await send_key(pilot, "1")
            screen = await _to_game_screen(pilot)
            await wait_for(pilot, _more_choices_than(game, made))
        decision = game.pending
        assert decision is not None and "roster" in decision.prompt
        before = (game.state_hash(), len(game.rolls), len(game.events))
        bug.armed = True
        await press_until(pilot, "1", lambda: "Bug:" in _status(screen))
        assert "failed in the rules engine" in _status(screen)
        assert any("hit a bug" in str(n.message) for n in app._notifications)
        assert app.screen is screen and game.pending == decision and len(game.choices) == 3
        assert (game.state_hash(), len(game.rolls), len(game.events)) == before
        cases = list((saves_dir / "bugs").glob("*.toml"))
        saves = list((saves_dir / "bugs").glob("*.wargrid"))
        assert len(cases) == 1 and len(saves) == 1
        assert cases[0].name in _status(screen)
        # The report reproduces the failure while the bug is there.
        bug.armed = True
        text = run_case(cases[0]).describe()
        assert text.startswith("ERROR ") and "IndexError: a rules bug" in text
        assert "Your Ashen Reavers roster" in text
        # The same choice, once the bug is gone, is taken; the game goes on.
        await press_until(pilot, "1", lambda: len(game.choices) == 4)
        assert game.answered[-1] == decision
    # Without the bug, the report passes and its save opens at the failed decision.
    assert run_case(cases[0]).passed
    reopened = load_game(saves[0])
    assert reopened.pending == decision and len(reopened.choices) == 3
    assert "traceback" in cases[0].read_text() and "emit_or_fail" in cases[0].read_text()
