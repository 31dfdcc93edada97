"""Card decks with a hidden hand: draw pile, hand and face-up discard pile for one player.

Several systems deal cards (Apocalypse's command assets, activation or event decks): a
face-down draw pile in a fixed shuffled order, a hand its owner alone may see, and a
public discard pile that is shuffled back in when the draw pile runs out. This module
holds that bookkeeping; what a card does stays in the ruleset.

Shuffles are secret: a recorded dice roll would print the new order in the roll log
that both players read, so a shuffle draws from the same portable counter-based
generator as the dice (`engine.dice.face`) on a stream derived from the game's seed and
the deck's own name, and records nothing. Replays still reproduce it exactly (same seed,
same shuffle count).

What the opponent may know of a deck is its `public` view: sizes and the discard pile.
The hand itself belongs only in hidden Decisions of its owner (`engine.hidden`) and in
the hashed ruleset snapshot.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import face
from engine.hidden import guessed_order


@dataclass(frozen=True, slots=True)
class Card:
    """What a card is: its kind, name, when it may be played and what it says."""

    kind: str
    """Key of the card type ("smoke_screen"); copies share it."""
    name: str
    """Name shown to players ("Smoke Screen")."""
    timing: str
    """When it may be played, in the ruleset's own terms ("W-ACT-ENEMY")."""
    text: str
    """Its effect in plain English."""


def card_kind(card_id: str) -> str:
    """The kind of a card copy: ids are ``"<kind>#<copy number>"``."""
    return card_id.split("#", 1)[0]


def copies(kinds: Sequence[tuple[str, int]]) -> list[str]:
    """Card ids for a deck list of (kind, number of copies), in list order."""
    return [f"{kind}#{n}" for kind, count in kinds for n in range(1, count + 1)]


class Deck:
    """One player's cards: face-down draw pile, secret hand, public discard pile."""

    # Declared for checkpoints (engine.statecodec saves the annotated attributes).
    owner: int
    name: str
    draw_pile: list[str]
    hand: list[str]
    discard: list[str]
    shuffles: int

    def __init__(self, owner: int, name: str, cards: Sequence[str]) -> None:
        if len(set(cards)) != len(cards):
            raise ValueError("card ids in a deck must be unique (use copies())")
        self.owner = owner
        """Seat who holds the hand."""
        self.name = name
        """Names the deck's secret shuffle stream (unique per game, e.g. "assets-0")."""
        self.draw_pile = list(cards)
        """Top card first."""
        self.hand = []
        self.discard = []
        """Oldest first; face up."""
        self.shuffles = 0
        """How many times this deck was shuffled (position of its secret stream)."""

    def shuffle(self, seed: int) -> None:
        """Shuffle the draw pile secretly (Fisher-Yates on the deck's own stream)."""
        stream = _stream(seed, self.name, self.shuffles)
        self.shuffles += 1
        pile = self.draw_pile
        for i in range(len(pile) - 1, 0, -1):
            j = face(stream, len(pile) - 1 - i, i + 1) - 1
            pile[i], pile[j] = pile[j], pile[i]

    def draw(self, count: int, seed: int) -> tuple[list[str], bool]:
        """Draw up to ``count`` cards into the hand, refilling from the discard pile.

        When the draw pile is empty the discard pile is shuffled into a new draw pile and
        drawing continues; when both are empty drawing stops. Returns the cards drawn and
        whether a reshuffle happened.
        """
        drawn: list[str] = []
        reshuffled = False
        for _ in range(count):
            if not self.draw_pile:
                if not self.discard:
                    break
                self.draw_pile, self.discard = self.discard, []
                self.shuffle(seed)
                reshuffled = True
            drawn.append(self.draw_pile.pop(0))
        self.hand.extend(drawn)
        return drawn, reshuffled

    def play(self, card_id: str) -> None:
        """Move a card from the hand to the discard pile (played or discarded).

        Raises:
            ValueError: the card is not in the hand.
        """
        self.hand.remove(card_id)
        self.discard.append(card_id)

    def guess(self, viewer: int, seed: int) -> None:
        """As ``viewer`` may know it (a computer player's copy only): nobody knows the
        draw pile's order, and another seat's hand is guessed from the unseen cards (hand
        and draw pile together), keeping both sizes."""
        unseen = self.draw_pile if viewer == self.owner else self.draw_pile + self.hand
        guess = guessed_order(unseen, seed)
        if viewer != self.owner:
            self.hand, guess = guess[: len(self.hand)], guess[len(self.hand) :]
        self.draw_pile = guess

    def holding(self, kind: str) -> list[str]:
        """Copies of a card kind in the hand, in hand order."""
        return [c for c in self.hand if card_kind(c) == kind]

    def public(self) -> tuple[int, int, tuple[str, ...]]:
        """What anyone may know: hand size, draw pile size and the discard pile."""
        return len(self.hand), len(self.draw_pile), tuple(self.discard)

    def snapshot(self) -> list[object]:
        """Full state for the ruleset snapshot (hashed for replays, never displayed)."""
        return [
            self.owner,
            list(self.draw_pile),
            list(self.hand),
            list(self.discard),
            self.shuffles,
        ]


def _stream(seed: int, name: str, number: int) -> int:
    """A 64-bit seed for one secret shuffle, derived from the game seed and the deck."""
    digest = hashlib.blake2b(f"{seed}:{name}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
