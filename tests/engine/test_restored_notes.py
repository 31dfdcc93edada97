"""A game restored at a checkpoint (undo, Continue, joining a hosted game) shows the
"done for you" notes the original showed: notes made after the last choice and before the
phase began travel with the checkpoint, in the game and in the save file."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgpack
import pytest

from engine.bot import RandomBot
from engine.checkpoints import MAX_NOTES, from_record
from engine.errors import SaveError
from engine.game import Game
from engine.resumption import check_save, open_save
from engine.save import decode, to_bytes
from engine.scenario import load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"

CASES = [("wh40k6-open-war", 3), ("apocalypse-crossing-big", 3), ("confrontation-muster", 1)]
"""Seeded random games that reach phase checkpoints with notes waiting (found by playing)."""

Shown = tuple[tuple[str, ...], tuple[str, ...]]


@cache
def played(name: str, seed: int) -> tuple[Game, tuple[Shown, ...]]:
    """A random game writing every checkpoint, and the notes and told of each Decision."""
    game = Game(load_scenario(SCENARIOS / f"{name}.toml"), seed, eager_gap=0)
    bot = RandomBot(seed)
    shown: list[Shown] = []
    while game.pending is not None and len(game.choices) < 300:
        shown.append((game.pending.notes, game.pending.told))
        game.choose(bot.choose(game.pending))
    return game, tuple(shown)


def noted_steps(game: Game) -> list[int]:
    # A checkpoint at the last choice of a finished game may carry notes no Decision shows
    # (Apocalypse: "No unit of Scrap Colossus can shoot or fight" as the game ends).
    end = len(game.choices) if game.pending is None else None
    steps = sorted({c.step for c in game.checkpoints if c.notes and c.step != end})
    assert steps, "the seeded game reaches no checkpoint with notes waiting"
    return steps


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_undo_to_a_checkpoint_shows_the_notes_made_before_it(name: str, seed: int) -> None:
    game, shown = played(name, seed)
    for step in noted_steps(game):
        restored = game.replayed(game.choices[:step])
        assert restored.pending is not None
        assert (restored.pending.notes, restored.pending.told) == shown[step]
        assert restored.pending.notes + restored.pending.told


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_continue_from_the_saves_checkpoint_shows_the_same_panel(name: str, seed: int) -> None:
    game, shown = played(name, seed)
    step = noted_steps(game)[0]
    cut = game.replayed(game.choices[:step])
    data = decode(to_bytes(cut), "noted.wargrid")
    assert data.checkpoints[-1].notes  # the file carries them
    opened = open_save(data)
    assert not opened.checked  # opened at the checkpoint, not replayed from step 0
    pending = opened.game.pending
    assert pending is not None
    assert (pending.notes, pending.told) == shown[step]
    assert check_save(data).verified  # the notes match what re-running the file makes


def test_a_checkpoint_without_notes_from_an_older_file_still_verifies() -> None:
    game, _ = played(*CASES[0])
    cut = game.replayed(game.choices[: noted_steps(game)[0]])
    doc = msgpack.unpackb(to_bytes(cut))
    doc["checkpoints"] = [record[:7] for record in doc["checkpoints"]]
    data = decode(msgpack.packb(doc), "older.wargrid")
    assert check_save(data).verified


@pytest.mark.parametrize(
    "notes",
    [
        "notes",
        [],
        [[2, "a seat that is not there"]],
        [[True, "a seat that is a flag"]],
        [[0, "\x1b[2Jescape"]],
        [[0, "x" * 301]],
        [[0, "many"]] * (MAX_NOTES + 1),
        [[0]],
    ],
)
def test_hostile_checkpoint_notes_are_refused(notes: object) -> None:
    record = [1, 0, 0, 0, 1, "Command", msgpack.packb({}), notes]
    with pytest.raises(SaveError, match="notes of a checkpoint"):
        from_record(record, "hostile.wargrid")


def test_forged_notes_fail_the_check() -> None:
    game, _ = played(*CASES[0])
    cut = game.replayed(game.choices[: noted_steps(game)[0]])
    doc = msgpack.unpackb(to_bytes(cut))
    doc["checkpoints"][-1][7] = [[0, "Nothing happened."]]
    verdict = check_save(decode(msgpack.packb(doc), "forged.wargrid"))
    assert not verdict.verified
    assert "does not match" in verdict.problem
