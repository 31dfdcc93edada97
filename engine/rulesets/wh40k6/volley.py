"""One unit's shooting attack against one target unit (digest wh40k6 §6.8.7-§6.8.15).

Shots become groups (§6.8.7); each group rolls to hit; against vehicles each hit rolls
armour penetration (§6.8.13), otherwise to wound. Before any save the target's owner
may Go to Ground (§6.8.11, D30); the firer orders the wound groups (§6.8.10, D31); wounds
go to the closest eligible model (§6.8.12) with cover seen from the closest firer
(§11.4), and Focus Fire limits them to models with poor cover (§6.8.3). Overwatch uses
the same steps with its own limits (§6.12).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.areas import area_hits, stray_hits
from engine.rulesets.wh40k6.attacks import (
    Allocation,
    Group,
    allocate,
    best_save,
    majority_toughness,
    roll_hits,
    roll_wounds,
)
from engine.rulesets.wh40k6.damage import new_batch
from engine.rulesets.wh40k6.explosions import destroy_vehicle
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.morale import (
    go_to_ground,
    is_fearless,
    is_gone_to_ground,
    is_vehicle_unit,
    pinning_test,
)
from engine.rulesets.wh40k6.shots import Shot, hit_needed
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.tables import GO_TO_GROUND_COVER, ORDNANCE
from engine.rulesets.wh40k6.vehicles import vehicle_hits
from engine.wording import counted, says, they

NO_COVER = 7
"""Focus Fire value meaning "only models with no cover save" (§6.8.3)."""


@dataclass(slots=True)
class Fire:
    """The attack being resolved: who fires what at whom, and how."""

    attacker: Unit
    target: Unit
    shots: list[Shot]
    sight: Sight
    overwatch: bool = False
    focus: int | None = None


def build_groups(state: State, shots: list[Shot], target: Unit | None = None) -> list[Group]:
    """One group per distinct S, AP, BS (as the roll needed) and special rules (§6.8.7)."""
    groups: dict[tuple[object, ...], Group] = {}
    names: dict[tuple[object, ...], list[str]] = {}
    for shot in shots:
        model = state.models[shot.model]
        strength = shot.weapon.strength_for(model.profile.s)
        needed, reroll = (0, None) if shot.auto else hit_needed(shot.bs, shot.snap, shot.weapon)
        w = shot.weapon
        key = (strength, w.ap, needed, reroll, w.rules, w.kind == ORDNANCE)
        if shot.count and w.name not in names.setdefault(key, []):
            names[key].append(w.name)
        if key not in groups:
            ap = "-" if shot.weapon.ap is None else shot.weapon.ap
            snap = ", snap shots" if shot.snap else ""
            groups[key] = Group(
                f"{shot.weapon.name} (S{strength} AP{ap}{snap})",
                shot.weapon,
                strength,
                shot.weapon.ap,
                needed,
                reroll,
                skill=f"BS {shot.bs}" + (", snap shots" if shot.snap else ""),
            )
        groups[key].shots.extend([shot.position] * shot.count)
        if target is not None and "melta" in w.rules and _within_half(state, shot, target):
            groups[key].melta = groups[key].melta | {shot.position}
    for gkey, g in groups.items():
        g.label = " + ".join(names.get(gkey) or [g.weapon.name]) + g.label[len(g.weapon.name) :]
    return [g for g in groups.values() if g.shots]


def _within_half(state: State, shot: Shot, target: Unit) -> bool:
    """Melta: +D6 penetration within half range (§6.8.13)."""
    pos = state.models[shot.position]
    return any(gap(pos, m) <= shot.weapon.range // 2 for m in state.on_table(target))


def eligible_models(state: State, fire: Fire) -> set[str]:
    """Target models in range and sight of at least one firing model (§6.8.2)."""
    out: set[str] = set()
    for shot in fire.shots:
        pos = state.models[shot.position]
        for m in state.on_table(fire.target):
            if gap(pos, m) <= shot.weapon.range and fire.sight.sees(pos, m):
                out.add(m.id)
    return out


def cover_map(state: State, fire: Fire, grounded: bool) -> dict[str, int | None]:
    """Each target model's cover from its closest firer (§11.4), Go to Ground included."""
    firers = sorted({s.position for s in fire.shots})
    out: dict[str, int | None] = {}
    for m in state.on_table(fire.target):
        rep = min((state.models[f] for f in firers), key=lambda f: (gap(f, m), f.id))
        cover = fire.sight.cover(m, rep)
        if grounded and not m.is_vehicle:
            cover = GO_TO_GROUND_COVER if cover is None else max(2, cover - 1)
        out[m.id] = cover
    return out


def closest_firer_distance(state: State, fire: Fire, model: Model) -> int:
    return min(gap(state.models[s.position], model) for s in fire.shots)


def resolve_fire(state: State, ctx: RuleContext, fire: Fire) -> Procedure[int]:
    """Resolve the whole attack; returns the unsaved wounds (or hull points) inflicted."""
    new_batch(state)
    player = fire.attacker.player
    declared = cover_map(state, fire, is_gone_to_ground(state, fire.target))
    normal = [s for s in fire.shots if not s.weapon.is_area]
    groups = build_groups(state, normal, fire.target)
    marked = yield from _area_shots(state, ctx, fire)
    vehicles = is_vehicle_unit(state, fire.target)
    toughness = majority_toughness(state, fire.target) if not vehicles else 0
    for g in groups:
        roll_hits(ctx, player, g)
        if not vehicles and g.hits:
            roll_wounds(ctx, player, g, toughness)
    for g in marked:
        groups.append(g)
        if not vehicles:
            roll_wounds(ctx, player, g, toughness)
    if vehicles:
        return (yield from _on_vehicles(state, ctx, fire, groups))
    wounding = [g for g in groups if g.wounds]
    if not wounding:
        return 0
    yield from _offer_go_to_ground(state, ctx, fire, wounding)
    return (yield from _allocate_groups(state, ctx, fire, wounding, declared))


def _on_vehicles(state: State, ctx: RuleContext, fire: Fire, groups: list[Group]) -> Procedure[int]:
    """Penetration, saves of obscured vehicles, hull points and damage (§6.8.13)."""
    covers = cover_map(state, fire, False)
    total = 0
    for g in groups:
        total += yield from vehicle_hits(
            state,
            ctx,
            fire.attacker.player,
            fire.target,
            g,
            melee=False,
            cover=lambda v, f: covers.get(v.id),
            destroy=destroy_vehicle,
        )
    return total


def _allocate_groups(
    state: State,
    ctx: RuleContext,
    fire: Fire,
    wounding: list[Group],
    declared: dict[str, int | None],
) -> Procedure[int]:
    """D31 order, then closest-first allocation with Focus Fire; Pinning tests (§6.8.10-15).

    Focus Fire is declared before the hit rolls, so it names the models whose cover was X
    or worse then (``declared``); Going to Ground afterwards improves the saves those
    models take (§6.8.11) but does not undo the declaration (§6.8.3).
    """
    total = 0
    eligible = eligible_models(state, fire)
    covers = cover_map(state, fire, is_gone_to_ground(state, fire.target))
    ordered = len(wounding) > 1
    while wounding:
        if ordered and len(wounding) == 1:
            ctx.answered(
                f"{wounding[0].label} is the last wound group to allocate.", fire.attacker.player
            )
        g = yield from _next_group(fire.attacker.player, wounding)
        wounding.remove(g)
        alloc = Allocation(
            fire.target,
            eligible=lambda m: m.id in eligible and _focus_ok(declared.get(m.id), fire.focus),
            distance=lambda m: closest_firer_distance(state, fire, m),
            cover=lambda m: covers.get(m.id),
        )
        unsaved = yield from allocate(state, ctx, fire.attacker.player, g, alloc)
        total += unsaved
        if unsaved and g.pinning and not fire.overwatch:
            pinning_test(state, ctx, fire.target)
    return total


def _area_shots(state: State, ctx: RuleContext, fire: Fire) -> Procedure[list[Group]]:
    """Blasts and templates: hits on the target become pre-hit groups (areas.py)."""
    out: list[Group] = []
    for shot in fire.shots:
        if not shot.weapon.is_area:
            continue
        hits = yield from area_hits(state, ctx, fire.attacker, fire.target, shot, fire.sight)
        for uid, firers in hits.items():
            if uid == fire.target.id:
                model = state.models[shot.model]
                group = Group(
                    f"{shot.weapon.name} (S{shot.weapon.strength_for(model.profile.s)})",
                    shot.weapon,
                    shot.weapon.strength_for(model.profile.s),
                    shot.weapon.ap,
                    0,
                    shots=list(firers),
                )
                group.hits = list(firers)
                out.append(group)
            else:
                yield from stray_hits(state, ctx, fire.attacker, state.units[uid], shot, firers)
    return out


def _focus_ok(cover: int | None, focus: int | None) -> bool:
    """Focus Fire on X: only models whose cover is X or worse, or none (§6.8.3)."""
    if focus is None:
        return True
    if cover is None:
        return True
    return focus != NO_COVER and cover >= focus


def _offer_go_to_ground(
    state: State, ctx: RuleContext, fire: Fire, wounding: list[Group]
) -> Procedure[None]:
    """D30: the target's owner may Go to Ground before saves (not on Overwatch).

    Not asked when the better cover would not better any save these wounds allow (a 3+
    armour save against AP5): going to ground would only cost the unit its next turn.
    """
    unit = fire.target
    if fire.overwatch or unit.falling_back or is_gone_to_ground(state, unit):
        return
    if is_fearless(state, unit) or is_vehicle_unit(state, unit):
        return
    now, grounded = cover_map(state, fire, False), cover_map(state, fire, True)
    if all(
        best_save(state, m, g.ap, grounded.get(m.id)) == best_save(state, m, g.ap, now.get(m.id))
        for g in wounding
        for m in state.on_table(unit)
    ):
        return
    yes = yield from ask_yes_no(
        unit.player,
        f"{says(unit.name, 'is')} wounded: Go to Ground (+1 cover, "
        f"but {they(unit.name)} cannot move, run or charge "
        "and fires only snap shots until the end of your next turn)?",
    )
    if yes:
        go_to_ground(state, ctx, unit)


def _next_group(player: int, groups: list[Group]) -> Procedure[Group]:
    """D31: the firing player orders the wound groups."""
    if len(groups) == 1:
        return groups[0]
    choice = yield Decision(
        player,
        DecisionKind.ORDER,
        "Which wound group is allocated next?",
        tuple(
            Option(str(n), f"{g.label}: {counted(len(g.wounds), 'wound')}")
            for n, g in enumerate(groups)
        ),
    )
    return groups[int(choice.key)]
