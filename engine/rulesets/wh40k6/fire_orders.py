"""Which weapons fire, and where wounds may go: D26, D27 and D28 (digest wh40k6 §6.8).

Each non-vehicle model fires one weapon that reaches the target (D26: "best weapon" by
default, or the player picks model by model). Each vehicle fires every weapon in its
arc and range, as many at full BS as its speed allows (D27 picks which) and the rest as
snap shots; a walker first pivots to face the target, which is not a move (§11.5).
Focus Fire (D28) is offered when the target's models have different cover (§6.8.3).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.facing import towards
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.odds import groups_odds
from engine.rulesets.wh40k6.profiles import Mount
from engine.rulesets.wh40k6.shots import (
    Shot,
    can_pivot,
    position_of,
    shot_count,
    targets_in_reach,
    vehicle_full_bs,
)
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.vehicles import centre2
from engine.rulesets.wh40k6.volley import (
    NO_COVER,
    Fire,
    build_groups,
    closest_firer_distance,
    cover_map,
    eligible_models,
)
from engine.wording import counted, possessive

BEST, CHOOSE, NO_MORE, NO_FOCUS = "best", "choose", "no-more", "none"


def model_options(
    state: State, sight: Sight, model: Model, target: Unit, overwatch: bool
) -> list[Shot]:
    """The shots each of the model's weapons could fire at the target (§6.8.4)."""
    pos = position_of(state, model)
    if pos is None:
        return []
    out = []
    for _, mount in model.weapons():
        if not mount.weapon.is_ranged:
            continue
        reached = targets_in_reach(state, sight, model, mount, target)
        if not reached:
            continue
        nearest = min(gap(pos, m) for m in reached)
        count, snap = shot_count(state, model, mount.weapon, nearest, overwatch=overwatch)
        if count:
            out.append(Shot(model.id, mount.weapon, count, snap, model.profile.bs, pos.id))
    return out


def score(shot: Shot) -> int:
    """ "Best weapon": the most shots times strength, full BS counting double."""
    return shot.count * max(1, shot.weapon.strength) * (1 if shot.snap else 2) + (
        7 - (shot.weapon.ap or 7)
    )


def build_shots(
    state: State,
    ctx: RuleContext,
    sight: Sight,
    unit: Unit,
    target: Unit,
    *,
    skip: Collection[str] = (),
    overwatch: bool = False,
) -> Procedure[list[Shot]]:
    """Every shot the unit fires at the target (D26, D27)."""
    infantry = [m for m in state.members(unit) if not m.is_vehicle and m.id not in skip]
    choices = {m.id: model_options(state, sight, m, target, overwatch) for m in infantry}
    pick_each = False
    if not overwatch and any(len(c) > 1 for c in choices.values()):
        answer = yield Decision(
            unit.player,
            DecisionKind.PICK_OPTION,
            f"{unit.name}: which weapons fire?",
            (
                Option(BEST, "Each model fires its best weapon"),
                Option(CHOOSE, "Choose model by model"),
            ),
        )
        pick_each = answer.key == CHOOSE
    shots: list[Shot] = []
    for m in infantry:
        if choices[m.id]:
            shots.append((yield from _model_weapon(ctx, unit, m, choices[m.id], pick_each)))
    for v in state.on_table(unit):
        if v.is_vehicle and v.id not in skip:
            shots += yield from vehicle_shots(state, ctx, sight, v, target, overwatch)
    if any(m.profile.is_flyer for m in state.on_table(target)):
        shots = snap_only(shots)
    return shots


def _model_weapon(
    ctx: RuleContext, unit: Unit, m: Model, found: list[Shot], pick_each: bool
) -> Procedure[Shot]:
    """D26 for one model: its best weapon, or the player's pick."""
    if pick_each and len(found) == 1:
        ctx.answered(
            f"{m.name} fires its {found[0].weapon.name}, its only weapon that can.", unit.player
        )
    if not pick_each or len(found) == 1:
        return max(found, key=score)
    answer = yield Decision(
        unit.player,
        DecisionKind.PICK_OPTION,
        f"Which weapon does {m.name} fire?",
        tuple(
            Option(
                str(n),
                f"{s.weapon.describe()}: {counted(s.count, 'shot')}"
                + (" (snap)" if s.snap else ""),
            )
            for n, s in enumerate(found)
        ),
        subject=m.id,
    )
    return found[int(answer.key)]


def snap_only(shots: list[Shot]) -> list[Shot]:
    """Only snap shots can hit a zooming flyer (flyers.py); area weapons cannot snap."""
    return [
        replace(s, snap=True)
        for s in shots
        if not (s.weapon.is_area or s.weapon.kind == t.ORDNANCE)
    ]


def vehicle_shots(
    state: State, ctx: RuleContext, sight: Sight, vehicle: Model, target: Unit, overwatch: bool
) -> Procedure[list[Shot]]:
    """D27: weapons at full BS by speed (§6.8.5); the rest snap; ordnance snaps the rest."""
    if vehicle.speed == t.FLAT_OUT:
        return []
    if can_pivot(state, vehicle):
        _pivot_walker(state, ctx, vehicle, target)
    usable: list[Mount] = []
    for _, mount in vehicle.weapons():
        if mount.weapon.is_ranged and targets_in_reach(state, sight, vehicle, mount, target):
            usable.append(mount)
    if not usable:
        return []
    full = 0 if overwatch else vehicle_full_bs(state, vehicle)
    chosen: list[Mount] = list(usable) if full >= len(usable) else []
    while full > 0 and len(chosen) < full and len(chosen) < len(usable):
        rest = [m for m in usable if m not in chosen]
        answer = yield Decision(
            vehicle.player,
            DecisionKind.PICK_OPTION,
            f"{vehicle.name} may fire {counted(full, 'weapon')} at full BS: pick one "
            "(the rest snap)",
            (
                *(Option(str(n), m.weapon.describe()) for n, m in enumerate(rest)),
                Option(NO_MORE, "No more at full BS: the rest fire snap shots"),
            ),
            subject=vehicle.id,
        )
        if answer.key == NO_MORE:
            break
        chosen.append(rest[int(answer.key)])
    return _vehicle_volley(vehicle, usable, chosen)


def _vehicle_volley(vehicle: Model, usable: list[Mount], chosen: list[Mount]) -> list[Shot]:
    """The shots of the usable weapons, ``chosen`` at full BS; ordnance snaps the rest."""
    if any(m.weapon.kind == t.ORDNANCE for m in chosen):
        chosen = [m for m in chosen if m.weapon.kind == t.ORDNANCE][:1]
    out = []
    for mount in usable:
        snap = mount not in chosen
        if snap and (mount.weapon.is_area or mount.weapon.kind == t.ORDNANCE):
            continue
        out.append(
            Shot(vehicle.id, mount.weapon, mount.weapon.shots, snap, vehicle.profile.bs, vehicle.id)
        )
    return out


def likely_vehicle_shots(state: State, sight: Sight, vehicle: Model, target: Unit) -> list[Shot]:
    """For the odds shown before a target is picked: the weapons in reach (a walker after
    its free pivot), the best of them at full BS as many as its speed allows (§6.8.5)."""
    if vehicle.speed == t.FLAT_OUT:
        return []
    usable = [
        mount
        for _, mount in vehicle.weapons()
        if mount.weapon.is_ranged
        and targets_in_reach(state, sight, vehicle, mount, target, pivot=True)
    ]
    full = vehicle_full_bs(state, vehicle)
    ranked = sorted(
        usable,
        key=lambda m: -score(Shot(vehicle.id, m.weapon, m.weapon.shots, False, 0, vehicle.id)),
    )
    return _vehicle_volley(vehicle, usable, ranked[:full])


def _pivot_walker(state: State, ctx: RuleContext, walker: Model, target: Unit) -> None:
    """A walker pivots to face its target before firing; this is not a move (§11.5)."""
    models = state.on_table(target)
    if not models:
        return
    nearest = min(models, key=lambda m: gap(walker, m))
    facing = towards(centre2(walker.rect), centre2(nearest.rect))
    if facing is not None and facing != walker.facing:
        walker.facing = facing
        ctx.emit("VehiclePivoted", f"{walker.name} pivots to face {target.name}", model=walker.id)


def focus_choice(state: State, fire: Fire) -> Procedure[int | None]:
    """D28: Focus Fire on models with cover X or worse, if their cover saves differ."""
    eligible = eligible_models(state, fire)
    covers = cover_map(state, fire, False)
    values = {covers.get(mid) for mid in eligible}
    if len(values) < 2 or any(s.weapon.rules & {"template"} for s in fire.shots):
        return None
    if sum(s.count for s in fire.shots) == 1 and not fire.shots[0].weapon.is_area:
        # One shot wounds the closest model: Focus Fire matters only if that one is not
        # already among the worst covered.
        worst = max(NO_COVER if v is None else v for v in values)
        models = [state.models[mid] for mid in eligible]
        nearest = min(closest_firer_distance(state, fire, m) for m in models)
        if all(
            (NO_COVER if covers.get(m.id) is None else covers[m.id]) == worst
            for m in models
            if closest_firer_distance(state, fire, m) == nearest
        ):
            return None
    options = [Option(NO_FOCUS, "No Focus Fire")]
    for v in sorted(v for v in values if v is not None):
        options.append(Option(str(v), f"Focus Fire: only models with a {v}+ cover save or worse"))
    if None in values:
        options.append(Option(str(NO_COVER), "Focus Fire: only models with no cover save"))
    choice = yield Decision(
        fire.attacker.player,
        DecisionKind.PICK_OPTION,
        f"{possessive(fire.target.name)} models have different cover: declare Focus Fire?",
        tuple(options),
    )
    return None if choice.key == NO_FOCUS else int(choice.key)


def shot_odds(state: State, sight: Sight, unit: Unit, target: Unit) -> Odds | None:
    """The chance one shot hits (and wounds) ``target`` when each model fires its best
    weapon (a vehicle: its likely volley), from the groups the volley would roll."""
    shots = [
        max(found, key=score)
        for m in state.members(unit)
        if not m.is_vehicle and (found := model_options(state, sight, m, target, False))
    ]
    for m in state.members(unit):
        if m.is_vehicle and m.on_table:
            shots += likely_vehicle_shots(state, sight, m, target)
    if any(m.profile.is_flyer for m in state.on_table(target)):
        shots = snap_only(shots)
    return groups_odds(state, sight, build_groups(state, shots, target), target)
