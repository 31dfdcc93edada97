"""Small English helpers for the words rulesets put in prompts, options and events.

Shared by every ruleset, so "1 models" is fixed once. Must not import tui, textual, rich
or any ruleset.
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in agreement: "1 model", "3 models" ("1 die", "2 dice")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}
"""Third-person verbs whose plural is not the bare stem."""


def agrees(name: str, verb: str) -> str:
    """``verb`` (third person singular: "is", "wins", "chooses") in agreement with
    ``name``, a plural name (ending in s, as `possessive` reads it) taking the plural:
    "Warden Rangers are deployed", "Bogfen Raiders win", "Iron Wardens choose"; "Scrap
    Horde wins". The log said "Warden Rangers is deployed"."""
    if not name.endswith("s"):
        return verb
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    return verb.removesuffix("s")


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` in agreement: "Bogfen Raiders play", "Scrap Horde plays"."""
    return f"{name} {agrees(name, verb)}"


def agreeing(name: str, phrase: str) -> str:
    """``phrase`` ("chooses who deploys first") with its first verb agreeing with
    ``name``: "choose who deploys first" for "Bogfen Raiders"."""
    verb, space, rest = phrase.partition(" ")
    return agrees(name, verb) + space + rest


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
    chooses = agrees(winner, "chooses")
    if winner_first:
        return f"{winner} {chooses} to {what} first"
    return f"{winner} {chooses} to {what} second ({other} first)"
