"""Kill Team (2018), as specified by the digest ``shared/rules/killteam.md``.

Imports only the engine core; never another ruleset, the registry, or tui.
"""

from __future__ import annotations

from engine.rulesets.killteam.ruleset import KillTeam

__all__ = ["KillTeam"]
