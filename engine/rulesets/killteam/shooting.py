"""The Shooting phase and Overwatch (digest killteam §6.5). Placeholder until it lands."""

from __future__ import annotations

from engine.decisions import Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model


def shooting_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Placeholder: nothing happens yet."""
    return
    yield


def can_overwatch(state: KTState, shooter: Model, charger: Model) -> bool:
    """Could ``shooter`` fire Overwatch at ``charger`` now (§6.3.6 step 2, §6.5.11)?"""
    return False


def overwatch(state: KTState, ctx: RuleContext, shooter: Model, charger: Model) -> Procedure[None]:
    """Fire Overwatch at the charger: hits only on unmodified 6s (§6.5.11)."""
    return
    yield
