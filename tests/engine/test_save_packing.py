"""Saves pack a game's logs incrementally (the autosave after each choice packs only what
it added): the bytes must be exactly those of packing the whole document at once, after
every choice, after an undo, and for a game whose logs were packed before."""

from __future__ import annotations

from pathlib import Path

import msgpack

from engine.bot import RandomBot
from engine.game import Game
from engine.save import decode, replay, to_bytes
from engine.scenario import load_scenario

SCENARIOS = Path(__file__).parents[2] / "scenarios"


def whole(raw: bytes) -> bytes:
    """The document of ``raw`` packed at once, as msgpack does it."""
    packed: bytes = msgpack.packb(msgpack.unpackb(raw, raw=False), use_bin_type=True)
    return packed


def test_every_autosave_is_the_whole_document_packed_at_once() -> None:
    game = Game(load_scenario(SCENARIOS / "confrontation-muster.toml"), 5)
    bot = RandomBot(5)
    while game.pending is not None and len(game.choices) < 120:
        game.choose(bot.choose(game.pending))
        raw = to_bytes(game)
        assert raw == whole(raw)
    cold = replay(decode(raw, "cold.wargrid"))  # a game whose logs were never packed
    again = msgpack.unpackb(to_bytes(cold))
    doc = msgpack.unpackb(raw)
    assert again.pop("scenario")["source"] != doc.pop("scenario")["source"]  # names the file
    assert again == doc
    assert decode(raw, "kept.wargrid").choices == tuple(game.choices)


def test_an_undone_game_packs_its_own_shorter_logs() -> None:
    game = Game(load_scenario(SCENARIOS / "killteam-crossroads.toml"), 2)
    while game.pending is not None and len(game.choices) < 60:
        game.choose_key(game.pending.keys()[-1])
        to_bytes(game)
    while not game.can_undo:
        game.choose_key(game.pending.keys()[0])  # type: ignore[union-attr]
    before = to_bytes(game)
    undone = game.undone()
    raw = to_bytes(undone)
    assert raw == whole(raw)
    assert len(decode(raw, "undone.wargrid").choices) == len(game.choices) - 1
    assert to_bytes(game) == before  # the original game's packing is its own
