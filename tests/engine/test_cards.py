"""Card decks with hidden hands (engine.cards)."""

from __future__ import annotations

import pytest

from engine.cards import Deck, card_kind, copies


def test_copies_and_kinds() -> None:
    ids = copies([("smoke", 2), ("ambush", 1)])
    assert ids == ["smoke#1", "smoke#2", "ambush#1"]
    assert card_kind("smoke#2") == "smoke"
    with pytest.raises(ValueError):
        Deck(0, "d", ["a#1", "a#1"])


def test_shuffle_is_secret_and_reproducible() -> None:
    cards = copies([(k, 2) for k in "abcdefghij"])
    one, two, other = Deck(0, "assets-0", cards), Deck(0, "assets-0", cards), Deck(1, "x", cards)
    one.shuffle(42)
    two.shuffle(42)
    other.shuffle(42)
    assert one.draw_pile == two.draw_pile
    assert sorted(one.draw_pile) == sorted(cards)
    assert one.draw_pile != cards
    assert other.draw_pile != one.draw_pile  # each deck has its own stream


def test_drawing_refills_from_the_discard_pile() -> None:
    """Digest apocalypse §9 D18: 1 card left, draw 3: draw 1, shuffle discards, draw 2."""
    deck = Deck(0, "d", ["a#1", "b#1", "c#1", "d#1"])
    deck.draw(3, 1)
    deck.play(deck.hand[0])
    deck.play(deck.hand[0])
    assert len(deck.draw_pile) == 1 and len(deck.discard) == 2
    drawn, reshuffled = deck.draw(3, 1)
    assert reshuffled and len(drawn) == 3
    assert len(deck.hand) == 4 and not deck.discard and not deck.draw_pile
    drawn, reshuffled = deck.draw(2, 1)
    assert drawn == [] and not reshuffled


def test_public_view_hides_the_hand() -> None:
    deck = Deck(1, "d", ["a#1", "b#1", "c#1"])
    deck.draw(2, 0)
    deck.play(deck.hand[1])
    hand, pile, discard = deck.public()
    assert (hand, pile) == (1, 1) and len(discard) == 1
    assert deck.holding(card_kind(deck.hand[0])) == [deck.hand[0]]
