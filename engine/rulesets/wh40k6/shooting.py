"""The Shooting phase: each unit shoots or moves instead (digest wh40k6 §6.8, §6.9).

The active player picks a unit (D23), which shoots, runs (turbo-boosts, moves flat out),
fires smoke, or does nothing (D24). Shooting: pick the target (D25), perhaps a
witchfire (D22, §6.7), the weapon of each model (D26, D27), Focus Fire (D28); then
`volley` resolves it. At the end, units that lost 25% test Morale (§6.10).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.checks import DISTANCE
from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.fire_orders import build_shots, focus_choice, shot_odds, snap_only
from engine.rulesets.wh40k6.flyers import flyer_move
from engine.rulesets.wh40k6.geometry import Sight, bounds, bounds_apart, gap
from engine.rulesets.wh40k6.morale import end_of_phase_morale, is_gone_to_ground, is_locked
from engine.rulesets.wh40k6.movement import begin_phase, move_unit, moving_words, resume_move
from engine.rulesets.wh40k6.paths import can_fly
from engine.rulesets.wh40k6.psychic import (
    PSI_BOLT,
    deny_the_witch,
    psychic_test,
    witchfire_power,
    witchfire_psykers,
)
from engine.rulesets.wh40k6.relic import check_relic
from engine.rulesets.wh40k6.shots import (
    Shot,
    harm_note,
    has_target_in_reach,
    passenger_fire,
    position_of,
    reach_note,
)
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.volley import Fire, resolve_fire
from engine.wording import says

END, SHOOT, MOVE, SMOKE, NOTHING = "end", "shoot", "move", "smoke", "nothing"


SHOOTING_ON = "Shooting (next unit)"
"""The checkpoint between two units' actions (``ctx.boundary``): undo replays one unit's."""
RUNNING = "Shooting (unit moving)"
"""A checkpoint inside a unit's run, turbo-boost or flat out placement (`State.moving`)."""


def shooting_phase(state: State, ctx: RuleContext, *, resumed: bool = False) -> Procedure[None]:
    """T3: units act one at a time, then the 25% Morale checks (§5, §6.8.1).

    ``resumed``: from a checkpoint between two units (`SHOOTING_ON`) or inside a unit's
    move (`RUNNING`)."""
    player = state.active
    if not resumed:
        begin_phase(state)
    elif state.moving is not None:
        unit = state.units[state.moving.unit]
        row = shooting_move_row(state, unit)
        assert row is not None, f"{unit.id} resumed a move it may not make"
        models = state.on_table(unit)
        yield from resume_move(state, ctx, RUNNING)
        _after_run(state, ctx, unit, row, models)
    while True:
        if resumed:
            ctx.boundary(state.game_turn, SHOOTING_ON)
        resumed = True  # a checkpoint before every unit but the first (the phase's own)
        sight = Sight(state)
        ready = [(u, acts) for u in state.units_of(player) if (acts := actions(state, u, sight))]
        if not ready:
            break
        options = [Option(END, "End the Shooting phase", ends=True)]
        options += [
            Option(u.id, f"{u.name}: {_action_words(state, u, a)}", cell=state.lead_cell(u))
            for u, a in ready
        ]
        choice = yield Decision(
            player, DecisionKind.PICK_OPTION, "Which unit acts next?", tuple(options)
        )
        if choice.key == END:
            break
        unit = state.units[choice.key]
        unit.activated = True
        yield from act(state, ctx, unit, next(a for u, a in ready if u.id == unit.id))
    yield from end_of_phase_morale(state, ctx, "Shooting")


def _action_words(state: State, unit: Unit, acts: list[str]) -> str:
    """ "shoot, run": what picking the unit offers (a lone action is taken at once)."""
    row = shooting_move_row(state, unit)
    move = row.kind.lower() if row is not None else MOVE
    return ", ".join(move if a == MOVE else a for a in acts)


def firers(state: State, unit: Unit) -> list[Model]:
    """Models able to fire: on the table or in an open-topped transport (§6.15)."""
    out = []
    riding = state.models.get(unit.embarked_in or "")
    if riding is not None and passenger_fire(state, riding) == "none":
        return []
    for m in state.members(unit):
        if m.profile.bs <= 0 or position_of(state, m) is None:
            continue
        if m.is_vehicle and m.speed == t.FLAT_OUT:
            continue
        out.append(m)
    return out


def target_units(state: State, sight: Sight, unit: Unit) -> list[Unit]:
    """Enemy units with a model in range and sight of some weapon of the unit (§6.8.2)."""
    return list(_targets(state, sight, unit))


def _targets(state: State, sight: Sight, unit: Unit) -> Iterator[Unit]:
    """`target_units` one by one: whether the unit can shoot at all stops at the first
    (the unit list asks it of every unit before each pick)."""
    mounts = [
        (m, mount)
        for m in firers(state, unit)
        for _, mount in m.weapons()
        if mount.weapon.is_ranged
    ]
    longest = max((mount.weapon.range for _, mount in mounts), default=-1)
    places = list({id(p): p for p in (position_of(state, m) for m, _ in mounts) if p}.values())
    around = bounds(places)
    for enemy in state.deployed(1 - unit.player):
        # No weapon reaches farther than its range: an enemy beyond the longest from every
        # firer needs no sight line traced (only a witchfire may still reach it). Each
        # firing place once (a model with three guns was measured three times), and
        # none where the rectangles around the two are that far apart.
        foes = state.on_table(enemy)
        near = not bounds_apart(around, bounds(foes), longest) and any(
            gap(p, e) <= longest for p in places for e in foes
        )
        if (
            near
            and any(
                has_target_in_reach(state, sight, m, mount, enemy, pivot=True)
                for m, mount in mounts
            )
        ) or witchfire_psykers(state, sight, unit, enemy):
            yield enemy


def shooting_move_row(state: State, unit: Unit) -> t.ShootingMove | None:
    """What the unit may do instead of shooting (§6.9), or None."""
    models = state.on_table(unit)
    if not models or unit.embarked_in is not None:
        return None
    first = models[0]
    row = t.SHOOTING_MOVES.get(first.profile.run_class())
    if row is None:
        return None
    if first.is_vehicle:
        if first.immobilised or first.stunned_until >= state.turn_index > 0:
            return None
        if first.speed == t.FLAT_OUT:
            return None
    if unit.regrouped or is_gone_to_ground(state, unit):
        return None  # "cannot move further this turn" (§6.6), "cannot move" (§6.8.11)
    if row.kind == "Run" and unit.falling_back:
        return None
    return row


def actions(state: State, unit: Unit, sight: Sight) -> list[str]:
    """D24 choices the unit has now (empty: it cannot act this phase)."""
    if unit.activated or unit.destroyed or unit.in_reserve or is_locked(state, unit):
        return []
    out = []
    if next(_targets(state, sight, unit), None) is not None:
        out.append(SHOOT)
    row = shooting_move_row(state, unit)
    if row is not None:
        out.append(MOVE)
    models = state.on_table(unit)
    if models and models[0].is_vehicle and _can_smoke(models[0]):
        out.append(SMOKE)
    return out


def _can_smoke(vehicle: Model) -> bool:
    """Smoke launchers: once per game, not after moving flat out (§8, seed p.87)."""
    rules = vehicle.profile.rules
    return "smoke_launchers" in rules and not vehicle.smoke_used and vehicle.speed != t.FLAT_OUT


def act(state: State, ctx: RuleContext, unit: Unit, acts: list[str]) -> Procedure[None]:
    """D24: shoot, move instead, smoke, or nothing."""
    row = shooting_move_row(state, unit)
    labels = {
        SHOOT: "Shoot",
        MOVE: f"{row.kind} instead of shooting" if row else "",
        SMOKE: "Fire smoke launchers (5+ cover until your next turn)",
    }
    if len(acts) == 1:
        # Picked from a list that named its one action ("Horde Mob: run"): do it.
        key = acts[0]
    else:
        options = [Option(a, labels[a]) for a in acts] + [
            Option(NOTHING, "Do nothing", neutral=True)
        ]
        choice = yield Decision(
            unit.player,
            DecisionKind.PICK_OPTION,
            f"What does {unit.name} do?",
            tuple(options),
            subject=state.lead(unit),
        )
        key = choice.key
    if key == SHOOT:
        yield from shoot(state, ctx, unit)
    elif key == MOVE and row is not None:
        yield from shooting_move(state, ctx, unit, row)
    elif key == SMOKE:
        vehicle = state.on_table(unit)[0]
        vehicle.smoke_used = True
        vehicle.smoke_until = state.turn_index + 1
        unit.has_shot = True
        ctx.emit("SmokeLaunched", f"{vehicle.name} fires its smoke launchers", model=vehicle.id)


def shooting_move(
    state: State, ctx: RuleContext, unit: Unit, row: t.ShootingMove
) -> Procedure[None]:
    """Run, turbo-boost or flat out (§6.9); Fleet re-rolls Run dice (D29)."""
    inches = row.inches
    if row.dice:
        reason = f"{row.kind} for {unit.name}"
        roll = ctx.dice.roll(row.dice, 6, player=unit.player, reason=reason, check=DISTANCE)
        faces = list(roll.faces)
        if _has_fleet(state, unit):
            faces = yield from fleet_rerolls(ctx, unit, faces, row.kind)
        inches = sum(faces)
        said = row.dice == 1 and tuple(faces) == roll.faces  # the dice line says it all
        ctx.emit(
            "RunRolled",
            "" if said else f'{unit.name} may {moving_words(row.kind.lower())} {inches}"',
            unit=unit.id,
            inches=inches,
        )
    models = state.on_table(unit)
    if models[0].profile.is_flyer:
        moved = yield from flyer_move(state, ctx, models[0], row.minimum, row.inches, 0)
        unit.moved_fast = True
        if moved >= 0:
            models[0].speed = t.FLAT_OUT
        return
    fly = all(can_fly(m, unit.packs) for m in models)
    kind = row.kind.lower()
    yield from move_unit(
        state,
        ctx,
        unit,
        inches,
        fly=fly,
        through=True,
        verb=kind,
        tests="dangerous",
        inside=RUNNING,
    )
    _after_run(state, ctx, unit, row, models)


def _after_run(
    state: State, ctx: RuleContext, unit: Unit, row: t.ShootingMove, models: list[Model]
) -> None:
    """What a run, turbo-boost or flat out leaves behind; ``models`` are the unit's models
    on the table when it began."""
    unit.ran = row.kind == "Run"
    unit.moved_fast = row.kind != "Run"
    if models[0].is_vehicle and row.kind == "Flat out":
        models[0].speed = t.FLAT_OUT
    check_relic(state, ctx, unit)


def _has_fleet(state: State, unit: Unit) -> bool:
    members = state.members(unit)
    return bool(members) and all("fleet" in m.profile.rules for m in members)


KEEP = "keep"


def fleet_rerolls(
    ctx: RuleContext, unit: Unit, faces: list[int], what: str, *, reached: bool = False
) -> Procedure[list[int]]:
    """Re-roll one or more of the dice, each at most once (§8 Fleet, D29/D36).

    One question for all the dice: which to re-roll. Only the lowest ones are offered
    (re-rolling a die while keeping a lower one never does better), so the choices are
    "keep them all" and "re-roll the lowest k".

    Not asked when only one answer makes sense: ``reached`` (the roll already does what
    it must) or all sixes keep the dice; all ones are re-rolled (nothing can be lost).
    """
    if reached or all(f == 6 for f in faces):
        return list(faces)
    order = sorted(range(len(faces)), key=lambda n: (faces[n], n))
    if all(f == 1 for f in faces):
        return [_reroll(ctx, unit, what) for _ in faces]
    options = [Option(KEEP, f"Keep {_dice_words(faces)}")]
    for k in range(1, len(faces) + 1):
        options.append(
            Option(f"lowest-{k}", f"Re-roll {_dice_words([faces[n] for n in order[:k]])}")
        )
    choice = yield Decision(
        unit.player,
        DecisionKind.PICK_OPTION,
        f"{unit.name}: Fleet re-roll of the {what} {'die' if len(faces) == 1 else 'dice'} "
        f"({', '.join(map(str, faces))})?",
        tuple(options),
    )
    out = list(faces)
    if choice.key != KEEP:
        for n in sorted(order[: int(choice.key.split("-")[1])]):
            out[n] = _reroll(ctx, unit, what)
    return out


def _reroll(ctx: RuleContext, unit: Unit, what: str) -> int:
    return ctx.dice.d6(player=unit.player, reason=f"re-rolled {what} die", check=DISTANCE)


def _dice_words(faces: list[int]) -> str:
    """ "the 2", "the 1 and the 4"."""
    if len(faces) == 1:
        return f"the {faces[0]}"
    return " and ".join(f"the {f}" for f in faces)


def shoot(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """D25 target, D22 witchfire, D26/D27 weapons, D28 focus fire, then the volley."""
    sight = Sight(state)
    targets = target_units(state, sight, unit)
    shooters = firers(state, unit)
    options = []
    for u in targets:
        note = harm_note(state, sight, shooters, u)
        notes = "; ".join(n for n in (reach_note(state, sight, shooters, u), note) if n)
        options.append(
            Option(
                u.id,
                u.name + (f" ({notes})" if notes else ""),
                cell=state.on_table(u)[0].cell,
                odds=shot_odds(state, sight, unit, u),
            )
        )
    choice = yield Decision(
        unit.player,
        DecisionKind.PICK_TARGET,
        f"{says(unit.name, 'shoots')} at which unit?",
        tuple(options),
    )
    target = state.units[choice.key]
    witch: list[Shot] = []
    used: set[str] = set()
    for psyker in witchfire_psykers(state, sight, unit, target):
        power = witchfire_power(psyker)
        yes = yield from ask_yes_no(
            unit.player, f"{psyker.name}: manifest {power.name} at {target.name}?"
        )
        if not yes:
            continue
        used.add(psyker.id)
        manifested = psychic_test(state, ctx, psyker, power) and psyker.on_table
        if manifested and not deny_the_witch(state, ctx, target, power):
            witch.append(
                Shot(psyker.id, PSI_BOLT, PSI_BOLT.shots, False, psyker.profile.bs, psyker.id)
            )
    shots = yield from build_shots(state, ctx, sight, unit, target, skip=used)
    shots = witch + shots
    if any(m.profile.is_flyer for m in state.on_table(target)):
        shots = snap_only(shots)
    unit.has_shot = True
    unit.shot_target = target.id
    unit.fired_types.update(s.weapon.kind for s in shots if s.count)
    if not shots or target.destroyed:
        ctx.emit(
            "NothingFired",
            f"{says(unit.name, 'has')} nothing to fire at {target.name}",
            unit=unit.id,
        )
        return
    fire = Fire(unit, target, shots, sight)
    fire.focus = yield from focus_choice(state, fire)
    ctx.emit(
        "UnitShot", f"{says(unit.name, 'shoots')} at {target.name}", unit=unit.id, target=target.id
    )
    yield from resolve_fire(state, ctx, fire)
