"""Confrontation 3rd edition (Rackham), starter rules (digest shared/rules/confrontation.md).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.rulesets.confrontation.ruleset import Confrontation

__all__ = ["Confrontation"]
