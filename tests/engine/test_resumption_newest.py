"""A save read in part (its newest events and rolls, `decode(recent=N)`) opens at its
checkpoint as the whole file does, and is filled in from the whole file after."""

from __future__ import annotations

from functools import partial

import msgpack
import pytest

from engine.errors import ReplayMismatchError
from engine.resumption import fill_unread, open_save, opens_at_checkpoint
from engine.save import decode, has_unread, to_bytes
from tests.engine.test_resumption import _doc, _played, _same

RECENT = 40


def test_a_partial_read_opens_at_the_checkpoint_as_the_whole_file_does() -> None:
    raw = to_bytes(_played())
    newest = decode(raw, "g.wargrid", recent=RECENT)
    assert newest.unread != (0, 0) and opens_at_checkpoint(newest)
    opened = open_save(newest, partial(decode, raw, "g.wargrid"))
    assert not opened.checked and has_unread(opened.game)
    fill_unread(opened.game, decode(raw, "g.wargrid"))
    assert not has_unread(opened.game)
    _same(opened.game, open_save(decode(raw, "g.wargrid")).game)


def test_a_damaged_dice_counter_is_caught_by_a_partial_read_too() -> None:
    """The counter is checked against the dice of every roll before it; a partial read
    counts the dice of those it left out without building them."""
    doc = _doc()
    doc["checkpoints"][-1][3] += 1
    raw = msgpack.packb(doc)
    newest = decode(raw, "g.wargrid", recent=RECENT)
    assert newest.unread[1] > 0
    opened = open_save(newest, partial(decode, raw, "g.wargrid"))
    assert opened.checked and "dice counter" in opened.note  # replayed from the choices
    assert not has_unread(opened.game)
    _same(opened.game, _played())


def test_a_partial_read_past_the_checkpoint_is_refused() -> None:
    """Events and rolls left out after the checkpoint would be lost: such a read must
    be whole (`opens_at_checkpoint` is what the app asks first)."""
    raw = to_bytes(_played())
    newest = decode(raw, "g.wargrid", recent=1)
    assert not opens_at_checkpoint(newest)
    with pytest.raises(ValueError, match="partial read"):
        open_save(newest)


def test_filling_from_another_file_is_refused() -> None:
    raw = to_bytes(_played())
    game = open_save(decode(raw, "g.wargrid", recent=RECENT)).game
    shorter = decode(to_bytes(_played(steps=20)), "other.wargrid")
    with pytest.raises(ReplayMismatchError):
        fill_unread(game, shorter)


def test_a_decision_made_as_answered_is_the_one_the_constructor_makes() -> None:
    from engine.decisions import Decision, DecisionKind, Option, answered_as

    made = answered_as(7, "a,b", "(made before)")
    want = Decision(0, DecisionKind.PICK_OPTION, "(made before)", (Option("a,b", "a,b"),), id=7)
    assert made == want and made.option("a,b") == want.option("a,b") and "a,b" in made
    assert made.keys() == ("a,b",) and made.notes == () and made.why_not is None
