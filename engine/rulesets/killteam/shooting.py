"""The Shooting phase (digest killteam). Placeholder until the phase lands."""

from __future__ import annotations

from engine.decisions import Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState


def shooting_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Placeholder: nothing happens yet."""
    return
    yield
