"""Warhammer 40,000: Apocalypse (2019), as specified by ``shared/rules/apocalypse.md``.

Imports only the engine core; never another ruleset, the registry, or tui.
"""

from __future__ import annotations

from engine.rulesets.apocalypse.ruleset import Apocalypse

__all__ = ["Apocalypse"]
