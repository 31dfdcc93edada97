"""Damage and casualties (digest fatigue §6.9).

The owner of the struck unit gives each hit to a model (an already wounded one if any,
§6.9 item 1), D2 damage is rolled per hit in allocation order (§6.1 item 5), and a model
whose wounds reach its Resilience is out of action for the rest of the game.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import DecisionKind, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import DAMAGE
from engine.rulesets.fatigue.prompts import model_option, pick
from engine.rulesets.fatigue.scrums import leave_scrum
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.rulesets.fatigue.tables import d2
from engine.wording import counted, says


@dataclass(frozen=True, slots=True)
class Harm:
    """What a batch of hits did to a unit."""

    applied: int
    """Damage actually absorbed (capped at each model's remaining wounds, §6.8 step 5)."""
    removed: int
    """Models put out of action."""


def take_hits(
    state: FState, ctx: RuleContext, unit: Unit, hits: list[int], source: str
) -> Procedure[Harm]:
    """Allocate and apply hits to a unit (§6.9 items 1-3; decision points 13, 16, 20).

    ``hits`` holds each hit's damage, 0 for D2.
    """
    applied = removed = 0
    for number, damage in enumerate(hits, start=1):
        alive = unit.alive()
        if not alive:
            break
        wounded = [m for m in alive if m.wounds_taken > 0]
        candidates = wounded or alive
        model = candidates[0]
        if len(candidates) > 1:
            text = "D2" if damage == 0 else str(damage)
            key = yield from pick(
                unit.player,
                DecisionKind.PICK_MODEL,
                f"Hit {number} of {len(hits)} on {unit.name} ({text} damage, {source}): "
                "which model takes it?",
                [
                    model_option(m, f"{m.name} ({counted(m.wounds_left, 'wound')} left)")
                    for m in candidates
                ],
            )
            model = state.models[key]
        elif len(alive) > 1:
            ctx.answered(
                f"Hit {number} on {unit.name}: {model.name} is wounded, so it takes it.",
                unit.player,
            )
        amount = damage
        if damage == 0:
            amount = d2(
                ctx.dice.d6(
                    player=1 - unit.player, reason=f"D2 damage on {model.name}", check=DAMAGE
                )
            )
        done, out = wound(state, ctx, model, amount, source)
        applied += done
        removed += out
    return Harm(applied, removed)


def wound(
    state: FState, ctx: RuleContext, model: Model, amount: int, source: str
) -> tuple[int, int]:
    """Give damage to one model, capped at its wounds left (§6.9 item 2).

    Returns the damage absorbed and 1 if the model went out of action.
    """
    done = min(amount, model.wounds_left)
    model.wounds_taken += done
    ctx.emit(
        "ModelWounded",
        f"{model.name} takes {done} damage ({source}), {counted(model.wounds_left, 'wound')} left",
        model=model.id,
        damage=done,
    )
    if model.wounds_left <= 0:
        remove_model(state, ctx, model, source)
        return done, 1
    return done, 0


def remove_model(state: FState, ctx: RuleContext, model: Model, why: str) -> None:
    """Out of action: off the table for good; a unit with no models is destroyed (§6.9)."""
    model.out_of_action = True
    model.cell = None
    ctx.emit("ModelOutOfAction", f"{model.name} is out of action ({why})", model=model.id)
    unit = state.unit_of(model)
    if unit.destroyed:
        ctx.emit(
            "UnitDestroyed", f"{says(unit.name, 'is')} destroyed", unit=unit.id, player=unit.player
        )
        leave_scrum(state, ctx, unit)
