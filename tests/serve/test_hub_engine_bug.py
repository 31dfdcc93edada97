"""A hosted game survives a rules bug: every session hears of it, the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import Scalar
from engine.rulecase import run_case
from engine.ruleset import RuleContext
from tests.serve.fakes import Session, play, turn
from tui.serve.hub import Hub


def test_a_rules_bug_is_reported_to_every_seat_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = Hub(tmp_path / "state")
    alice, bob = Session(hub, "alice"), Session(hub, "bob")
    alice.send(t="create", scenario="killteam-crossroads.toml", seed=7)
    hosted = hub.games[alice.last("joined")["game"]]
    bob.send(t="sit", game=hosted.id, seat=None)
    carol = Session(hub, "carol")
    carol.send(t="watch", game=hosted.id)
    play(hosted, alice, bob, 1)  # the points format: the agreement that follows reports
    game = hosted.game
    pending = game.pending
    assert pending is not None
    before = (len(game.choices), game.state_hash(), hosted.path.read_bytes())
    armed = [True]
    emit = RuleContext.emit

    def emit_or_fail(ctx: RuleContext, kind: str, text: str, **fields: Scalar) -> None:
        if armed and armed.pop():
            raise RuntimeError("a rules bug")
        emit(ctx, kind, text, **fields)

    monkeypatch.setattr(RuleContext, "emit", emit_or_fail)
    chooser = turn(hosted, alice, bob)
    for session in (alice, bob, carol):
        session.clear()
    chooser.send(t="choose", choice=[pending.id, pending.options[0].key])
    assert chooser.last("refused")["message"].startswith("That choice hit a bug")
    for session in (alice, bob, carol):
        assert "hit a bug in the rules engine" in session.last("notice")["message"]
        assert "choice" not in session.kinds()
    assert (len(game.choices), game.state_hash(), hosted.path.read_bytes()) == before
    (report,) = (tmp_path / "state" / "bugs").glob("*.toml")
    assert report.name in chooser.last("notice")["message"]
    armed.append(True)
    assert "RuntimeError: a rules bug" in run_case(report).describe()
    # The game keeps running: the same choice, the bug gone, reaches every session.
    chooser.send(t="choose", choice=[pending.id, pending.options[0].key])
    assert len(game.choices) == 2
    for session in (alice, bob, carol):
        assert session.last("choice")["n"] == 2
    assert run_case(report).passed
