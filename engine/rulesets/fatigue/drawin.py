"""Being drawn into a scrum (SEED concept, FILL-IN mechanics: digest fatigue §6.7).

At the start of every exchange, one pass (no cascading) pulls in every free unit near an
enemy in the scrum: not braced (SEED), not camouflaged; fleeing units are not exempt
(SEED-IMPLIED). It costs no FP and no activation.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.formation import Reach, apply_placement, close_on, form_up, walk_reach
from engine.rulesets.fatigue.geometry import adjacent, dist
from engine.rulesets.fatigue.scrums import join_scrum
from engine.rulesets.fatigue.state import FState, Model, Scrum, Unit
from engine.rulesets.fatigue.tables import DRAW_IN_RADIUS


def draw_in(state: FState, ctx: RuleContext, scrum: Scrum) -> None:
    """§6.7: find the units to draw in, then move and join them in A-then-B id order."""
    candidates = [u for u in state.units_in_order() if _may_be_drawn(state, u, scrum)]
    for unit in candidates:
        enemies = _enemy_cells(state, scrum, unit)
        reach = walk_reach(state, unit, lambda m: DRAW_IN_RADIUS)
        lead = _lead(unit, reach, enemies)
        if lead is None:
            continue
        model, cell = lead
        placement = form_up(
            state, unit, reach, model, cell, close_on(state, enemies), lambda c: True
        )
        apply_placement(state, ctx, unit, placement, "is drawn into the scrum")
        join_scrum(state, ctx, unit, scrum)


def _enemy_cells(state: FState, scrum: Scrum, unit: Unit) -> list[Cell]:
    return [c for uid in scrum.sides[1 - unit.player] for c in state.units[uid].cells()]


def _may_be_drawn(state: FState, unit: Unit, scrum: Scrum) -> bool:
    if unit.engaged or unit.braced or unit.camouflaged or not scrum.active:
        return False
    enemies = _enemy_cells(state, scrum, unit)
    near = any(dist(state, c, e) <= DRAW_IN_RADIUS for c in unit.cells() for e in enemies)
    if not near:
        return False
    reach = walk_reach(state, unit, lambda m: DRAW_IN_RADIUS)
    return _lead(unit, reach, enemies) is not None


def _lead(unit: Unit, reach: Reach, enemies: list[Cell]) -> tuple[Model, Cell] | None:
    """The model that reaches contact most cheaply, and where (FILL-IN §6.7 step 1)."""
    best: tuple[int, int, int, int] | None = None
    found: tuple[Model, Cell] | None = None
    for index, model in enumerate(unit.alive()):
        for cell, cost in reach.get(model.id, {}).items():
            if any(adjacent(cell, e) for e in enemies):
                key = (cost, index, cell.y, cell.x)
                if best is None or key < best:
                    best, found = key, (model, cell)
    return found
