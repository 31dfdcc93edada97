"""An asset window: who may play now, and what the cards played in it change.

Digest apocalypse §6.4.2 (PROPOSED engine protocol): each fixed timing point opens a
window with its participants in order; some cards work on what the window is about (the
initiative dice, the unit arriving from Reserve, the unit being resolved).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Window:
    """One open window and its context."""

    name: str
    """W-INIT, W-DESERT, W-RESERVE, W-PREACT, W-ACT-OWN, W-ACT-ENEMY, W-DMG-SELECT,
    W-MORALE or W-DMG-END."""
    players: tuple[int, ...]
    """Participants in the order they are offered."""
    detachment: str | None = None
    """The activating detachment (W-ACT-OWN, W-ACT-ENEMY)."""
    unit: str | None = None
    """The unit arriving (W-RESERVE) or being resolved (W-DMG-SELECT, W-MORALE)."""
    dice: list[int] = field(default_factory=list)
    """The initiative dice by seat (W-INIT)."""
    tie: int | None = None
    """The seat tied initiative dice go to (W-INIT): what a re-roll's odds are told by."""
    rerolled: set[int] = field(default_factory=set)
    """Seats whose initiative die was re-rolled (each die at most once)."""
    ambush: bool = False
    """Ambush was played: the arriving unit sets up like a DEEP unit."""
    auto_pass: bool = False
    """Steady Nerves was played: the morale test is passed without a roll."""
