"""The ATTACK action: targets, Fear (b), the charge move and joining a scrum.

Digest fatigue §6.6 (steps 1-7), §6.22 item 3, §6.24 item 1, §6.28, §6.30. The exchange
that follows is in ``exchange.py``.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import Cell
from engine.decisions import DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import morale_test, subject_to_fear
from engine.rulesets.fatigue.exchange import resolve_exchange
from engine.rulesets.fatigue.formation import (
    Reach,
    apply_placement,
    choose_formation,
    close_on,
    leap_reach,
    walk_reach,
)
from engine.rulesets.fatigue.geometry import adjacent, height, is_walkable, unit_dist
from engine.rulesets.fatigue.movement import can_leap, reveal
from engine.rulesets.fatigue.prompts import (
    cell_option,
    lead_of,
    parse_cell,
    pick,
    pick_target_unit,
)
from engine.rulesets.fatigue.scrums import enemies_in_scrum, join_scrum, scrum_of, start_scrum
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import CAMO_SPOT_RANGE, FALL_DROP
from engine.wording import says


@dataclass(frozen=True, slots=True)
class ChargeReach:
    """How a unit can reach the enemies around it."""

    walk: Reach
    leap: Reach | None


def is_spotted(state: FState, target: Unit, by: Unit) -> bool:
    """A camouflaged unit is a target only within 3 steps (FILL-IN, §6.30 item 2)."""
    return not target.camouflaged or unit_dist(state, by, target) <= CAMO_SPOT_RANGE


def charge_reach(state: FState, unit: Unit) -> ChargeReach:
    """Walking (M) and leaping reach of every model (§6.6 step 1, §6.27, §6.28).

    Leaps are Giant Leap X landings and, with ELEVATION, jumps down from a height of 2
    or more to a neighbouring cell at least 2 lower (§6.28 item 1); both need the
    special manoeuvres module.
    """
    walk = walk_reach(state, unit, lambda m: m.profile.mobility)
    leap = leap_reach(state, unit) if can_leap(state, unit) else None
    if state.modules.elevation and state.modules.special_manoeuvres:
        jumps = jump_down_reach(state, unit)
        if any(jumps.values()):
            leap = leap or {mid: {} for mid in jumps}
            for mid, cells in jumps.items():
                for cell, cost in cells.items():
                    leap[mid].setdefault(cell, cost)
    return ChargeReach(walk, leap)


def jump_down_reach(state: FState, unit: Unit) -> Reach:
    """Jump-down landings (SEED, §6.28 item 1): adjacent, free, walkable, a drop >= 2."""
    occupied = state.occupied()
    out: Reach = {}
    for model in unit.alive():
        assert model.cell is not None
        here = model.cell
        top = height(state, here)
        out[model.id] = {
            cell: 1
            for cell in (Cell(here.x + dx, here.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            if cell != here
            and is_walkable(state, cell)
            and cell not in occupied
            and top - height(state, cell) >= FALL_DROP
        }
    return out


def contact_cells(state: FState, target: Unit, reach: Reach) -> dict[Cell, str]:
    """Free cells next to the target some model reaches, with that model (§6.6 step 1)."""
    occupied = state.occupied()
    best: dict[Cell, tuple[int, int, str]] = {}
    order = {mid: i for i, mid in enumerate(reach)}
    for tcell in target.cells():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                cell = Cell(tcell.x + dx, tcell.y + dy)
                if cell == tcell or not is_walkable(state, cell):
                    continue
                owner = occupied.get(cell)
                for mid, cells in reach.items():
                    if cell in cells and (owner is None or owner.id == mid):
                        key = (cells[cell], order[mid], mid)
                        if cell not in best or key < best[cell]:
                            best[cell] = key
    return {cell: key[2] for cell, key in best.items()}


def attack_targets(state: FState, unit: Unit, reach: ChargeReach | None = None) -> list[Unit]:
    """Legal ATTACK targets (§6.6 step 1): the scrum's enemies, or those in charge reach."""
    if unit.cannot_attack or not unit.alive():
        return []
    if unit.engaged:
        return enemies_in_scrum(state, unit)
    # Path cost is never below the straight distance, so enemies beyond the longest
    # move (or leap) plus contact cannot be reached: skip the path-finding for them.
    longest = max(m.profile.mobility for m in unit.alive()) + 2
    longest = max(longest, unit.spec.giant_leap + 2, 3)
    near = [
        t
        for t in state.units_in_order()
        if t.player != unit.player
        and is_spotted(state, t, unit)
        and unit_dist(state, unit, t) <= longest
    ]
    if not near:
        return []
    reach = reach or charge_reach(state, unit)
    out = []
    for target in near:
        if contact_cells(state, target, reach.walk) or (
            reach.leap is not None and contact_cells(state, target, reach.leap)
        ):
            out.append(target)
    return sorted(out, key=lambda u: u.id)


def attack_action(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """ATTACK (§6.6 steps 1-7; decision point 10)."""
    reach = None if unit.engaged else charge_reach(state, unit)
    targets = attack_targets(state, unit, reach)
    if not targets:
        ctx.emit("AttackImpossible", f"{says(unit.name, 'has')} no enemy to attack", unit=unit.id)
        return
    target = yield from pick_target_unit(state, ctx, unit, targets, "attack")
    if not fear_b(state, ctx, unit, target):
        return
    if reach is not None:
        yield from charge_move(state, ctx, unit, target, reach)
    scrum = scrum_of(state, target)
    if unit.scrum is None:
        if scrum is None:
            scrum = start_scrum(state, ctx, unit, target)
        else:
            join_scrum(state, ctx, unit, scrum)
    assert unit.scrum is not None
    if unit.camouflaged:  # Ambush (SEED trigger, FILL-IN mechanism, §6.6 step 6)
        target.ambushed = True
        ctx.emit(
            "UnitAmbushed", f"{says(target.name, 'is')} ambushed by {unit.name}", unit=target.id
        )
    reveal(ctx, unit)
    yield from resolve_exchange(state, ctx, state.scrums[unit.scrum], unit)


def fear_b(state: FState, ctx: RuleContext, unit: Unit, target: Unit) -> bool:
    """Fear (b): test before attacking a fear-causer (SEED, §6.6 step 2, §6.22 item 3).

    A failure spends the action with no movement and forbids ATTACK this round
    (PROPOSED, §10 #19). Returns True if the attack goes ahead.
    """
    if unit.fear_b_passed or not subject_to_fear(state, unit, target):
        return True
    if morale_test(ctx, unit, f"fear of {target.name}"):
        unit.fear_b_passed = True
        return True
    unit.cannot_attack = True
    ctx.emit(
        "AttackAbandoned",
        f"{says(unit.name, 'dares')} not attack {target.name}: no ATTACK this round",
        unit=unit.id,
    )
    return False


def charge_move(
    state: FState, ctx: RuleContext, unit: Unit, target: Unit, reach: ChargeReach
) -> Procedure[None]:
    """The charge move (§6.6 step 4): a lead model into contact, the rest close in."""
    walk_cells = contact_cells(state, target, reach.walk)
    leap_cells = {} if reach.leap is None else contact_cells(state, target, reach.leap)
    leaping = not walk_cells
    if walk_cells and leap_cells:
        key = yield from pick(
            unit.player,
            DecisionKind.PICK_OPTION,
            f"{says(unit.name, 'charges')} {target.name}: walk or Leap Attack?",
            [
                Option("walk", "Walk into contact"),
                Option("leap", "Leap Attack (+1 M and a Ramming strike in the first exchange)"),
            ],
            subject=lead_of(unit),
        )
        leaping = key == "leap"
    cells = leap_cells if leaping else walk_cells
    used = reach.leap if leaping and reach.leap is not None else reach.walk
    key = yield from pick(
        unit.player,
        DecisionKind.PICK_CELL,
        f"{says(unit.name, 'charges')} {target.name}: choose the contact cell",
        [
            cell_option(c, f"cell {c} ({state.models[mid].id})")
            for c, mid in sorted(cells.items(), key=lambda item: (item[0].y, item[0].x))
        ],
        subject=lead_of(unit),
    )
    dest = parse_cell(key)
    lead = state.models[cells[dest]]
    score = close_on(state, target.cells())
    placement = yield from choose_formation(
        state, unit, used, lead, dest, score, lambda c: True, "Charge"
    )
    apply_placement(state, ctx, unit, placement, "leaps into contact" if leaping else "charges")
    unit.moved = True
    unit.aim = 0
    if leaping and any(adjacent(dest, t) for t in target.cells()):
        unit.leap_bonus = True  # Leap Attack (SEED, §6.28)
        ctx.emit("LeapAttackMade", f"{says(unit.name, 'makes')} a Leap Attack", unit=unit.id)
