"""A save read in part (`decode(recent=N)`): the newest events and rolls, checked as in a
whole read; the earlier ones stand-ins until the whole file is read."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from engine.chronicle import in_order
from engine.errors import SaveError
from engine.save import decode, to_bytes
from engine.save_reading import UNREAD_EVENT, UNREAD_ROLL
from tests.engine.test_save import played


def damaged(raw: bytes, log: str, index: int, record: Any) -> bytes:
    """``raw`` with entry ``index`` of ``log`` replaced by ``record``."""
    doc = msgpack.unpackb(raw, raw=False)
    doc[log][index] = record
    packed: bytes = msgpack.packb(doc, use_bin_type=True)
    return packed


def test_the_newest_entries_are_read_and_the_earlier_stand_in() -> None:
    game = played(3, steps=200)
    raw = to_bytes(game)
    whole, part = decode(raw, "g"), decode(raw, "g", recent=30)
    events, rolls = part.unread
    assert rolls == len(game.dice.rolls) - 30
    assert sum(1 for e in game.events[events:] if e.text) == 30 > len(game.events) - events - 30
    assert part.events[:events] == (UNREAD_EVENT,) * events
    assert part.rolls[:rolls] == (UNREAD_ROLL,) * rolls
    assert part.events[events:] == whole.events[events:]
    assert part.rolls[rolls:] == whole.rolls[rolls:]
    assert (part.choices, part.checkups, part.checkpoints) == (
        whole.choices,
        whole.checkups,
        whole.checkpoints,
    )
    # The log's last 30 lines are the same: stand-ins are never among them, though
    # events without text (a model passed with the rest of its side) are among the newest.
    assert (
        list(in_order(part.rolls, part.events))[-30:]
        == list(in_order(whole.rolls, whole.events))[-30:]
    )
    assert whole.unread == (0, 0) and decode(raw, "g", recent=10_000).unread == (0, 0)


def test_damage_in_what_is_read_is_refused_at_once() -> None:
    game = played(3, steps=200)
    raw = to_bytes(game)
    bad = damaged(raw, "events", -1, [1, "not an event"])
    with pytest.raises(SaveError, match="an entry of 'events' has the wrong shape"):
        decode(bad, "g", recent=30)
    bad = damaged(raw, "rolls", -2, [0, 0, "hit\x1b[2J", "1D6", [3]])  # a terminal escape
    where = len(game.dice.rolls) - 2  # named by its place in the file, not in the part read
    with pytest.raises(SaveError, match=rf"g: 'rolls\[{where}\]\[2\]': .* control character"):
        decode(bad, "g", recent=30)


def test_damage_in_what_is_not_read_waits_for_the_whole_read() -> None:
    """The stand-ins' records are checked when they are read: by the whole read."""
    raw = to_bytes(played(3, steps=200))
    bad = damaged(raw, "events", 0, [1, "not an event"])
    assert decode(bad, "g", recent=30).unread[0] > 0
    with pytest.raises(SaveError, match="an entry of 'events' has the wrong shape"):
        decode(bad, "g")
