"""A wh40k6 checkpoint reuses each model's and unit's written bytes while its key is the
same (engine.recordkeys): the bytes must be packing's own, afresh, at every choice."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest

from engine import recordkeys, stateencoder
from engine.board import Board, Cell
from engine.bot import RandomBot
from engine.checkpoints import packed_state
from engine.game import Game
from engine.recordkeys import key_of
from engine.rulesets.wh40k6.ruleset import Wh40k6
from engine.rulesets.wh40k6.state import Model, Unit
from engine.scenario import SHIPPED_SCENARIOS, load_scenario
from engine.statecodec import _plan

STATIC = (Board, *Wh40k6.STATIC)


@pytest.mark.parametrize("name", ["wh40k6-open-war", "wh40k6-emperors-will"])
def test_checkpoints_reusing_models_and_units_are_the_bytes_of_packing_afresh(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every choice of a seeded bot game the checkpoint is the very bytes of writing
    and packing the state with every cache emptied, restores the same state, and most
    models and units were not written again."""
    packs = 0

    class Counted(recordkeys._Kept):
        __slots__ = ()

        def __init__(self, *args: Any) -> None:
            nonlocal packs
            packs += 1
            super().__init__(*args)

    monkeypatch.setattr(recordkeys, "_Kept", Counted)
    scenario = load_scenario(SHIPPED_SCENARIOS / f"{name}.toml")
    game, bot = Game(scenario, 5), RandomBot(5)
    written = 0
    while game.pending is not None and len(game.choices) < 200:
        game.choose(bot.choose(game.pending))
        fast = game.ruleset.packed_state()
        state = game.ruleset.state  # type: ignore[attr-defined]
        written += len(state.models) + len(state.units)
        stateencoder._FROZEN.clear()
        assert fast == packed_state(game.ruleset.state_data())
    fork = game.ruleset.fork()
    fork.restore_state(msgpack.unpackb(game.ruleset.packed_state()))
    assert fork.snapshot() == game.ruleset.snapshot()
    assert 0 < packs < written / 5  # reused: packed again only where changed


def _other(value: Any, hint: Any) -> Any:
    """A value of the field's kind unlike ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "x" if "str" in str(hint) else Cell(99, 99)
    if isinstance(value, Cell):
        return Cell(value.x + 1, value.y)
    if isinstance(value, list):
        return [*value, ("x", 1, 2) if "tuple" in str(hint) else "x" if "str" in str(hint) else 7]
    if isinstance(value, set):
        return {*value, "x"}
    if isinstance(value, dict):
        return {**value, "x": Cell(1, 1)}
    return dataclasses.replace(value)  # a frozen record: another one, equal


def test_a_models_or_units_key_changes_with_each_saved_field() -> None:
    """A field left out of a key would let a changed record's old bytes stand in."""
    scenario = load_scenario(SHIPPED_SCENARIOS / "wh40k6-open-war.toml")
    state = Game(scenario, 1).ruleset.state  # type: ignore[attr-defined]
    for record in (next(iter(state.models.values())), next(iter(state.units.values()))):
        kind: Any = type(record)
        assert kind in (Model, Unit)
        key = key_of(kind, STATIC)
        assert key is not None
        checked = 0
        for name, hint, is_static, _ in _plan(kind, STATIC):
            if is_static:
                continue
            changed = dataclasses.replace(record)
            setattr(changed, name, _other(getattr(record, name), hint))
            assert key(changed) != key(record), name
            checked += 1
        assert checked >= 19
