"""A vehicle is destroyed: wrecked, or it explodes and hits everything near (wh40k6).

Digest §6.8.13 step 5 (Wrecked: stays as difficult and dangerous terrain), §6.8.14
Explodes! (D6" radius, one S3 AP- hit per model within it, allocated from the model
closest to the vehicle, normal saves with the cover of where each model stands, the
footprint becomes a crater) and the passenger table §6.8.6 (S4 hits on passengers of an
exploding transport, emergency disembarkation within 3", then a Pinning test).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.checks import DISTANCE
from engine.decisions import Procedure
from engine.footprints import Rect, rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import (
    Allocation,
    Group,
    allocate,
    majority,
    majority_toughness,
    roll_wounds,
    save_or_suffer,
)
from engine.rulesets.wh40k6.damage import new_batch, wreck
from engine.rulesets.wh40k6.geometry import gap
from engine.rulesets.wh40k6.morale import pinning_test
from engine.rulesets.wh40k6.profiles import Weapon
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.transports import emergency_disembark, passengers
from engine.rulesets.wh40k6.vehicles import WRECKED, remove_exploded, vehicle_hits
from engine.wording import says

BLAST = Weapon("explosion", "Explosion", 0, 3, "fixed", None, t.ASSAULT, 1, None, frozenset())
PASSENGER_BLAST = Weapon(
    "passenger_explosion",
    "Exploding transport",
    0,
    4,
    "fixed",
    None,
    t.ASSAULT,
    1,
    None,
    frozenset(),
)


def destroy_vehicle(state: State, ctx: RuleContext, vehicle: Model, kind: str) -> Procedure[None]:
    """Wreck or explode a vehicle, then its passengers get out (§6.8.6, §6.8.14)."""
    if vehicle.removed:
        return
    riders = passengers(state, vehicle)
    hull = vehicle.rect
    if kind == WRECKED:
        wreck(state, ctx, vehicle)
    else:
        yield from explode(state, ctx, vehicle)
    for unit in riders:
        if kind != WRECKED:
            yield from _passenger_hits(state, ctx, unit)
        yield from emergency_disembark(state, ctx, unit, hull)
        if not unit.destroyed:
            pinning_test(state, ctx, unit)


def explode(state: State, ctx: RuleContext, vehicle: Model) -> Procedure[None]:
    """Explodes!: D6" radius, S3 AP- hits on every model within it (§6.8.14)."""
    radius = ctx.dice.d6(player=-1, reason=f"explosion radius of {vehicle.name}", check=DISTANCE)
    ctx.emit(
        "VehicleExploded",
        f'{vehicle.name} explodes! Radius {radius}"',
        model=vehicle.id,
        radius=radius,
    )
    near: dict[str, list[Model]] = {}
    for m in state.table_models():
        if m.id != vehicle.id and gap(vehicle, m) <= radius:
            near.setdefault(m.unit, []).append(m)
    centre = vehicle.rect
    new_batch(state)
    remove_exploded(state, ctx, vehicle)
    for uid, models in near.items():
        unit = state.units[uid]
        group = Group(
            f"explosion of {vehicle.name}", BLAST, 3, None, 0, shots=[vehicle.id] * len(models)
        )
        group.hits = list(group.shots)
        ctx.emit(
            "HitsRolled",
            f"{says(unit.name, 'takes')} {len(models)} S3 AP- hits from the explosion",
            hits=len(models),
        )
        if all(m.is_vehicle for m in models):
            yield from vehicle_hits(
                state,
                ctx,
                -1,
                unit,
                group,
                melee=False,
                cover=lambda v, f: None,
                destroy=destroy_vehicle,
            )
            continue
        roll_wounds(ctx, 1 - unit.player, group, majority_toughness(state, unit))
        alloc = Allocation(
            unit,
            eligible=lambda m: True,
            distance=lambda m: _rect_gap(m, centre),
            cover=lambda m: _own_cover(state, m),
        )
        yield from allocate(state, ctx, 1 - unit.player, group, alloc)


def _rect_gap(model: Model, rect: Rect) -> int:
    return rect_distance(model.rect, rect)


def _own_cover(state: State, model: Model) -> int | None:
    """Cover from the terrain a model stands in (explosions have no firer, PROPOSED)."""
    values = [state.feature(c).cover for c in model.rect.cells()]
    found = [v for v in values if v is not None]
    return min(found) if found else None


def _passenger_hits(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """One S4 AP- hit per embarked model (§6.8.6, TC-13); no cover inside a transport."""
    models = state.members(unit)
    if not models:
        return
    group = Group(f"{unit.name} caught in the explosion", PASSENGER_BLAST, 4, None, 0)
    group.shots = [models[0].id] * len(models)
    group.hits = list(group.shots)
    ctx.emit(
        "HitsRolled", f"{says(unit.name, 'takes')} {len(models)} S4 AP- hits", hits=len(models)
    )
    roll_wounds(ctx, 1 - unit.player, group, majority([m.profile.t for m in models]))
    order = {m.id: n for n, m in enumerate(models)}
    alloc = Allocation(
        unit, eligible=lambda m: True, distance=lambda m: order[m.id], cover=lambda m: None
    )
    yield from _allocate_inside(state, ctx, unit, group, alloc)


def _allocate_inside(
    state: State, ctx: RuleContext, unit: Unit, group: Group, alloc: Allocation
) -> Procedure[None]:
    for _ in group.wounds:
        pool = [m for m in state.members(unit) if m.wounds > 0]
        if not pool:
            break
        save_or_suffer(state, ctx, group, pool[0], alloc)
    yield from ()
