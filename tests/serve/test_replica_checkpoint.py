"""A session's copy of a hosted game starts at the hub's latest checkpoint."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from engine.errors import ReplayMismatchError
from engine.game import Game
from engine.save import decode, to_bytes
from tests.engine.test_resumption import calls_of
from tests.tui.test_continue_check import long_game
from tui.serve.replica import ReplicaGame


def _same(copy: Game, hub: Game) -> None:
    assert copy.choices == hub.choices
    assert copy.checkups == hub.checkups
    assert copy.rolls == hub.rolls
    assert copy.state_hash() == hub.state_hash()


def test_a_copy_starts_at_the_hubs_last_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    hub = long_game()
    applied = calls_of(monkeypatch, ReplicaGame, "apply")
    copy = ReplicaGame(decode(to_bytes(hub), "hub"), viewer=0)
    _same(copy, hub)
    assert copy.pending == hub.pending
    # Only the choices since the checkpoint were applied, not the whole game.
    assert applied == hub.choices[hub.checkpoints[-1].step :]
    assert len(applied) < len(hub.choices) // 10


def test_a_checkpoint_that_will_not_restore_costs_a_replay_not_the_game() -> None:
    hub = long_game()
    doc: dict[str, Any] = msgpack.unpackb(to_bytes(hub))
    doc["checkpoints"][-1][6] = {"nonsense": 1}
    _same(ReplicaGame(decode(msgpack.packb(doc), "hub"), viewer=None), hub)


def test_a_copy_that_differs_from_the_hub_says_where() -> None:
    hub = long_game()
    doc: dict[str, Any] = msgpack.unpackb(to_bytes(hub))
    step = len(hub.choices)
    doc["checkups"][step - 1][2] = "0" * 16
    with pytest.raises(ReplayMismatchError, match=f"step {step}: "):
        ReplicaGame(decode(msgpack.packb(doc), "hub"), viewer=1)


def test_a_copy_joined_at_a_checkpoint_shows_the_notes_the_hub_showed() -> None:
    """Joining a hosted game shows the seat whose turn it is the same "done for you"
    notes its own screen showed, though the copy starts at the checkpoint after them."""
    from tests.engine.test_restored_notes import CASES, noted_steps, played

    game, shown = played(*CASES[0])
    step = noted_steps(game)[0]
    hub = game.replayed(game.choices[:step])
    assert hub.pending is not None
    copy = ReplicaGame(decode(to_bytes(hub), "hub"), viewer=hub.pending.player)
    assert copy.choices == hub.choices
    assert copy.pending is not None
    assert (copy.pending.notes, copy.pending.told) == shown[step]
    assert copy.pending.notes + copy.pending.told
