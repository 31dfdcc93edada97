"""How many shots each weapon fires, and at what skill (digest wh40k6 §6.8.4, §6.8.5).

A model fires one weapon (§7 D26, FILL-IN); a vehicle fires every weapon in its arc, as
many at full BS as its speed allows and the rest as snap shots (§6.8.5, §10 A-11).
Passengers of an open-topped transport fire from its hull (§6.15). Shots of one weapon
by one model become a `Shot`; `volley` groups them (§6.8.7).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.facing import in_arc, in_left_half, in_right_half
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import majority_toughness
from engine.rulesets.wh40k6.geometry import Sight, gap
from engine.rulesets.wh40k6.morale import is_gone_to_ground
from engine.rulesets.wh40k6.profiles import Mount, Weapon
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.vehicles import AV_INDEX, centre2, facing_hit, is_snap_only, is_stunned
from engine.wording import counted


@dataclass(frozen=True, slots=True)
class Shot:
    """One weapon fired by one model at the target."""

    model: str
    weapon: Weapon
    count: int
    snap: bool
    bs: int
    position: str
    """The model whose footprint the shot is measured from (a transport for passengers)."""
    auto: bool = False
    """Hits automatically (templates on Overwatch, §6.12)."""


def position_of(state: State, model: Model) -> Model | None:
    """Where a model shoots from: itself, or the open-topped transport it rides in."""
    if model.cell is not None:
        return model
    unit = state.unit_of(model)
    if unit.embarked_in is None:
        return None
    transport = state.models[unit.embarked_in]
    if "open_topped" not in transport.profile.vehicle_types or not transport.on_table:
        return None
    return transport


def has_moved(state: State, model: Model) -> bool:
    """Moved this turn, or counts as having moved (passengers, §6.8.6, §10 A-30)."""
    unit = state.unit_of(model)
    if model.moved or unit.disembarked or unit.counts_moved_until >= state.turn_index > 0:
        return True
    if unit.embarked_in is not None:
        fire = passenger_fire(state, state.models[unit.embarked_in])
        return fire == "moved"
    return False


def passenger_fire(state: State, transport: Model) -> str:
    """normal / moved / snap / none, from the transport's speed and crew (§6.8.6)."""
    if transport.stunned_until >= state.turn_index > 0:
        return t.PASSENGER_FIRE["crew stunned"]
    if transport.shaken_until >= state.turn_index > 0:
        return t.PASSENGER_FIRE["crew shaken"]
    return t.PASSENGER_FIRE[transport.speed]


def unit_snap_only(state: State, unit: Unit) -> bool:
    """Falling back, regrouped, gone to ground, or riding a fast transport (§6.5, §6.6)."""
    if unit.falling_back or unit.regrouped or is_gone_to_ground(state, unit):
        return True
    if unit.embarked_in is not None:
        return passenger_fire(state, state.models[unit.embarked_in]) == "snap"
    return False


def in_weapon_arc(shooter: Model, mount: Mount, target: Model) -> bool:
    """Vehicle weapon arcs (§11.5): turret all round, hull and walkers ±45°, sponsons sides."""
    if not shooter.is_vehicle or mount.mount == "turret":
        return True
    origin = centre2(shooter.rect)
    point = centre2(target.rect)
    if shooter.profile.is_walker or mount.mount == "hull":
        return in_arc(shooter.facing, origin, point, 1)
    if mount.mount == "sponson_right":
        return in_right_half(shooter.facing, origin, point)
    return in_left_half(shooter.facing, origin, point)


def reach_of(state: State, model: Model, weapon: Weapon) -> int:
    """Effective range: Salvo weapons of a model that moved reach half range (§6.8.4)."""
    if weapon.kind == t.SALVO and has_moved(state, model):
        return weapon.range // 2
    return weapon.range


def can_pivot(state: State, model: Model) -> bool:
    """A walker pivots freely before it fires, unless immobilised or stunned (§11.5, §6.8.14)."""
    return model.profile.is_walker and not model.immobilised and not is_stunned(state, model)


def targets_in_reach(
    state: State, sight: Sight, model: Model, mount: Mount, target: Unit, *, pivot: bool = False
) -> list[Model]:
    """Target models within range, in line of sight and (vehicles) in the weapon's arc.

    Passengers fire from an open-topped hull all round: the transport's weapon arcs bind
    only its own weapons (§6.15). With ``pivot`` a walker that may still pivot is asked
    what it could reach after turning, as target selection must (§11.5).
    """
    pos = position_of(state, model)
    if pos is None:
        return []
    rng = reach_of(state, model, mount.weapon)
    all_round = pos is not model or (pivot and can_pivot(state, pos))
    return [
        m
        for m in state.on_table(target)
        if gap(pos, m) <= rng and sight.sees(pos, m) and (all_round or in_weapon_arc(pos, mount, m))
    ]


def has_target_in_reach(
    state: State, sight: Sight, model: Model, mount: Mount, target: Unit, *, pivot: bool = False
) -> bool:
    """`targets_in_reach` is not empty: stops at the first model it finds."""
    pos = position_of(state, model)
    if pos is None:
        return False
    rng = reach_of(state, model, mount.weapon)
    all_round = pos is not model or (pivot and can_pivot(state, pos))
    return any(
        gap(pos, m) <= rng and sight.sees(pos, m) and (all_round or in_weapon_arc(pos, mount, m))
        for m in state.on_table(target)
    )


def shot_count(
    state: State, model: Model, weapon: Weapon, nearest: int, *, overwatch: bool = False
) -> tuple[int, bool]:
    """(shots, snap) of a non-vehicle model's weapon (§6.8.4); 0 shots when it cannot fire."""
    moved = False if overwatch else has_moved(state, model)
    kind = weapon.kind
    if kind == t.RAPID_FIRE:
        count = 2 if nearest <= weapon.range // 2 else 1
    elif kind == t.SALVO and weapon.salvo:
        count = weapon.salvo[0] if moved else weapon.salvo[1]
    else:
        count = weapon.shots
    snap = overwatch or unit_snap_only(state, state.unit_of(model))
    if moved and kind == t.ORDNANCE:
        return 0, False
    if moved and kind == t.HEAVY and "relentless" not in model.profile.rules:
        snap = True
    if snap and (weapon.is_area or kind == t.ORDNANCE):
        return 0, True
    return count, snap


def vehicle_full_bs(state: State, vehicle: Model) -> int:
    """How many weapons may fire at full BS after this move (§6.8.5); 0 = snap only."""
    if is_snap_only(state, vehicle):
        return 0
    row = t.VEHICLE_FIRE[vehicle.profile.fire_class()]
    index = {t.STATIONARY: 0, t.COMBAT: 1, t.CRUISING: 2}.get(vehicle.speed)
    if index is None:
        return 0
    value = row[index]
    return 0 if value is None else value


def can_vehicle_fire(vehicle: Model) -> bool:
    """A vehicle that moved flat out cannot shoot (§6.8.5)."""
    return vehicle.speed != t.FLAT_OUT


def hit_needed(bs: int, snap: bool, weapon: Weapon) -> tuple[int, int | None]:
    """To-hit target and re-roll target (§6.8.8; twin-linked re-rolls misses)."""
    if bs <= 0:
        return 7, None
    if snap:
        return t.SNAP_SHOT, (t.SNAP_SHOT if "twin_linked" in weapon.rules else None)
    needed, reroll = t.to_hit(bs)
    if "twin_linked" in weapon.rules:
        reroll = needed  # re-roll every miss at the normal target; never twice (§6.8.8)
    return needed, reroll


def harm_note(state: State, sight: Sight, shooters: list[Model], target: Unit) -> str:
    """Why no weapon of these models in reach can hurt ``target``, or "" if one can.

    Against vehicles the best roll is S + 6 (+6 more for melta) on the facing each firer
    would hit (§6.8.13); against others the wound chart's "-" (§6.8.9). A shot that can
    never hurt is still allowed, but not offered silently.
    """
    best: tuple[int, str] | None = None
    for m in shooters:
        pos = position_of(state, m)
        for _, mount in m.weapons():
            w = mount.weapon
            if not w.is_ranged or w.range <= 0:
                continue
            reached = targets_in_reach(state, sight, m, mount, target, pivot=True)
            strength = w.strength_for(m.profile.s)
            for v in reached:
                if v.is_vehicle and v.profile.av is not None and pos is not None:
                    facing = facing_hit(v, pos)
                    av = v.profile.av[AV_INDEX[facing]]
                    if strength + 6 + (6 if "melta" in w.rules else 0) >= av:
                        return ""
                    gap_ = av - strength
                    if best is None or gap_ < best[0]:
                        best = (gap_, f"S{strength} cannot reach {facing} armour {av}")
                elif not v.is_vehicle:
                    toughness = majority_toughness(state, target)
                    if t.to_wound(strength, toughness) is not None:
                        return ""
                    best = best or (99, f"S{strength} cannot wound T{toughness}")
    return "" if best is None else f"cannot damage it: {best[1]}"


def reach_note(state: State, sight: Sight, shooters: list[Model], target: Unit) -> str:
    """How far the target is and how many of the firing models reach it: '21"' or
    '21", 1 of 10 models in range' (a player reads the odds knowing who fires)."""
    armed = [m for m in shooters if any(mount.weapon.is_ranged for _, mount in m.weapons())]
    near: int | None = None
    reaching = 0
    for m in armed:
        pos = position_of(state, m)
        if pos is None:
            continue
        gaps = [gap(pos, v) for v in state.on_table(target)]
        if gaps and (near is None or min(gaps) < near):
            near = min(gaps)
        if any(
            targets_in_reach(state, sight, m, mount, target, pivot=True)
            for _, mount in m.weapons()
            if mount.weapon.is_ranged
        ):
            reaching += 1
    if near is None:
        return ""
    if reaching < len(armed):
        return f'{near}", {reaching} of {counted(len(armed), "model")} in range'
    return f'{near}"'
