"""What a wh40k6 checkup hashes and a checkpoint keeps, packed: byte for byte the same.

A checkup packs and hashes the whole snapshot after every choice (`engine.game.Game.
state_hash`): a sixth of loading and verifying a save. Most of it is the same from one
choice to the next, so the parts that rarely change are packed once and their bytes put
in (`engine.stateencoder.pack_spliced`): the terrain until it changes, and each model's
snapshot by the values it is made of (a model that did not change is not packed again).
A checkpoint writes and packs the terrain once until it changes, too.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from typing import Any

import msgpack

from engine.rulesets.wh40k6.state import Model, State
from engine.stateencoder import encode_packed, pack_spliced

_PACKED_MODELS: dict[tuple[Any, ...], bytes] = {}
"""A model's `model_key` -> its bytes (the key's own packing: see `model_key`)."""
_MOST = 20_000
"""Keys kept at most (cleared when full: a long game has a few thousand)."""


def model_key(m: Model) -> tuple[Any, ...]:
    """`Model.snapshot` as a tuple of its values, the lists in it as tuples: hashable, and
    packed to the same bytes (msgpack packs a tuple as the list of its items). Tests hold
    the two to each other at every choice of bot games."""
    return (
        m.id,
        m.cell,
        m.wounds,
        m.removed,
        m.facing,
        m.moved,
        m.hp,
        m.speed,
        m.moved_inches,
        m.shaken_until,
        m.stunned_until,
        m.immobilised,
        tuple(sorted(m.destroyed_weapons)),
        m.wrecked,
        m.smoke_until,
        m.smoke_used,
        tuple(m.powers),
        m.powers_used,
        m.carries_relic,
    )


def packed_snapshot(state: State) -> bytes:
    """``state.snapshot()`` packed (msgpack, binary type)."""
    packed = _PACKED_MODELS
    parts = [_array_header(len(state.models))]
    for m in state.models.values():
        key = model_key(m)
        done = packed.get(key)
        if done is None:
            if len(packed) >= _MOST:
                packed.clear()
            done = packed[key] = msgpack.packb(key, use_bin_type=True)
        parts.append(done)
    models: list[Any] = []  # stands in for the models' snapshots, whose bytes go in
    snapshot = state.snapshot(models)
    terrain = snapshot["terrain"]
    cached = state.cache.get("snapshot:terrain:packed")
    if cached is None or cached[0] is not terrain:
        cached = (terrain, msgpack.packb(terrain, use_bin_type=True))
        state.cache["snapshot:terrain:packed"] = cached
    return pack_spliced(snapshot, {"terrain": cached, "models": (models, b"".join(parts))})


def packed_state(state: State, static: tuple[type, ...]) -> bytes:
    """The state as a checkpoint keeps it (`engine.ruleset.Ruleset.packed_state`), the
    terrain written and packed once until it changes (4% of a bot game)."""
    terrain = state.terrain
    given = state.cache.get("state:terrain")
    if given is None or given[0] is not terrain:
        written = [[list(cell), kind] for cell, kind in terrain.items()]
        given = (terrain, written, msgpack.packb(written, use_bin_type=True))
        state.cache["state:terrain"] = given
    return encode_packed(state, static, (given,))


def _array_header(n: int) -> bytes:
    header: bytes = msgpack.Packer().pack_array_header(n)
    return header
