"""The registry of rulesets: an explicit list, no registration by import side effect.

Rulesets must never import this module (it can import all of them, so importing it would
let one ruleset reach its siblings).

A ruleset's package is imported when it is first asked for (`find_ruleset`): opening a
Kill Team save or starting a hosted session then loads Kill Team alone, not the ~1 s of
bytecode (on a loaded machine) the five take together. `RULESETS` imports them all.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from engine.errors import UnknownRulesetError
from engine.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a ruleset lives and the names it answers to (its INFO's, which a test
    compares with these)."""

    name: str
    module: str
    cls: str
    aliases: tuple[str, ...]

    def load(self) -> type[Ruleset]:
        """The ruleset class (its package imported on first use)."""
        found: type[Ruleset] = getattr(importlib.import_module(self.module), self.cls)
        return found


# One entry per ruleset, in menu order.
ENTRIES: tuple[Entry, ...] = (
    Entry("killteam", "engine.rulesets.killteam", "KillTeam", ("kill team", "kt", "killteam2018")),
    Entry(
        "confrontation",
        "engine.rulesets.confrontation",
        "Confrontation",
        ("confrontation3", "rackham"),
    ),
    Entry("apocalypse", "engine.rulesets.apocalypse", "Apocalypse", ("40k apocalypse", "apoc")),
    Entry(
        "fatigue",
        "engine.rulesets.fatigue",
        "Fatigue",
        ("rota", "roads of the apocalypse", "roads"),
    ),
    Entry(
        "wh40k6", "engine.rulesets.wh40k6", "Wh40k6", ("40k", "wh40k", "warhammer 40000", "40k6")
    ),
)


def __getattr__(name: str) -> tuple[type[Ruleset], ...]:
    """``RULESETS``: every ruleset wargrid can play, in menu order (imports them all)."""
    if name == "RULESETS":
        return tuple(entry.load() for entry in ENTRIES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def find_ruleset(name: str) -> type[Ruleset]:
    """The ruleset registered under ``name`` or one of its aliases.

    Raises:
        UnknownRulesetError: listing the valid names.
    """
    wanted = name.strip().lower()
    for entry in ENTRIES:
        if wanted == entry.name or wanted in (a.lower() for a in entry.aliases):
            return entry.load()
    names = ", ".join(entry.name for entry in ENTRIES)
    raise UnknownRulesetError(f"unknown ruleset {name!r}; valid names: {names}")
