"""Restoring one checkpoint again and again (a computer player weighing each option)
unpacks its state once and decodes each deployment zone once: every restored game is
the game a plain restore gives, and playing them on changes nothing shared."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from engine.bot import RandomBot
from engine.checkpoints import Checkpoint, last_at
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_restores_from_one_checkpoint_share_its_data_and_zones_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "wh40k6-open-war.toml")
    game, bot = Game(scenario, 8), RandomBot(8)
    while game.pending is not None and len(game.choices) < 140:
        game.choose(bot.choose(game.pending))
    index = last_at(game.checkpoints, len(game.choices))
    assert index is not None
    while not game.checkpoints[index].written:
        index -= 1  # where a restore starts
    at = game.checkpoints[index]
    with monkeypatch.context() as patch:  # unpacked afresh, every list decoded afresh
        patch.setattr(Checkpoint, "shared_state", lambda self: (self.state_data(), None))
        plain = game.restored(index, game.choices)
    copies = [game.restored(index, game.choices, hashes=False) for _ in range(3)]
    for copy in copies:
        assert copy.ruleset.packed_state() == plain.ruleset.packed_state()
        assert copy.ruleset.snapshot() == plain.ruleset.snapshot()
        assert copy.pending == plain.pending == game.pending
    zones = [[side.zone for side in c.ruleset.state.sides] for c in copies]  # type: ignore[attr-defined]
    assert zones[0][0] and all(z[0] is zones[0][0] and z[1] is zones[0][1] for z in zones)
    states = [c.ruleset.state for c in copies]  # type: ignore[attr-defined]
    assert states[0].models["A1.1"] is not states[1].models["A1.1"]
    for n, copy in enumerate(copies):  # played on apart, from the same shared data
        rng = RandomBot(n)
        while copy.pending is not None and len(copy.choices) < len(game.choices) + 25:
            copy.choose(rng.choose(copy.pending))
    data, _ = at.shared_state()
    assert data == msgpack.unpackb(at.state)  # nothing changed what the copies share
    again = game.restored(index, game.choices)
    assert again.ruleset.packed_state() == plain.ruleset.packed_state()
    assert again.checkups == game.checkups
