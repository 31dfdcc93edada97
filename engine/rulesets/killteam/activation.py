"""Alternating activations, as the Shooting and Fight phases share them (killteam §6.5.1, §6.6.1).

Starting with a given player, players take turns picking one eligible model and
activating it; when one player has no eligible model left, the other activates all his
remaining ones (PROPOSED, §5.1). A player with one eligible model activates it unasked,
with a note. ``activate`` is responsible for marking the model done
(shot / fought / passed) so it stops being eligible.

Passing is an activation (§6.5.1 "shoots or passes", §6.6.1 item 3), so a player may pass
all his remaining models of the section at once (`PASS_ALL`) instead of one by one: the
other player then activates his own remaining ones, as when the first has none left.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model

PASS_ALL = "pass_all"
"""Key of the option that passes every remaining model of the deciding player."""


def alternate(
    state: KTState,
    ctx: RuleContext,
    *,
    first: int,
    eligible: Callable[[int], list[Model]],
    activate: Callable[[Model], Procedure[None]],
    pass_model: Callable[[Model, bool], None],
    what: str,
) -> Procedure[None]:
    """Alternate one model at a time until neither player has an eligible model.

    ``pass_model`` marks one model done without acting (the section's own "pass"), its
    second argument whether the log says so in a line of its own."""
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
            options = [Option(m.id, m.name, cell=m.cell, model=m.id) for m in mine]
            label = f"Pass with the remaining {len(mine)} models"
            options.append(Option(PASS_ALL, label, ends=True))
            pick = yield Decision(
                active, DecisionKind.PICK_MODEL, f"{what}: choose your next model", tuple(options)
            )
            if pick.key == PASS_ALL:
                _pass_all(state, ctx, mine, pass_model, what)
                continue
            model = state.models[pick.key]
        yield from activate(model)
        if eligible(1 - active):
            active = 1 - active


def _pass_all(
    state: KTState,
    ctx: RuleContext,
    models: list[Model],
    pass_model: Callable[[Model, bool], None],
    what: str,
) -> None:
    """Each model passes (its own event, with no line of its own: nine "X does not shoot"
    lines told the log reader nothing the summary does not), then one line names them all."""
    for model in models:
        pass_model(model, False)
    names = ", ".join(m.id for m in models)
    ctx.emit(
        "ModelsPassed",
        f"{what}: {state.team(models[0].player).name} pass with their remaining "
        f"{len(models)} models ({names})",
        player=models[0].player,
        models=names,
    )
