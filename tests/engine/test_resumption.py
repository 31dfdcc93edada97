"""Saves carry checkpoints: Continue opens at the last one, the choices stay the truth."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bot import RandomBot
from engine.errors import EngineBugError, SaveError
from engine.game import Game
from engine.resumption import adopt, check_save, open_save
from engine.save import FORMAT_VERSION, decode, to_bytes
from engine.scenario import load_scenario
from tests.hardening.hostile import WRONG_SAVE_VALUES, mutated, tree_paths

CROSSROADS = Path(__file__).parents[2] / "scenarios" / "killteam-crossroads.toml"


@cache
def _played(seed: int = 5, steps: int = 270) -> Game:
    """A Kill Team bot game still going at its 270th choice, its last checkpoint close
    behind with rolls after it (what the tests below damage)."""
    game = Game(load_scenario(CROSSROADS), seed)
    bot = RandomBot(seed)
    while game.pending is not None and len(game.choices) < steps:
        game.choose(bot.choose(game.pending))
    return game


def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = msgpack.unpackb(to_bytes(_played()))
    return doc


def calls_of(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> list[Any]:
    """The argument of every call of ``owner.name`` from now on (the calls still run)."""
    seen: list[Any] = []
    method = getattr(owner, name)

    def counted(self: Any, argument: Any) -> None:
        seen.append(argument)
        method(self, argument)

    monkeypatch.setattr(owner, name, counted)
    return seen


def _same(game: Game, want: Game) -> None:
    assert game.choices == want.choices
    assert game.rolls == want.rolls
    assert [e.text for e in game.events] == [e.text for e in want.events]
    assert game.checkups == want.checkups
    assert game.state_hash() == want.state_hash()
    assert game.pending == want.pending


def test_a_save_opens_at_its_last_checkpoint_and_verifies_after() -> None:
    want = _played()
    data = decode(to_bytes(want), "g.wargrid")
    assert data.checkpoints == tuple(want.checkpoints[-2:])
    opened = open_save(data)
    assert not opened.checked and opened.note == ""
    _same(opened.game, want)
    assert opened.game.answered[-1] == want.answered[-1]
    verdict = check_save(data)
    assert verdict.verified and verdict.diverged_at is None
    game = adopt(opened.game, verdict)
    assert game is opened.game
    assert game.answered == want.answered  # the Decisions before the checkpoint, filled in
    assert game.checkpoints == want.checkpoints
    assert game.pending is not None
    game.choose(RandomBot(1).choose(game.pending))  # and it plays on like the original
    twin = want.replayed(want.choices)
    twin.choose(game.choices[-1])
    _same(game, twin)


def test_undo_after_continue_restores_the_checkpoint_before() -> None:
    want = _played()
    game = open_save(decode(to_bytes(want), "g.wargrid")).game
    undone = game.undone() if game.can_undo else game.replayed(game.choices[:-1])
    _same(undone, want.replayed(want.choices[:-1]))


def test_a_format_1_save_without_checkpoints_still_loads_and_verifies() -> None:
    doc = _doc()
    del doc["checkpoints"], doc["start"]
    doc["format_version"] = 1
    assert FORMAT_VERSION == 2
    opened = open_save(decode(msgpack.packb(doc), "old.wargrid"))
    assert opened.checked and opened.note == ""
    _same(opened.game, _played())
    assert opened.game.answered == _played().answered


@pytest.mark.parametrize(
    ("path", "value", "why"),
    [
        (("checkpoints",), "nope", "'checkpoints' must be a list"),
        (("checkpoints", 1, 0), 10**6, "outside the game's logs"),
        (("checkpoints", 1, 6), {"models": "garbage"}, "has the wrong shape"),
        (("checkpoints", 1, 6), msgpack.packb({"models": "garbage"}), "state key "),
        (("checkpoints", 1, 6), b"\xc1", "state: not readable"),
        (("checkpoints", 1, 6), msgpack.packb([1]), "state: not a map"),
        (("checkpoints", 1, 3), 2**40, "the dice counter of the checkpoint is 1099511627776"),
    ],
)
def test_a_damaged_checkpoint_is_dropped_with_a_message(
    path: tuple[Any, ...], value: Any, why: str
) -> None:
    data = decode(msgpack.packb(mutated(_doc(), path, value)), "bad.wargrid")
    opened = open_save(data)
    assert opened.checked
    assert opened.note.startswith("The save's checkpoint was not used (")
    assert why in opened.note
    assert opened.note.endswith("the whole game was replayed.")
    _same(opened.game, _played())


def test_a_forged_earlier_checkpoint_is_caught_by_the_check_and_replaced() -> None:
    doc = _doc()
    doc["checkpoints"][0][5] = "Forged"  # the phase of the checkpoint before the last
    data = decode(msgpack.packb(doc), "forged.wargrid")
    opened = open_save(data)
    assert not opened.checked  # the last checkpoint is sound: opened there
    verdict = check_save(data)
    assert not verdict.verified and verdict.diverged_at is None
    assert "checkpoint at step" in verdict.problem
    _same(adopt(opened.game, verdict), _played())


def _no_roll_after_last_checkpoint() -> Game:
    """`_played` cut where its last checkpoint has no roll after it (none follows)."""
    want = _played()
    for at in reversed(want.checkpoints):
        game = want.replayed(want.choices[: at.step])
        if game.checkpoints[-1] == at and len(game.rolls) == at.rolls and at.rolls:
            return game
    raise AssertionError("no checkpoint of the game is followed by no roll")


@pytest.mark.parametrize("which", [-1, 0])
def test_a_damaged_dice_counter_is_caught_at_open_though_no_roll_follows(which: int) -> None:
    want = _no_roll_after_last_checkpoint()
    doc: dict[str, Any] = msgpack.unpackb(to_bytes(want))
    at = doc["checkpoints"][which]
    at[3] += 1
    data = decode(msgpack.packb(doc), "bad.wargrid")
    opened = open_save(data)
    assert opened.checked  # not opened at the checkpoint: its counter would deal other dice
    assert opened.note == (
        f"The save's checkpoint was not used (step {at[0]}: the dice counter of the "
        f"checkpoint is {at[3]}, but the rolls before it threw {at[3] - 1} dice); the whole "
        "game was replayed."
    )
    _same(opened.game, want)
    assert opened.game.pending is not None
    opened.game.choose(RandomBot(3).choose(opened.game.pending))  # plays on as the original
    twin = want.replayed(want.choices)
    twin.choose(opened.game.choices[-1])
    _same(opened.game, twin)


def test_a_save_that_diverges_is_named_at_its_step() -> None:
    doc = _doc()
    doc["checkups"][9][2] = "0" * 16
    verdict = check_save(decode(msgpack.packb(doc), "edited.wargrid"))
    assert verdict.diverged_at == 10 and verdict.game is None
    assert verdict.problem.startswith("step 10: state differs")


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_damage_to_the_checkpoints_never_beats_the_choices(data: st.DataObject) -> None:
    doc = _doc()
    paths = [p for p in tree_paths(doc) if p[0] in ("checkpoints", "start")]
    path = data.draw(st.sampled_from(paths), label="path")
    value = data.draw(st.sampled_from(WRONG_SAVE_VALUES), label="value")
    try:
        saved = decode(msgpack.packb(mutated(doc, path, value)), "hostile.wargrid")
    except SaveError:
        return  # 'start' of the wrong shape: the file is refused, nothing is lost
    opened = open_save(saved)
    game = opened.game if opened.checked else adopt(opened.game, check_save(saved))
    _same(game, _played())


def test_an_engine_bug_rolls_back_from_the_last_checkpoint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    want = _played()
    game = want.replayed(want.choices[:-1])
    before = (game.state_hash(), game.pending, game.rolls, len(game.events))
    made = calls_of(monkeypatch, Game, "choose")
    resume = Game._resume

    def failing(g: Game, choice: Any) -> None:
        resume(g, choice)
        if choice is not None and len(g.choices) == len(want.choices):
            raise KeyError("boom in the rules")

    monkeypatch.setattr(Game, "_resume", failing)
    with pytest.raises(EngineBugError):
        game.choose(want.choices[-1])
    assert (game.state_hash(), game.pending, game.rolls, len(game.events)) == before
    # The rollback replayed the choices since the last checkpoint, not all of them.
    assert len(made) - 1 < len(want.choices) // 10
