"""The pursuit move (SEED + PROPOSED, digest fatigue §6.19 steps 4-7).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.checks import DISTANCE
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.damage import remove_model
from engine.rulesets.fatigue.formation import apply_placement, close_on, form_up, walk_reach
from engine.rulesets.fatigue.geometry import adjacent, nearest
from engine.rulesets.fatigue.state import FState, Unit
from engine.wording import counted, says


def pursue(state: FState, ctx: RuleContext, unit: Unit, quarry: Unit) -> None:
    """D6 - fatigue steps; caught means wiped out; +1 fatigue anyway (SEED, §6.19 4-7)."""
    roll = ctx.dice.d6(
        player=unit.player, reason=f"pursuit distance of {unit.name}", check=DISTANCE
    )
    steps = max(0, roll - unit.fatigue)
    ctx.emit(
        "PursuitRolled",
        f"{says(unit.name, 'pursues')} {quarry.name}: "
        f"{roll} - {unit.fatigue} fatigue = {counted(steps, 'step')}",
        unit=unit.id,
        target=quarry.id,
        roll=roll,
        steps=steps,
    )
    if steps:
        _close_in(state, ctx, unit, quarry, steps)
    caught = any(adjacent(c, q) for c in unit.cells() for q in quarry.cells())
    if caught:
        ctx.emit("UnitCaught", f"{says(unit.name, 'catches')} {quarry.name}", unit=quarry.id)
        for model in quarry.alive():
            remove_model(state, ctx, model, "caught while fleeing")
    unit.fatigue += 1  # SEED: whether or not it caught them
    ctx.emit("FatigueGained", f"{says(unit.name, 'gains')} 1 fatigue (pursuit)", unit=unit.id)


def _close_in(state: FState, ctx: RuleContext, unit: Unit, quarry: Unit, steps: int) -> None:
    """Auto-placement: the model that gets nearest leads, the rest close in (§6.19 step 5)."""
    targets = quarry.cells()
    reach = walk_reach(state, unit, lambda m: steps)
    best: tuple[int, int, int, int, int, int] | None = None
    lead = None
    for index, model in enumerate(unit.alive()):
        for cell, cost in reach.get(model.id, {}).items():
            # Ties go to the straightest line (squared Euclidean distance), then cost.
            straight = min((c.x - cell.x) ** 2 + (c.y - cell.y) ** 2 for c in targets)
            key = (nearest(state, cell, targets), straight, cost, index, cell.y, cell.x)
            if best is None or key < best:
                best, lead = key, (model, cell)
    if lead is None:
        return
    model, cell = lead
    placement = form_up(state, unit, reach, model, cell, close_on(state, targets), lambda c: True)
    apply_placement(state, ctx, unit, placement, "pursues")
