"""Roads of the Apocalypse: warbands with FP pools and fatigue (digest shared/rules/fatigue.md).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.rulesets.fatigue.ruleset import Fatigue

__all__ = ["Fatigue"]
