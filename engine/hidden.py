"""Hidden information: secret Decisions and face-down ordered stacks.

Hot-seat play shares one screen, so a secret is kept by two things together: the
Decision that sets it is marked ``hidden`` (the TUI shows a hand-over screen and hides
it from the other player), and what the opponent may see of the result is only what has
been revealed. Confrontation's activation deck is the first user (digest confrontation
§6.2: each player stacks his cards face down, and they are revealed one at a time from
the top); Apocalypse's secret orders and hidden asset hands are the same need.

A `SecretStack` keeps its order private: its `public` view is the count left and the
items already revealed, and it is what a ruleset should put in a GameView or an event.
The full order is still part of the ruleset snapshot (hashed for replays, never shown).

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.dice import face


def guessed_order(items: Sequence[str], seed: int) -> list[str]:
    """``items`` in an order made from ``seed`` and the set of items alone: what someone
    who may not see the order assumes (a computer player's look-ahead). Sorting first
    makes the guess the same whatever the real order was."""
    order = sorted(items)
    for i in range(len(order) - 1, 0, -1):
        j = face(seed, i, i + 1) - 1
        order[i], order[j] = order[j], order[i]
    return order


class SecretStack:
    """A face-down stack of item keys, known to its owner only, revealed from the top."""

    # Declared for checkpoints (engine.statecodec saves the annotated attributes).
    owner: int
    _order: list[str]
    _revealed: list[str]

    def __init__(self, owner: int, order: Sequence[str] = ()) -> None:
        self.owner = owner
        """Seat who stacked it and may know the order."""
        self._order = list(order)
        self._revealed = []

    def stack(self, order: Sequence[str]) -> None:
        """Set a new face-down order (a new round's deck); forgets earlier reveals."""
        if len(set(order)) != len(order):
            raise ValueError("a secret stack cannot hold the same item twice")
        self._order = list(order)
        self._revealed = []

    def reveal(self) -> str:
        """Take the top item face up and return it."""
        if not self._order:
            raise IndexError("the stack is empty")
        item = self._order.pop(0)
        self._revealed.append(item)
        return item

    def __len__(self) -> int:
        """How many items are still face down."""
        return len(self._order)

    @property
    def revealed(self) -> tuple[str, ...]:
        """Items revealed so far, in reveal order (public)."""
        return tuple(self._revealed)

    def public(self) -> tuple[int, tuple[str, ...]]:
        """What the opponent may know: the count left face down, and the revealed items."""
        return len(self._order), tuple(self._revealed)

    def secret_order(self, viewer: int) -> tuple[str, ...]:
        """The face-down order, for its owner only.

        Raises:
            PermissionError: ``viewer`` is not the owner.
        """
        if viewer != self.owner:
            raise PermissionError("only the owner of a secret stack may see its order")
        return tuple(self._order)

    def snapshot(self) -> list[object]:
        """Full state for the ruleset snapshot (hashed for replay checks, never displayed)."""
        return [self.owner, list(self._order), list(self._revealed)]

    def guess(self, viewer: int, seed: int) -> None:
        """As ``viewer`` may know it: another seat's face-down order becomes a guess
        (`guessed_order`); the owner keeps its own. For a computer player's copy only."""
        if viewer != self.owner:
            self._order = guessed_order(self._order, seed)


def order_secretly(
    player: int, items: Sequence[tuple[str, str]], what: str
) -> Procedure[tuple[str, ...]]:
    """Ask ``player`` to order ``items`` (key, label) face down; returns the keys top first.

    Every answer is a hidden ORDER Decision ("which comes next from the top?"); the last
    item goes to the bottom without a question. Nothing is emitted: the caller decides
    what the opponent may learn (usually only that the stack was made, and its size).
    """
    left = list(items)
    order: list[str] = []
    total = len(left)
    while len(left) > 1:
        position = len(order) + 1
        where = "on top" if position == 1 else f"in position {position} of {total}"
        choice = yield Decision(
            player,
            DecisionKind.ORDER,
            f"Secretly stack your {what}: which goes {where}?",
            tuple(Option(key, label) for key, label in left),
            hidden=True,
        )
        picked = next(i for i, (key, _) in enumerate(left) if key == choice.key)
        order.append(left.pop(picked)[0])
    order.extend(key for key, _ in left)
    return tuple(order)


def ask_secretly(
    player: int,
    prompt: str,
    options: Sequence[Option],
    *,
    kind: DecisionKind = DecisionKind.PICK_OPTION,
    subject: str | None = None,
) -> Procedure[str]:
    """Ask one hidden Decision (a secret order, a card from a hand) and return the key."""
    choice = yield Decision(player, kind, prompt, tuple(options), hidden=True, subject=subject)
    return choice.key
