"""Stupidity: the start-of-turn test and its table (SEED + PROPOSED, digest fatigue §6.25).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.checks import TABLE
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import DAMAGE, frenzy_active, morale_test
from engine.rulesets.fatigue.damage import wound
from engine.rulesets.fatigue.geometry import (
    DIRECTIONS,
    adjacent,
    height,
    is_difficult,
    is_walkable,
    step_toward,
)
from engine.rulesets.fatigue.profiles import Psych
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.rulesets.fatigue.tables import FALL_DROP, STUPIDITY_TABLE, d2, table_entry
from engine.wording import says


def stupidity_test(state: FState, ctx: RuleContext, unit: Unit) -> None:
    """One test for the whole unit (PROPOSED, §10 #25); a failure makes it STUPID."""
    if unit.has(Psych.IMMUNE_PSYCH) or frenzy_active(state, unit):
        unit.stupid = False  # a skipped test counts as a pass (§6.25 item 1)
        return
    if morale_test(ctx, unit, "stupidity"):
        unit.stupid = False
        return
    unit.stupid = True
    ctx.emit("UnitStupefied", f"{says(unit.name, 'is')} stupid this round", unit=unit.id)
    if unit.engaged:
        return
    face = ctx.dice.d6(player=unit.player, reason=f"stupidity table of {unit.name}", check=TABLE)
    result = table_entry(STUPIDITY_TABLE, face)
    ctx.emit("StupidityRolled", f"{unit.name}: {result}", unit=unit.id, roll=face)  # face: dice
    if face <= 3:
        shuffle_forward(state, ctx, unit)


def shuffle_forward(state: FState, ctx: RuleContext, unit: Unit) -> None:
    """Straight along the facing at half speed, stopping short of enemies (SEED, §6.25 3.3)."""
    dx, dy = DIRECTIONS[unit.facing]
    front_first = sorted(
        unit.alive(), key=lambda m: -((m.cell.x * dx + m.cell.y * dy) if m.cell else 0)
    )
    starts = {m.id: m.cell for m in front_first}
    for model in front_first:
        _shuffle(state, ctx, unit, model, model.profile.mobility // 2)
    ctx.emit("UnitShuffled", _shuffled(unit, starts), unit=unit.id)


def _shuffled(unit: Unit, starts: dict[str, Cell | None]) -> str:
    """What the shuffle did, model by model: "shuffles forward: B8 at (6,8)" was said of
    a model that was blocked and never moved."""
    alive = unit.alive()
    if all(m.cell == starts.get(m.id) for m in alive):
        stays = ", ".join(f"{m.id} stays at {m.cell}" for m in alive)
        return f"{unit.name} cannot shuffle forward: {stays}"
    return f"{says(unit.name, 'shuffles')} forward: " + ", ".join(
        f"{m.id} to {m.cell}" if m.cell != starts.get(m.id) else f"{m.id} stays at {m.cell}"
        for m in alive
    )


def _shuffle(state: FState, ctx: RuleContext, unit: Unit, model: Model, budget: int) -> None:
    """One model's free move along its facing (SEED §6.25 3.3; falls FILL-IN §10 #37)."""
    diagonal = unit.facing % 2 == 1
    parity = 0
    enemies = [m.cell for m in state.enemy_models(unit.player) if m.cell is not None]
    while model.cell is not None:
        here = model.cell
        nxt = step_toward(here, unit.facing)
        cost = (1 if state.modules.chebyshev else 1 + parity) if diagonal else 1
        if is_difficult(state, nxt):
            cost *= 2
        if cost > budget or not _can_step(state, nxt, enemies):
            return
        drop = height(state, here) - height(state, nxt)
        if state.modules.elevation and height(state, nxt) - height(state, here) > 1:
            return  # it hits the obstacle and stops against it
        budget -= cost
        parity ^= int(diagonal)
        model.cell = nxt
        if state.modules.elevation and drop >= FALL_DROP:
            damage = d2(
                ctx.dice.d6(player=unit.player, reason=f"fall damage of {model.name}", check=DAMAGE)
            )
            wound(state, ctx, model, damage, "fell off a ledge")
            return


def _can_step(state: FState, cell: Cell, enemies: list[Cell]) -> bool:
    """Not off the board, not blocked or occupied, not next to an enemy (§6.25 3.3)."""
    if not is_walkable(state, cell) or cell in state.occupied():
        return False
    return not any(adjacent(cell, e) for e in enemies)
