"""The Movement phase (digest killteam §6.3). Minimal first cut: normal moves only."""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import cell_near_enemy
from engine.rulesets.killteam.state import KTState, Model


def veteran_window(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Placeholder for the round-1 Veteran stratagem window (§8.1)."""
    return
    yield


def movement_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Initiative player moves his whole team, then the other (§5.1, §10 A3)."""
    for player in (state.initiative, 1 - state.initiative):
        while True:
            ready = [m for m in state.on_table(player) if not m.activated and not m.shaken]
            if not ready:
                break
            options = [Option(m.id, m.name, cell=m.cell, model=m.id) for m in ready]
            options.append(Option("end", "End movement (remaining models stay)"))
            pick = yield Decision(player, DecisionKind.PICK_MODEL,
                                  "Movement: choose a model to activate", tuple(options))
            if pick.key == "end":
                break
            model = state.models[pick.key]
            model.activated = True
            yield from normal_move(state, ctx, model)


def normal_move(state: KTState, ctx: RuleContext, model: Model) -> Procedure[None]:
    """Move up to M, never within 1" of an enemy (§6.3.1)."""
    assert model.cell is not None
    occupied = state.occupied()
    board = state.board

    def can_enter(cell: Cell) -> bool:
        other = occupied.get(cell)
        if other is not None and other.player != model.player:
            return False
        return board.is_standable(cell) and not cell_near_enemy(state, cell, model.player)

    reach = board.reachable(model.cell, model.sheet.M, can_enter=can_enter)
    cells = [c for c in reach if c == model.cell or c not in occupied]
    choice = yield Decision(
        model.player, DecisionKind.PICK_CELL, f"Normal Move: where does {model.name} go?",
        tuple(Option(f"{c.x},{c.y}", f"{c} ({reach[c].cost}\")", cell=c) for c in cells),
        subject=model.id,
    )
    x, y = (int(v) for v in choice.key.split(","))
    start = model.cell
    model.cell = Cell(x, y)
    if model.cell != start:
        model.moved = True
        ctx.emit("ModelMoved", f"{model.name} moves {start} -> {model.cell}", model=model.id,
                 x=x, y=y)
