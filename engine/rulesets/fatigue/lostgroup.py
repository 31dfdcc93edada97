"""The optional "lost group" test (EXT, digest fatigue §6.31 item 4; off by default).

Models outside their unit's largest group test Morale at the start of the unit's
activation: a failure sends the model off the board, a pass brings it back toward the
group by the shortest route.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import morale_test
from engine.rulesets.fatigue.damage import remove_model
from engine.rulesets.fatigue.formation import blocked_for
from engine.rulesets.fatigue.geometry import dist, nearest, walk
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import COHERENCY
from engine.units import stragglers


def lost_group_test(state: FState, ctx: RuleContext, unit: Unit) -> None:
    """Test every model that lost its group (§6.31 item 4)."""
    alive = unit.alive()
    cells = [m.cell for m in alive if m.cell is not None]
    lost = stragglers(cells, COHERENCY, lambda a, b: dist(state, a, b))
    if not lost:
        return
    group = [cells[i] for i in range(len(cells)) if i not in lost]
    for index in lost:
        model = alive[index]
        if not morale_test(ctx, unit, f"lost group ({model.id})"):
            remove_model(state, ctx, model, "lost its group and fled the field")
            continue
        assert model.cell is not None
        taken = set(state.occupied())
        reach = walk(state, model.cell, model.profile.mobility, blocked_for(state, unit))
        free = [c for c in reach if c not in taken or c == model.cell]
        best = min(free, key=lambda c: (nearest(state, c, group), reach[c], c.y, c.x))
        model.cell = best
        ctx.emit("ModelRejoined", f"{model.name} rejoins its group at {best}", model=model.id)
