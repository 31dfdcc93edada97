"""Small English helpers for the words rulesets put in prompts, options and events.

Shared by every ruleset, so "1 models" is fixed once. Must not import tui, textual, rich
or any ruleset.
"""

from __future__ import annotations

import re


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in agreement: "1 model", "3 models" ("1 die", "2 dice")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were", "goes": "go"}
"""Third-person verbs whose plural is not the bare stem."""

SINGULAR_ENDINGS = ("ss", "us", "is", "os", "'s")
"""Endings of a last word that end in s and still name one: "Warboss", "Magus", "Chaos"."""


def plural(name: str) -> bool:
    """Whether ``name`` (a side, unit or model) is plural: its head word, the last word
    before any "of" or bracket ("Order of the Lantern" -> "Order"), ends in s but not
    in a singular ending ("Ashen Reavers", "Road Spears", "Scrap Gunners β"; not "Horde
    Warboss", "Pack-Boss", "B3 Magus"). Names come from saves and scenarios, so any text is read."""
    head = name.split("(", 1)[0].split(" of ", 1)[0]
    words = [w for w in re.split(r"[\s-]+", head) if w]
    while len(words) > 1 and (len(words[-1]) == 1 or words[-1].isdigit()):
        words.pop()  # a designator: "Scrap Gunners β", "Sky Raiders 2"
    word = words[-1].lower() if words else ""
    return len(word) > 1 and word.endswith("s") and not word.endswith(SINGULAR_ENDINGS)


def agrees(name: str, verb: str) -> str:
    """``verb`` (third person singular: "is", "wins", "chooses") in agreement with
    ``name``, a `plural` name taking the plural: "Warden Rangers are deployed", "Bogfen
    Raiders win", "Iron Wardens choose"; "Scrap Horde wins", "Horde Warboss wins". The
    log said "Warden Rangers is deployed"."""
    if not plural(name):
        return verb
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    return verb.removesuffix("s")


def its(name: str) -> str:
    """The pronoun that takes back ``name``: "Ashen Reavers end their movement"."""
    return "their" if plural(name) else "its"


def they(name: str) -> str:
    """The subject pronoun for ``name``: "the only unit they may pursue"."""
    return "they" if plural(name) else "it"


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` in agreement: "Bogfen Raiders play", "Scrap Horde plays"."""
    return f"{name} {agrees(name, verb)}"


def agreeing(name: str, phrase: str) -> str:
    """``phrase`` ("chooses who deploys first", "has taken its last wound") with its first
    verb, and any "its", agreeing with ``name``: "choose who deploys first", "have taken
    their last wound" for "Bogfen Raiders"."""
    verb, space, rest = phrase.partition(" ")
    if plural(name):
        rest = re.sub(r"\bits\b", "their", rest)
    return agrees(name, verb) + space + rest


def possessive(name: str) -> str:
    """``name``'s, or a `plural` name's bare apostrophe: "Iron Wardens'", "Horde's",
    "Warboss's", "Scrap Gunners α's"."""
    return f"{name}'" if plural(name) and name.endswith("s") else f"{name}'s"


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
