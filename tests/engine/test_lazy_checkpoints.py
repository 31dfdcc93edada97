"""Checkpoints written when first read (engine.game.EAGER_GAP): the same checkpoints as a
game that writes every one at once, and undo or restore from them gives the same game."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ("fatigue-crossroads.toml", "killteam-crossroads.toml")


def _played(name: str, seed: int, eager_gap: int) -> Game:
    game = Game(load_scenario(ROOT / "scenarios" / name), seed, eager_gap=eager_gap)
    bot = RandomBot(seed)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
    return game


@pytest.mark.parametrize("name", SCENARIOS)
def test_checkpoints_written_later_equal_those_written_at_once(name: str) -> None:
    lazy, eager = _played(name, 3, 12), _played(name, 3, 0)
    unwritten = [at for at in lazy.checkpoints if not at.written]
    assert unwritten, "every checkpoint was written at once: nothing tested"
    assert all(at.written for at in eager.checkpoints)
    assert [at.to_record() for at in lazy.checkpoints] == [
        at.to_record() for at in eager.checkpoints
    ]
    assert all(at.written for at in lazy.checkpoints)  # reading wrote them
    assert lazy.checkups == eager.checkups


@pytest.mark.parametrize("name", SCENARIOS)
def test_restoring_at_an_unwritten_checkpoint_starts_from_the_last_written_one(
    name: str,
) -> None:
    game = _played(name, 5, 12)
    index = max(i for i, at in enumerate(game.checkpoints) if not at.written)
    at = game.checkpoints[index]
    back = game.restored(index, game.choices[: at.step + 2])
    assert not game.checkpoints[index].written  # re-run past it, not written for it
    whole = _played(name, 5, 0).replayed(game.choices[: at.step + 2])
    assert back.checkups == whole.checkups and back.rolls == whole.rolls
    assert [e.text for e in back.events] == [e.text for e in whole.events]
    assert back.pending == whole.pending


def test_an_unwritten_checkpoint_is_less_than_the_gap_after_a_written_one() -> None:
    game = _played("fatigue-crossroads.toml", 7, 12)
    assert game.checkpoints[0].written
    last = 0
    for at in game.checkpoints:
        if at.written:
            last = at.step
        else:
            assert at.step - last < 12


def test_a_replay_writes_checkpoints_far_from_its_end_only_when_read(tmp_path: Path) -> None:
    """Loading a save (engine.save.replay) writes a checkpoint far from the end only every
    REPLAY_GAP choices, and those of the last REPLAY_TAIL choices as play does; read, the
    others are the ones play wrote, and undo at the end replays only since a near one."""
    from engine.game import REPLAY_GAP, REPLAY_TAIL
    from engine.save import load_game, write_save

    played = _played("killteam-crossroads.toml", 3, 0)
    write_save(played, tmp_path / "game.wargrid")
    loaded = load_game(tmp_path / "game.wargrid")
    end = len(loaded.choices)
    last = widest = 0
    for at in loaded.checkpoints:
        if at.written:
            last = at.step
        elif at.step < end - REPLAY_TAIL:
            assert at.step - last < REPLAY_GAP
            widest = max(widest, at.step - last)
        else:
            assert at.step - last < 12
    assert widest >= 12  # past the gap of play (EAGER_GAP)
    undone = loaded.replayed(loaded.choices[:-1])
    assert undone.checkups == played.replayed(played.choices[:-1]).checkups
    assert [at.to_record() for at in loaded.checkpoints] == [
        at.to_record() for at in played.checkpoints
    ]
