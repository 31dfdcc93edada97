"""When the game screen covers the board before a seat decides: the hand-over rule.

Kept apart from the screen so the rule reads in one place: the seat changes at an open
decision (if the players want a screen then), any secret the other seat must not see
(always), and a secret the seat reaches without a change of seat after the last cover was
for the other player (the hand was shown uncovered before this rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import Decision


@dataclass
class HandOver:
    """Which seat the screen last showed, and which seat's secrets were last covered."""

    shown_player: int | None
    covered: int | None = None
    """The seat covered for its secrets since the seat last changed."""

    def cover(
        self, pending: Decision, *, previous_hidden: bool, force: bool, wanted: bool, alone: bool
    ) -> bool | None:
        """Whether to cover the board before ``pending`` (None: no cover; otherwise whether
        it hides a secret). ``wanted``: the players' setting, a screen at every change of
        seat; ``alone``: a person plays the computer, no one to hide from."""
        changed = pending.player != self.shown_player
        self.shown_player = pending.player
        if changed:
            self.covered = None
        if alone:
            return None
        hidden = pending.hidden or previous_hidden
        uncovered = pending.hidden and self.covered != pending.player
        if not force and not (uncovered or (changed and (hidden or wanted))):
            return None
        if hidden:  # the other seat was asked to look away: this seat's secrets are covered
            self.covered = pending.player
        return hidden
