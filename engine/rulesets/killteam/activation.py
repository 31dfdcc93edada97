"""Alternating activations, as the Shooting and Fight phases share them (killteam §6.5.1, §6.6.1).

Starting with a given player, players take turns picking one eligible model and
activating it; when one player has no eligible model left, the other activates all his
remaining ones (PROPOSED, §5.1). A player with one eligible model activates it unasked,
with a note. ``activate`` is responsible for marking the model done
(shot / fought / passed) so it stops being eligible.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model


def alternate(
    state: KTState,
    ctx: RuleContext,
    *,
    first: int,
    eligible: Callable[[int], list[Model]],
    activate: Callable[[Model], Procedure[None]],
    what: str,
) -> Procedure[None]:
    """Alternate one model at a time until neither player has an eligible model."""
    active = first
    while True:
        mine = eligible(active)
        if not mine:
            if not eligible(1 - active):
                return
            active = 1 - active
            continue
        if len(mine) == 1:
            ctx.answered(f"{what}: {mine[0].name} is your only model left to act.", active)
            model = mine[0]
        else:
            pick = yield Decision(
                active,
                DecisionKind.PICK_MODEL,
                f"{what}: choose your next model",
                tuple(Option(m.id, m.name, cell=m.cell, model=m.id) for m in mine),
            )
            model = state.models[pick.key]
        yield from activate(model)
        if eligible(1 - active):
            active = 1 - active
