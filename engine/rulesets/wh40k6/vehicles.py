"""Hits on vehicles: armour facings, glancing and penetrating hits, damage (wh40k6).

Digest §6.8.13 (penetration, saves of obscured vehicles, hull points, damage rolls),
§6.8.14 (the Vehicle Damage table) and §11.5 (which facing a firer hits, computed from
the vector between the vehicle's centre and the firer in doubled coordinates). In close
combat non-walkers are hit on the rear and walkers on the front (§6.13.5, §6.14).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

from engine.board import Cell
from engine.checks import TABLE, Check, Modifier
from engine.decisions import Odds, Procedure
from engine.facing import FRONT, REAR, SIDE, armour_arc
from engine.footprints import Rect
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import Group, group_hit_chance, invulnerable, save_check
from engine.rulesets.wh40k6.damage import remove_model
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.state import Model, State, Unit

AV_INDEX = {FRONT: 0, SIDE: 1, REAR: 2}
WRECKED = "wrecked"
DestroyHook = Callable[[State, RuleContext, Model, str], Procedure[None]]
"""Wrecks or explodes a vehicle: (state, ctx, vehicle, t.EXPLODES or "wrecked")."""


MELTA = Check.purpose("melta penetration, added")


def penetration_check(strength: int, av: int, dice: int, *, melta: bool) -> Check:
    """D6 (ordnance: the best of 2D6) + S against the facing's AV: equal glances, more
    penetrates (§6.8.13 step 1); a Melta die is added after, so that roll only says so."""
    if melta:
        return Check.purpose(f"penetration, S{strength} + melta die vs AV{av}", dice=dice)
    words = ("glancing or better", "no effect")
    modifiers = (Modifier(strength, "S"),)
    return Check(
        "penetration",
        av,
        f"AV{av}",
        modifiers,
        dice=dice,
        best_of=dice > 1,
        fails_on=frozenset(),
        words=words,
    )


def centre2(rect: Rect) -> Cell:
    """The centre of a footprint in doubled coordinates."""
    return Cell(rect.x0 + rect.x1 + 1, rect.y0 + rect.y1 + 1)


def facing_hit(vehicle: Model, attacker: Model | None, *, melee: bool = False) -> str:
    """Which armour facing a hit from ``attacker`` strikes (§11.5, §6.13.5, §6.14)."""
    if melee:
        return FRONT if vehicle.profile.is_walker else REAR
    if attacker is None or attacker.cell is None:
        return SIDE
    return armour_arc(vehicle.facing, centre2(vehicle.rect), centre2(attacker.rect))


def penetration(
    ctx: RuleContext,
    player: int,
    vehicle: Model,
    strength: int,
    facing: str,
    group: Group,
    firer: str,
) -> str:
    """Roll armour penetration: "glancing", "penetrating" or "none" (§6.8.13 step 1)."""
    assert vehicle.profile.av is not None
    av = vehicle.profile.av[AV_INDEX[facing]]
    if group.ordnance:
        check = penetration_check(strength, av, 2, melta=firer in group.melta)
        reason = f"penetration (ordnance, 2D6 pick highest): {group.label}"
        dice = max(ctx.dice.roll(2, 6, player=player, reason=reason, check=check).faces)
    else:
        check = penetration_check(strength, av, 1, melta=firer in group.melta)
        reason = f"penetration: {group.label}"
        dice = ctx.dice.d6(player=player, reason=reason, check=check)
    if firer in group.melta:
        dice += ctx.dice.d6(player=player, reason="melta penetration", check=MELTA)
    total = strength + dice
    result = armour_result(total, av)
    ctx.emit(
        "ArmourRolled",
        f"{group.label} on {vehicle.name}'s {facing} (AV{av}): {strength}+{dice}={total}, "
        + {"none": "no effect"}.get(result, f"{result} hit"),
        model=vehicle.id,
        result=result,
    )
    return result


def armour_result(total: int, av: int) -> str:
    """More than the AV penetrates, equal glances, less does nothing (§6.8.13 step 1)."""
    return "penetrating" if total > av else "glancing" if total == av else "none"


def armour_chances(strength: int, av: int, *, ordnance: bool, melta: bool) -> dict[str, Fraction]:
    """The exact chance of each `armour_result` of one hit: a D6 (ordnance: the best of
    2D6) + S, and a Melta die added within half range (§6.8.13 step 1)."""
    throws = list(product(range(1, 7), repeat=(2 if ordnance else 1) + (1 if melta else 0)))
    out: dict[str, Fraction] = {}
    for faces in throws:
        dice = max(faces[:2] if ordnance else faces[:1]) + (faces[-1] if melta else 0)
        result = armour_result(strength + dice, av)
        out[result] = out.get(result, Fraction(0)) + Fraction(1, len(throws))
    return out


def explode_chance(ap: int | None, open_topped: bool) -> Fraction:
    """The chance a penetrating hit's D6 on the Vehicle Damage table reads Explodes!"""
    mod = t.damage_modifier(ap, open_topped)
    return Fraction(sum(t.damage_result(face + mod) == t.EXPLODES for face in range(1, 7)), 6)


def vehicle_odds(state: State, sight: Sight | None, groups: list[Group], target: Unit) -> Odds:
    """One shot's chances through the whole chain `vehicle_hits` resolves: it hits, then
    glances or penetrates the facing it strikes, the hull point is not saved (obscured,
    invulnerable, smoke), and a penetrating hit rolls Explodes! (§6.8.13-§6.8.14).
    Without ``sight`` the attacks are close combat: the facing of §6.13.5, no cover."""
    pool = [m for m in state.members(target) if m.on_table]
    firers = [state.models[f] for f in sorted({f for g in groups for f in g.shots})]
    firers = [f for f in firers if f.cell is not None] or firers
    covers = {
        v.id: None
        if sight is None
        else sight.cover(v, min(firers, key=lambda f: (gap(f, v), f.id)))
        for v in pool
    }
    hit = glance = pen = lost = boom = Fraction(0)
    count = 0
    for g in groups:
        p_hit = group_hit_chance(g)
        for firer_id in g.shots:
            firer = state.models[firer_id]
            placed = firer if firer.cell is not None else None  # as `vehicle_hits` reads it
            vehicle = min(pool, key=lambda v: gap(v, placed) if placed else 0)
            assert vehicle.profile.av is not None
            facing = facing_hit(vehicle, placed, melee=sight is None)
            av = vehicle.profile.av[AV_INDEX[facing]]
            armour = armour_chances(g.strength, av, ordnance=g.ordnance, melta=firer_id in g.melta)
            save = _vehicle_save(state, vehicle, covers[vehicle.id])
            kept = 1 - (Fraction(0) if save is None else save_check(save).chance())
            through = p_hit * armour.get("penetrating", Fraction(0))
            open_topped = "open_topped" in vehicle.profile.vehicle_types
            count += 1
            hit += p_hit
            glance += p_hit * armour.get("glancing", Fraction(0))
            pen += through
            lost += (p_hit - p_hit * armour.get("none", Fraction(0))) * kept
            boom += through * kept * explode_chance(g.ap, open_topped)
    return Odds(
        hit=hit / count,
        chances=(
            ("glancing", glance / count),
            ("penetrating", pen / count),
            ("hull point lost", lost / count),
            ("explodes", boom / count),
        ),
    )


def vehicle_hits(
    state: State,
    ctx: RuleContext,
    player: int,
    unit: Unit,
    group: Group,
    *,
    melee: bool,
    cover: Callable[[Model, Model | None], int | None],
    destroy: DestroyHook,
) -> Procedure[int]:
    """Resolve a group's hits on a vehicle unit; returns unsaved glancing + penetrating hits."""
    unsaved = 0
    for firer_id in group.hits:
        firer = state.models.get(firer_id)
        pool = [m for m in state.members(unit) if m.on_table]
        if not pool:
            break
        on_table = firer is not None and firer.cell is not None
        vehicle = min(pool, key=lambda v: gap(v, firer) if on_table and firer else 0)
        facing = facing_hit(vehicle, firer if on_table else None, melee=melee)
        result = penetration(ctx, player, vehicle, group.strength, facing, group, firer_id)
        if result == "none":
            continue
        save = _vehicle_save(state, vehicle, None if melee else cover(vehicle, firer))
        if save is not None:
            check = save_check(save)
            reason = f"save ({save}+) for {vehicle.name}"
            face = ctx.dice.d6(player=vehicle.player, reason=reason, check=check)
            if check.passes(face):
                ctx.emit("WoundSaved", f"{vehicle.name} saves the {result} hit on {face}")
                continue
        unsaved += 1
        yield from hull_point_lost(state, ctx, vehicle, result == "penetrating", group.ap, destroy)
    return unsaved


def _vehicle_save(state: State, vehicle: Model, cover: int | None) -> int | None:
    options = [v for v in (cover, invulnerable(state, vehicle)) if v is not None]
    if _active(vehicle.smoke_until, state):
        options.append(t.FEATURES["woods"].cover or 5)
    return max(2, min(options)) if options else None


def hull_point_lost(
    state: State,
    ctx: RuleContext,
    vehicle: Model,
    penetrating: bool,
    ap: int | None,
    destroy: DestroyHook,
) -> Procedure[None]:
    """-1 HP; a penetrating hit rolls on the damage table first (§6.8.13 steps 3-6, A-15)."""
    vehicle.hp -= 1
    ctx.emit(
        "HullPointLost",
        f"{vehicle.name} loses a hull point ({vehicle.hp} left)",
        model=vehicle.id,
        hp=vehicle.hp,
    )
    if penetrating:
        result = damage_roll(state, ctx, vehicle, ap)
        if result == t.EXPLODES:
            yield from destroy(state, ctx, vehicle, t.EXPLODES)
            return
        apply_damage(state, ctx, vehicle, result)
    if vehicle.hp <= 0 and not vehicle.removed:
        yield from destroy(state, ctx, vehicle, WRECKED)


def damage_roll(state: State, ctx: RuleContext, vehicle: Model, ap: int | None) -> str:
    """D6 + modifiers on the Vehicle Damage table (§6.8.13 step 4, §6.8.14)."""
    reason = f"vehicle damage on {vehicle.name}"
    face = ctx.dice.d6(player=1 - vehicle.player, reason=reason, check=TABLE)
    mod = t.damage_modifier(ap, "open_topped" in vehicle.profile.vehicle_types)
    result = t.damage_result(face + mod)
    ctx.emit(
        "DamageRolled",
        f"Vehicle damage {face}+{mod}={face + mod}: {result}",
        model=vehicle.id,
        result=result,
    )
    return result


def apply_damage(state: State, ctx: RuleContext, vehicle: Model, result: str) -> None:
    """Apply a damage result other than Explodes! (§6.8.14)."""
    if result == t.SHAKEN:
        vehicle.shaken_until = max(vehicle.shaken_until, state.next_turn_end(vehicle.player))
    elif result == t.STUNNED:
        vehicle.stunned_until = max(vehicle.stunned_until, state.next_turn_end(vehicle.player))
    elif result == t.WEAPON_DESTROYED:
        working = vehicle.weapons()
        if not working:
            ctx.emit("DamageRolled", f"{vehicle.name} has no weapon left: Immobilised instead")
            apply_damage(state, ctx, vehicle, t.IMMOBILISED)
            return
        pick = 0
        if len(working) > 1:
            pick = (
                ctx.dice.roll(
                    1, len(working), player=-1, reason="random weapon destroyed", check=TABLE
                ).faces[0]
                - 1
            )
        index, mount = working[pick]
        vehicle.destroyed_weapons.append(index)
        ctx.emit(
            "WeaponDestroyed",
            f"{vehicle.name}'s {mount.weapon.name} is destroyed",
            model=vehicle.id,
        )
    elif result == t.IMMOBILISED:
        if vehicle.immobilised:
            vehicle.hp -= 1
            ctx.emit(
                "HullPointLost",
                f"{vehicle.name} is immobilised again and loses another hull point "
                f"({vehicle.hp} left)",
                model=vehicle.id,
                hp=vehicle.hp,
            )
        vehicle.immobilised = True


def is_snap_only(state: State, vehicle: Model) -> bool:
    """Crew Shaken or Stunned: snap shots only until the end of its next turn (§6.8.14)."""
    return _active(vehicle.shaken_until, state) or _active(vehicle.stunned_until, state)


def is_stunned(state: State, vehicle: Model) -> bool:
    return _active(vehicle.stunned_until, state)


def _active(until: int, state: State) -> bool:
    """An effect "until the end of turn ``until``" is on (0: never set)."""
    return until > 0 and until >= state.turn_index


def remove_exploded(state: State, ctx: RuleContext, vehicle: Model) -> list[Cell]:
    """Take an exploded vehicle off the table; its footprint becomes a crater (§6.8.14)."""
    cells = list(vehicle.rect.cells())
    for cell in cells:
        state.terrain[cell] = "crater"
    state.cache.clear()
    remove_model(state, ctx, vehicle, "exploded")
    return cells
