"""The charge sub-phase: declare, Overwatch, charge range, charge move (wh40k6 §6.11-§6.12).

A unit declares one target (D34; multiple charges are left out, §10 A-22). The target may
fire Overwatch (D35, §6.12). The charge range is 2D6, or 3D6 discarding the highest for
foot models whose path crosses difficult terrain (§6.11 table); Fleet re-rolls dice, jump
units using packs re-roll the whole roll (D36, D37). The model closest to the target must
reach base contact; then every model moves with the §6.11 step 5 priorities (D38).
Jet pack and advanced jetbike units that do not charge may move 2D6" (D39).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

from engine.checks import DISTANCE, Check
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure, ask_yes_no
from engine.footprints import square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.areas import overwatch_template_hits
from engine.rulesets.wh40k6.charge_move import charge_move, contact_cost
from engine.rulesets.wh40k6.damage import destroy_unit
from engine.rulesets.wh40k6.fight_odds import fight_chances
from engine.rulesets.wh40k6.fire_orders import build_shots
from engine.rulesets.wh40k6.geometry import Sight, gap, unit_gap
from engine.rulesets.wh40k6.morale import is_gone_to_ground, is_locked, ld_test
from engine.rulesets.wh40k6.movement import move_unit
from engine.rulesets.wh40k6.paths import Field, can_fly, difficult_cells
from engine.rulesets.wh40k6.profiles import UnitType
from engine.rulesets.wh40k6.shooting import _has_fleet, fleet_rerolls, target_units
from engine.rulesets.wh40k6.shots import Shot
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.volley import Fire, resolve_fire
from engine.wording import its, plural, possessive, says

END = "end"
FOOT = (
    UnitType.INFANTRY,
    UnitType.MONSTROUS_CREATURE,
    UnitType.ARTILLERY,
    UnitType.JET_PACK,
)
NO_CHARGE_AFTER = {t.HEAVY, t.RAPID_FIRE, t.SALVO, t.ORDNANCE}


def can_charge(state: State, unit: Unit) -> bool:
    """Charge eligibility (§6.11 list)."""
    models = state.on_table(unit)
    if not models or unit.destroyed or unit.embarked_in is not None:
        return False
    if unit.charged or unit.failed_charge or unit.falling_back or unit.regrouped:
        return False
    if unit.ran or unit.moved_fast or unit.arrived or is_gone_to_ground(state, unit):
        return False
    if unit.fired_types & NO_CHARGE_AFTER or is_locked(state, unit):
        return False
    if not may_ever_charge(models):
        return False
    if unit.disembarked and not _from_open_topped(state, unit):
        return False
    return not ("scout" in models[0].profile.rules and state.game_turn == 1)


def may_ever_charge(models: list[Model]) -> bool:
    """Vehicles other than walkers and gun teams never charge (§6.11 list)."""
    return not any(
        (m.is_vehicle and not m.profile.is_walker) or "gun" in m.profile.rules for m in models
    )


def _from_open_topped(state: State, unit: Unit) -> bool:
    return unit.left_open_topped


def charge_targets(state: State, unit: Unit) -> list[Unit]:
    """Enemy units within 12" and in sight; only the unit it shot at, if it shot (§6.11)."""
    sight = Sight(state)
    return [
        enemy
        for enemy in state.deployed(1 - unit.player)
        if (unit.shot_target is None or enemy.id == unit.shot_target)
        and may_target(state, unit, enemy, sight)
    ]


def may_target(state: State, unit: Unit, enemy: Unit, sight: Sight) -> bool:
    """Within 12", some model in sight, and no flyer: a unit it may declare a charge on
    (§6.11), whatever it did this turn."""
    if any(m.profile.is_flyer for m in state.on_table(enemy)):
        return False
    d = unit_gap(state, unit, enemy)
    if d is None or d > t.MAX_CHARGE:
        return False
    return any(sight.sees(m, e) for m in state.on_table(unit) for e in state.on_table(enemy))


CHARGING_ON = "Assault (next charge)"
"""The checkpoint before each charge declaration but the first (``ctx.boundary``): undo
replays one charge's choices."""


def charge_subphase(state: State, ctx: RuleContext, *, resumed: bool = False) -> Procedure[None]:
    """T4a: charges one unit at a time (D34), assault moves (D39), doomed units die.

    ``resumed``: from a checkpoint between two charges (`CHARGING_ON`); who made an
    assault move is in the state (``jet_moved``)."""
    player = state.active
    if not resumed:
        state.step = "Charge sub-phase"
        state.jet_moved = []
    declared = resumed
    while True:
        options = [Option(END, "No more charges", ends=True)]
        for unit in state.units_of(player):
            if can_charge(state, unit):
                for target in charge_targets(state, unit):
                    options.append(
                        Option(
                            f"{unit.id}>{target.id}",
                            f"{says(unit.name, 'charges')} {target.name}",
                            odds=charge_odds(state, unit, target),
                        )
                    )
            if _may_jet_move(state, unit) and unit.id not in state.jet_moved:
                options.append(
                    Option(f"jet:{unit.id}", f'{unit.name}: 2D6" assault move (no charge)')
                )
        if len(options) == 1:
            ctx.answered(
                f"No {'other ' * bool(declared)}unit can charge: the charges are over.", player
            )
            break
        if declared:
            ctx.boundary(state.game_turn, CHARGING_ON)
        declared = True
        choice = yield Decision(
            player, DecisionKind.PICK_OPTION, "Declare a charge?", tuple(options)
        )
        if choice.key == END:
            break
        if choice.key.startswith("jet:"):
            unit = state.units[choice.key[4:]]
            state.jet_moved.append(unit.id)
            yield from jet_assault_move(state, ctx, unit)
            continue
        uid, tid = choice.key.split(">")
        yield from charge(state, ctx, state.units[uid], state.units[tid])
    for unit in list(state.units.values()):
        if unit.doomed and not unit.destroyed:
            why = "at the end of the charge sub-phase, having failed to regroup when charged"
            destroy_unit(state, ctx, unit, why)


def _may_jet_move(state: State, unit: Unit) -> bool:
    models = state.on_table(unit)
    if not models or unit.charged or is_locked(state, unit) or unit.falling_back:
        return False
    kinds = {m.profile.unit_type for m in models}
    return kinds <= {UnitType.JET_PACK, UnitType.ADV_JETBIKE}


def jet_assault_move(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """D39: up to 2D6" in the Assault phase without charging (§6.11 step 7)."""
    reason = f"assault move for {unit.name}"
    roll = ctx.dice.roll(
        t.JET_ASSAULT_MOVE_DICE, 6, player=unit.player, reason=reason, check=DISTANCE
    )
    ctx.emit("RunRolled", f'{unit.name} may move {roll.total}"', unit=unit.id, inches=roll.total)
    yield from move_unit(
        state, ctx, unit, roll.total, fly=True, through=True, verb="assault move", tests="start_end"
    )


def charge(state: State, ctx: RuleContext, unit: Unit, target: Unit) -> Procedure[None]:
    """Steps 1-6 of §6.11 for one charging unit."""
    ctx.emit(
        "ChargeDeclared",
        f"{says(unit.name, 'declares')} a charge against {target.name}",
        unit=unit.id,
    )
    models = state.on_table(unit)
    jump = all(m.profile.unit_type is UnitType.JUMP for m in models)
    packs = False
    if jump:
        # The packs only add (a re-roll, Hammer of Wrath) unless the charge starts or ends
        # in difficult terrain, where they cost Dangerous Terrain tests: ask only then.
        packs = True
        if charge_crosses_difficult(state, unit, target, True):
            packs = yield from ask_yes_no(
                unit.player,
                f"{'Do' if plural(unit.name) else 'Does'} {unit.name} charge with "
                f"{its(unit.name)} jump packs (Hammer of Wrath, re-roll; Dangerous Terrain tests)?",
                subject=state.lead(unit),
            )
        unit.packs = packs
    yield from overwatch(state, ctx, target, unit)
    if not state.on_table(unit):
        return
    need, slow = charge_need(state, unit, target, packs)
    f = Field(state, unit.player, unit.models, spare=[target.id])
    fly = all(can_fly(m, packs) for m in state.on_table(unit))
    distance = yield from charge_roll(state, ctx, unit, slow, packs, charge_check(need, slow))
    if need is None or need > distance:
        unit.failed_charge = True
        ctx.emit(
            "ChargeFailed",
            f'{says(unit.name, "fails")} {its(unit.name)} charge: {distance}" rolled, '
            + (f'{need}" needed' if need is not None else "no way through"),
            unit=unit.id,
        )
        return
    yield from charge_move(state, ctx, unit, target, distance, f, fly, packs)
    unit.charged = True
    unit.hammer = jump and packs
    grenades = all("assault_grenades" in m.profile.rules for m in state.members(unit))
    unit.charge_difficult = slow and not grenades
    ctx.emit(
        "ChargeSucceeded",
        f"{says(unit.name, 'charges')} into {target.name}",
        unit=unit.id,
        target=target.id,
    )
    if target.falling_back:
        if not ld_test(state, ctx, target, "Regroup (charged while falling back)"):
            target.doomed = True
        else:
            target.falling_back = False


def charge_need(state: State, unit: Unit, target: Unit, packs: bool) -> tuple[int | None, bool]:
    """The inches the closest model needs to reach ``target`` (None: no way), and whether
    the charge is slowed by difficult terrain (§6.11 step 3)."""
    crosses = charge_crosses_difficult(state, unit, target, packs)
    foot = any(m.profile.unit_type in FOOT or m.profile.is_walker for m in state.on_table(unit))
    f = Field(state, unit.player, unit.models, spare=[target.id])
    first = min(
        state.on_table(unit), key=lambda m: (min(gap(m, e) for e in state.on_table(target)), m.id)
    )
    fly = all(can_fly(m, packs) for m in state.on_table(unit))
    return contact_cost(state, f, first, target, fly), crosses and foot and not packs


def charge_chance(need: int | None, slow: bool) -> Fraction:
    """The chance the charge range reaches ``need``: 2D6, or the lowest two of 3D6."""
    if need is None:
        return Fraction(0)
    dice = 3 if slow else 2
    throws = list(product(range(1, 7), repeat=dice))
    return Fraction(sum(_range(list(f), slow) >= need for f in throws), len(throws))


def charge_odds(state: State, unit: Unit, target: Unit) -> Odds:
    """The chance a charge declared now reaches ``target`` (no jump packs, no re-roll),
    then what its fight promises (`fight_chances`)."""
    reach = ("charge succeeds", charge_chance(*charge_need(state, unit, target, False)))
    return Odds.of(reach, *fight_chances(state, unit, target))


def charge_crosses_difficult(state: State, unit: Unit, target: Unit, packs: bool) -> bool:
    """Does the charge cross difficult terrain (§6.11 step 3)? PROPOSED test: some charging
    model stands in it, or the closest model's shortest way into contact needs it."""
    cells = set(difficult_cells(state))
    if not cells:
        return False
    models = state.on_table(unit)
    for m in models:
        if any(c in cells for c in m.rect.cells()):
            return True
    if all(can_fly(m, packs) for m in models):
        return any(
            any(c in cells for c in square(e.cell, e.profile.size).cells())
            for e in state.on_table(target)
            if e.cell is not None
        )
    f = Field(state, unit.player, unit.models, spare=[target.id])
    first = min(models, key=lambda m: (min(gap(m, e) for e in state.on_table(target)), m.id))
    open_way = contact_cost(
        state,
        Field(state, unit.player, unit.models, spare=[target.id], avoid=cells),
        first,
        target,
        False,
    )
    any_way = contact_cost(state, f, first, target, False)
    return any_way is not None and (open_way is None or open_way > any_way)


def charge_check(need: int | None, slow: bool) -> Check:
    """The charge range against the distance the closest model needs (§6.11 step 3)."""
    if need is None:
        return Check.purpose("charge range: no way through")
    if slow:
        return Check.purpose(f"charge range, 3D6 less the highest: needs {need}")
    words = ("in range", "short")
    return Check("charge", need, f"distance {need}", dice=2, fails_on=frozenset(), words=words)


def charge_roll(
    state: State,
    ctx: RuleContext,
    unit: Unit,
    slow: bool,
    packs: bool,
    check: Check | None = None,
) -> Procedure[int]:
    """2D6, or 3D6 discarding the highest for foot models in difficult terrain; D36."""
    dice = 3 if slow else 2
    check = check or Check.purpose("charge range", dice=dice)
    reason = f"charge range for {unit.name}"
    faces = list(ctx.dice.roll(dice, 6, player=unit.player, reason=reason, check=check).faces)
    side = state.side(unit.player)
    fearsome = side.trait == 3 and side.warlord in unit.models
    reached = check.target is not None and _range(faces, slow) >= check.target
    if _has_fleet(state, unit) or fearsome:
        faces = yield from fleet_rerolls(ctx, unit, faces, "charge", reached=reached)
    elif packs and not reached:
        total = _range(faces, slow)
        odds = f" ({check.odds_text()})" if check.target is not None else ""
        again = yield from ask_yes_no(
            unit.player,
            f'{unit.name} rolled {total}": re-roll the charge?{odds}',
            subject=state.lead(unit),
        )
        if again:
            reason = "re-rolled charge range"
            faces = list(
                ctx.dice.roll(dice, 6, player=unit.player, reason=reason, check=check).faces
            )
    total = _range(faces, slow)
    ctx.emit(
        "ChargeRolled",
        f'{possessive(unit.name)} charge range: {total}"',
        unit=unit.id,
        inches=total,
    )
    return total


def template_overwatch(
    state: State, ctx: RuleContext, sight: Sight, unit: Unit, charger: Unit
) -> list[Shot]:
    """Template weapons on Overwatch: D3 automatic hits each (§6.12)."""
    out = []
    for m in state.on_table(unit):
        for _, mount in m.weapons():
            w = mount.weapon
            if "template" not in w.rules:
                continue
            if not any(gap(m, c) <= w.range and sight.sees(m, c) for c in state.on_table(charger)):
                continue
            hits = overwatch_template_hits(
                ctx, unit.player, Shot(m.id, w, 1, False, m.profile.bs, m.id)
            )
            plain = replace(w, rules=w.rules - {"template"})
            out.append(Shot(m.id, plain, hits, False, m.profile.bs, m.id, auto=True))
            break
    return out


def _range(faces: list[int], slow: bool) -> int:
    return sum(sorted(faces)[:2]) if slow else sum(faces)


def overwatch(state: State, ctx: RuleContext, target: Unit, charger: Unit) -> Procedure[None]:
    """D35: the charged unit may fire Overwatch snap shots at the charger (§6.12)."""
    if target.overwatch_used or is_locked(state, target) or not state.on_table(target):
        return
    if all(m.is_vehicle and not m.profile.is_walker for m in state.on_table(target)):
        return
    sight = Sight(state)
    if charger not in target_units(state, sight, target):
        return
    yes = yield from ask_yes_no(
        target.player,
        f"{target.name}: fire Overwatch at {charger.name}?",
        subject=state.lead(target),
    )
    if not yes:
        return
    target.overwatch_used = True
    shots = yield from build_shots(state, ctx, sight, target, charger, overwatch=True)
    shots += template_overwatch(state, ctx, sight, target, charger)
    ctx.emit(
        "OverwatchFired",
        f"{says(target.name, 'fires')} Overwatch at {charger.name}",
        unit=target.id,
    )
    if shots:
        yield from resolve_fire(state, ctx, Fire(target, charger, shots, sight, overwatch=True))
