"""Warhammer 40,000 6th edition (digest shared/rules/wh40k6.md).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.rulesets.wh40k6.ruleset import Wh40k6

__all__ = ["Wh40k6"]
