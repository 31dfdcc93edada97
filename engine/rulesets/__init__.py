"""The registry of rulesets: an explicit list, no registration by import side effect.

Rulesets must never import this module (it imports all of them, so importing it would
let one ruleset reach its siblings).
"""

from __future__ import annotations

from engine.errors import UnknownRulesetError
from engine.ruleset import Ruleset
from engine.rulesets.apocalypse import Apocalypse
from engine.rulesets.confrontation import Confrontation
from engine.rulesets.fatigue import Fatigue
from engine.rulesets.killteam import KillTeam
from engine.rulesets.wh40k6 import Wh40k6

# One import and one RULESETS line per ruleset, in menu order.

RULESETS: tuple[type[Ruleset], ...] = (KillTeam, Confrontation, Apocalypse, Fatigue, Wh40k6)
"""Every ruleset wargrid can play, in menu order."""


def find_ruleset(name: str) -> type[Ruleset]:
    """The ruleset registered under ``name`` or one of its aliases.

    Raises:
        UnknownRulesetError: listing the valid names.
    """
    wanted = name.strip().lower()
    for ruleset in RULESETS:
        info = ruleset.INFO
        if wanted == info.name or wanted in (a.lower() for a in info.aliases):
            return ruleset
    names = ", ".join(r.INFO.name for r in RULESETS)
    raise UnknownRulesetError(f"unknown ruleset {name!r}; valid names: {names}")
