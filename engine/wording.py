"""Small English helpers for the words rulesets put in prompts, options and events.

Shared by every ruleset, so "1 models" is fixed once. Must not import tui, textual, rich
or any ruleset.
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in agreement: "1 model", "3 models" ("1 die", "2 dice")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def possessive(name: str) -> str:
    """``name``'s, or a plural name's bare apostrophe: "Iron Wardens'", "Horde's"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def asked(side: str, prompt: str) -> str:
    """A step's question under the side that answered it, the side named once: fatigue
    asks "South player: choose your force", which read "South player: South player:
    choose your force" under it."""
    return prompt if prompt.startswith(f"{side}:") else f"{side}: {prompt}"


def order_chosen(winner: str, other: str, winner_first: bool, what: str = "deploy") -> str:
    """The log line of a roll-off winner's choice of who goes first: the other player
    learns from it why they go first (the Decision is the winner's, shown to no one else).
    "Horde chooses to deploy first", "Horde chooses to deploy second (Iron Wardens first)"."""
    if winner_first:
        return f"{winner} chooses to {what} first"
    return f"{winner} chooses to {what} second ({other} first)"
