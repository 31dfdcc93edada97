"""Mission 6, The Relic: picking up and carrying the objective (digest wh40k6 §4.2).

The digest says only that a scoring unit can pick the Relic up and carry it. PROPOSED
details: a model of a scoring unit that ends a move in base contact with the Relic (or on
its cell) picks it up; the Relic then moves with that model; it is dropped where the
model stands when the model is removed or its unit falls back.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.footprints import Rect, rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.state import Model, State, Unit

PICK_UP = 1
"""A model of a scoring unit this near the Relic (base contact) at the end of a move picks
it up (PROPOSED)."""


def is_scoring(state: State, unit: Unit) -> bool:
    """Troops (plus the mission's bonus slot) not falling back, embarked or vehicles (§4.6)."""
    if unit.destroyed or unit.falling_back or unit.embarked_in is not None or unit.in_reserve:
        return False
    models = state.on_table(unit)
    if not models or any(m.is_vehicle for m in models):
        return False
    bonus = t.MISSIONS[state.mission].bonus_scoring
    return unit.slot == "Troops" or (bonus is not None and unit.slot == bonus)


def is_denial(state: State, unit: Unit) -> bool:
    """Any other unit on the table that is not falling back or embarked (§4.6, PROPOSED)."""
    if unit.destroyed or unit.falling_back or unit.embarked_in is not None or unit.in_reserve:
        return False
    models = state.on_table(unit)
    return bool(models) and not all(m.profile.is_flyer for m in models)


def carrier(state: State) -> Model | None:
    return next((m for m in state.table_models() if m.carries_relic), None)


def check_relic(state: State, ctx: RuleContext, unit: Unit) -> None:
    """After a move: a scoring model next to the Relic picks it up (PROPOSED)."""
    relic = state.relic
    if state.mission != 6 or relic is None or not is_scoring(state, unit):
        return
    spot = Rect(relic.x, relic.y, relic.x, relic.y)
    for m in state.on_table(unit):
        if rect_distance(m.rect, spot) <= PICK_UP:
            m.carries_relic = True
            state.relic = None
            ctx.emit("RelicTaken", f"{m.name} picks up the Relic", model=m.id, player=m.player)
            return


def relic_cell(state: State) -> Rect | None:
    """Where the Relic is now: on the ground, or with its carrier."""
    if state.relic is not None:
        return Rect(state.relic.x, state.relic.y, state.relic.x, state.relic.y)
    holder = carrier(state)
    return holder.rect if holder is not None else None
