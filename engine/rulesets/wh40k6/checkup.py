"""What a wh40k6 checkup hashes and a checkpoint keeps, packed: byte for byte the same.

A checkup packs and hashes the whole snapshot after every choice (`engine.game.Game.
state_hash`): a sixth of loading and verifying a save. Most of it is the same from one
choice to the next, so the parts that rarely change are packed once and their bytes put
in (`engine.stateencoder.pack_spliced`): the terrain until it changes, and each model's
snapshot by the values it is made of (a model that did not change is not packed again),
and each unit's.
A checkpoint writes and packs the terrain once until it changes, too, and each model
and unit once per value of its fields.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from typing import Any

import msgpack

from engine.rulesets.wh40k6.state import TURN_FLAGS, Model, State, Unit
from engine.stateencoder import encode_packed, pack_spliced

_PACKED: dict[tuple[Any, ...], bytes] = {}
"""A model's `model_key` or a unit's `unit_key` -> its bytes (the key's own packing)."""
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


_turn_flags = attrgetter(*TURN_FLAGS)


def unit_key(u: Unit) -> tuple[Any, ...]:
    """`Unit.snapshot` as a tuple, as `model_key` is a model's (tests hold them alike)."""
    return (
        u.id,
        tuple(u.models),
        _turn_flags(u),
        u.shot_target,
        tuple(sorted(u.fired_types)),
        u.packs,
        u.overwatch_used,
        u.falling_back,
        u.ground_until,
        u.counts_moved_until,
        tuple(u.effects),
        u.embarked_in,
        u.in_reserve,
        u.infiltrating,
        u.destroyed,
        u.activated,
        u.at_phase_start,
        u.pinning_tested,
        u.warlord,
    )


def packed_snapshot(state: State) -> bytes:
    """``state.snapshot()`` packed (msgpack, binary type)."""
    models: list[Any] = []  # stand in for the snapshots of models and units, whose
    units: list[Any] = []  # bytes go in
    snapshot = state.snapshot(models, units)
    terrain = snapshot["terrain"]
    cached = state.cache.get("snapshot:terrain:packed")
    if cached is None or cached[0] is not terrain:
        cached = (terrain, msgpack.packb(terrain, use_bin_type=True))
        state.cache["snapshot:terrain:packed"] = cached
    return pack_spliced(
        snapshot,
        {
            "terrain": cached,
            "units": (units, _packed(map(unit_key, state.units.values()), len(state.units))),
            "models": (models, _packed(map(model_key, state.models.values()), len(state.models))),
        },
    )


def _packed(keys: Iterator[tuple[Any, ...]], n: int) -> bytes:
    """The list of ``n`` snapshots these keys stand for, packed: each key once."""
    packed = _PACKED
    parts = [_array_header(n)]
    for key in keys:
        done = packed.get(key)
        if done is None:
            if len(packed) >= _MOST:
                packed.clear()
            done = packed[key] = msgpack.packb(key, use_bin_type=True)
        parts.append(done)
    return b"".join(parts)


def packed_state(state: State, static: tuple[type, ...]) -> bytes:
    """The state as a checkpoint keeps it (`engine.ruleset.Ruleset.packed_state`), the
    terrain written and packed once until it changes (4% of a bot game), and each model
    and unit once per value of its fields (`engine.recordkeys`): between two phases
    most did not change, and writing them was most of a checkpoint."""
    terrain = state.terrain
    given = state.cache.get("state:terrain")
    if given is None or given[0] is not terrain:
        written = [[list(cell), kind] for cell, kind in terrain.items()]
        given = (terrain, written, msgpack.packb(written, use_bin_type=True))
        state.cache["state:terrain"] = given
    return encode_packed(state, static, (given,), (Model, Unit))


def _array_header(n: int) -> bytes:
    header: bytes = msgpack.Packer().pack_array_header(n)
    return header
