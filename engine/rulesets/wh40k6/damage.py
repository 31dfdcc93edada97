"""Casualties, destroyed units, wrecks and the secondary objectives they score (wh40k6).

Removing a model is bookkeeping shared by every procedure: a model at 0 wounds is removed
(§3.1), a vehicle at 0 hull points is wrecked and stays as difficult and dangerous
terrain (§6.8.13 step 5), a unit whose last model goes is destroyed, which may give
First Blood; a slain Warlord gives Slay the Warlord (§4.2).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.wording import agrees, says


def remove_model(state: State, ctx: RuleContext, model: Model, why: str) -> None:
    """Remove a casualty from the table and score what its death scores."""
    if model.removed:
        return
    drop_relic(state, ctx, model)
    model.removed = True
    model.wounds = 0
    ctx.emit(
        "ModelRemoved",
        f"{model.name} is removed as a casualty ({why})",
        model=model.id,
        player=model.player,
    )
    model.cell = None
    unit = state.unit_of(model)
    if model.id == state.side(model.player).warlord:
        side = state.side(model.player)
        if not side.warlord_slain:
            side.warlord_slain = True
            ctx.emit(
                "WarlordSlain",
                f"{model.name}, Warlord of {side.name}, is slain",
                player=model.player,
            )
    check_destroyed(state, ctx, unit)


def check_destroyed(state: State, ctx: RuleContext, unit: Unit) -> None:
    """A unit with no model left is destroyed (First Blood, Purge the Alien, §4.2)."""
    if unit.destroyed or state.members(unit):
        return
    destroy_unit(state, ctx, unit, "its last model was removed")


def destroy_unit(state: State, ctx: RuleContext, unit: Unit, why: str) -> None:
    """Mark a unit destroyed; the first destruction scores First Blood for the enemy."""
    if unit.destroyed:
        return
    for model in state.members(unit):
        drop_relic(state, ctx, model)
        model.removed = True
        model.wounds = 0
        model.cell = None
    unit.destroyed = True
    unit.falling_back = False
    state.destroyed_order.append(unit.id)
    destroyed = f"{unit.name} {agrees(unit.name, 'is')} destroyed ({why})"
    ctx.emit("UnitDestroyed", destroyed, unit=unit.id, player=unit.player)
    enemy = state.side(1 - unit.player)
    first = state.first_blood_batch in (-1, state.batch)
    if first and not enemy.first_blood:
        state.first_blood_batch = state.batch
        enemy.first_blood = True
        ctx.emit(
            "FirstBloodScored", f"{says(enemy.name, 'draws')} First Blood", player=enemy.player
        )


def wreck(state: State, ctx: RuleContext, vehicle: Model) -> None:
    """At 0 hull points the vehicle is Wrecked: it stays as a wreck (§6.8.13 step 5)."""
    assert vehicle.cell is not None
    for cell in vehicle.rect.cells():
        state.terrain[cell] = "wreck"
    state.cache.clear()
    vehicle.wrecked = True
    ctx.emit("VehicleWrecked", f"{vehicle.name} is wrecked", model=vehicle.id)
    remove_model(state, ctx, vehicle, "wrecked")


def drop_relic(state: State, ctx: RuleContext, model: Model) -> None:
    """A model carrying the Relic drops it where it stands (mission 6, PROPOSED)."""
    if model.carries_relic:
        model.carries_relic = False
        state.relic = model.cell
        ctx.emit("RelicDropped", f"{model.name} drops the Relic at {model.cell}", model=model.id)


def new_batch(state: State) -> None:
    """Start a new set of simultaneous casualties (First Blood ties, §4.2)."""
    state.batch += 1
