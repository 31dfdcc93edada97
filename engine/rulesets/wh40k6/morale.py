"""Leadership tests: Morale, Pinning, Regroup, and the fall-back move (digest wh40k6).

§6.10 Morale (25% casualties at the end of a Movement or Shooting phase, losing a
combat), §6.8.15 Pinning, §6.6 Regroup, §6.5 Fall Back, §3.7 Leadership tests (double 1
always passes Morale and Regroup), §4.7 warlord traits and §4.8 Dread Hex as modifiers.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.checks import DISTANCE, Check
from engine.decisions import Procedure
from engine.footprints import rect_distance, square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.attacks import unsaveable_wound
from engine.rulesets.wh40k6.damage import drop_relic, remove_model
from engine.rulesets.wh40k6.geometry import gap, rect_edge_distance
from engine.rulesets.wh40k6.paths import Field, crossed, touches
from engine.rulesets.wh40k6.placement import Placement, place_unit
from engine.rulesets.wh40k6.profiles import UnitType
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.wording import agreeing, agrees, says

DANGEROUS = Check("dangerous terrain", 2, "a 1 fails", fails_on=frozenset())


def is_locked(state: State, unit: Unit) -> bool:
    """Locked in combat: a model in base contact with an enemy that fights (§6.13, §6.14)."""
    return unit.id in locked_units(state)


def locked_units(state: State) -> frozenset[str]:
    """Ids of the units locked in combat, cached until a model moves or is removed.

    As bits of one integer per side: the cells of its fighting models (not vehicles, or
    walkers), on the table with a blank column either side and a blank row below (rings
    never wrap), grown by one cell every way; a fighting model whose footprint meets the
    other side's grown bits is in base contact (within 1")."""
    key = tuple(m.cell for m in state.models.values())
    cached = state.cache.get("locked")
    if isinstance(cached, tuple) and cached[0] == key:
        found: frozenset[str] = cached[1]
        return found
    stride = state.width + 2
    feet: list[tuple[Model, int]] = []
    sides = [0, 0]
    for m in state.table_models():
        if m.is_vehicle and not m.profile.is_walker:
            continue
        x0, y0, x1, y1 = m.rect
        row = ((1 << (x1 - x0 + 1)) - 1) << (x0 + 1)
        foot = 0
        for y in range(y0 + 1, y1 + 2):
            foot |= row << (y * stride)
        sides[m.player] |= foot
        feet.append((m, foot))
    grown = []
    for bits in sides:
        wide = bits | bits << 1 | bits >> 1
        grown.append(wide | wide << stride | wide >> stride)
    out = {m.unit for m, foot in feet if foot & grown[1 - m.player]}
    result = frozenset(out)
    state.cache["locked"] = (key, result)
    return result


def locked_units_plain(state: State) -> frozenset[str]:
    """`locked_units` as the rule says it, model against model (tests hold the fast one
    to it): a fighting model within 1" of a fighting enemy (its footprint touching or
    overlapping the enemy's)."""

    def fights(m: Model) -> bool:
        return not m.is_vehicle or m.profile.is_walker

    table = [m for m in state.table_models() if fights(m)]
    return frozenset(
        m.unit
        for m in table
        if any(e.player != m.player and rect_distance(m.rect, e.rect) <= 1 for e in table)
    )


def is_fearless(state: State, unit: Unit) -> bool:
    members = state.members(unit)
    return bool(members) and all("fearless" in m.profile.rules for m in members)


def is_vehicle_unit(state: State, unit: Unit) -> bool:
    members = state.members(unit)
    return bool(members) and all(m.is_vehicle for m in members)


def leadership(state: State, unit: Unit) -> int:
    """The unit's Ld for tests: highest in the unit (§12.1), traits and Dread Hex (min 2)."""
    members = state.members(unit)
    ld = max((m.profile.ld for m in members), default=2)
    for side in state.sides:
        warlord = state.models.get(side.warlord)
        if warlord is None or not warlord.on_table:
            continue
        near = any(gap(m, warlord) <= t.TRAIT_RANGE for m in state.on_table(unit))
        if not near:
            continue
        if side.trait == 1 and side.player == unit.player:
            ld = max(ld, warlord.profile.ld)
        if side.trait == 2 and side.player != unit.player:
            ld -= 1
    ld -= unit.effect("dread_hex")
    return max(2, ld)


def ld_check(ld: int, kind: str, *, insane: bool = False, perils: bool = False) -> Check:
    """2D6 at most Ld (§3.7); a double 1 (the only 2) passes Morale and Regroup, and a
    psychic test's double 6 (the only 12) fails (§6.7 step 3)."""
    return Check(
        kind,
        ld,
        f"Ld {ld}",
        dice=2,
        at_most=True,
        fails_on=frozenset({12}) if perils else frozenset(),
        passes_on=frozenset({2}) if insane or perils else frozenset(),
        words=("passes", "fails"),
    )


def ld_test(
    state: State, ctx: RuleContext, unit: Unit, kind: str, modifier: int = 0, insane: bool = True
) -> bool:
    """2D6 <= Ld + modifier passes; a double 1 passes Morale and Regroup (§3.7)."""
    ld = max(2, leadership(state, unit) + modifier)
    check = ld_check(ld, kind, insane=insane)
    reason = f"{kind} test for {unit.name}"
    faces = ctx.dice.roll(2, 6, player=unit.player, reason=reason, check=check).faces
    total = sum(faces)
    passed = check.passes(total)
    ctx.emit(
        "LeadershipTested",
        "",  # the dice line says it all
        unit=unit.id,
        passed=passed,
    )
    return passed


def morale_check(
    state: State, ctx: RuleContext, unit: Unit, modifier: int = 0, why: str = ""
) -> bool:
    """A Morale check (§6.10); Fearless units pass automatically."""
    if is_fearless(state, unit):
        ctx.emit(
            "LeadershipTested",
            f"{says(unit.name, 'is')} Fearless and {agrees(unit.name, 'passes')}",
            unit=unit.id,
        )
        return True
    return ld_test(state, ctx, unit, f"Morale{why}", modifier)


def end_of_phase_morale(state: State, ctx: RuleContext, phase: str) -> Procedure[None]:
    """Units that lost 25% of their models this phase test Morale; fail: fall back (§6.10).

    Each check is announced as the end of ``phase``'s: its dice otherwise sat right under
    the last unit's shots (or run), and read as if that unit's attack had caused it."""
    for unit in list(state.units.values()):
        start = unit.at_phase_start
        lost = start - len(state.members(unit))
        if unit.destroyed or start == 0 or 4 * lost < start:
            continue
        if is_vehicle_unit(state, unit) or unit.falling_back or is_locked(state, unit):
            continue
        if not state.on_table(unit):
            continue
        ctx.emit(
            "MoraleCheckDue",
            f"End of the {phase} phase: Morale check for {unit.name} "
            f"(lost {lost} of {start} this phase)",
            unit=unit.id,
            player=unit.player,
        )
        if not morale_check(state, ctx, unit):
            yield from fall_back(state, ctx, unit)


def pinning_test(state: State, ctx: RuleContext, unit: Unit) -> None:
    """Ld test; failure: the unit goes to ground (§6.8.15). At most once per phase."""
    if unit.destroyed or unit.pinning_tested or is_vehicle_unit(state, unit):
        return
    if is_fearless(state, unit) or is_gone_to_ground(state, unit):
        return
    unit.pinning_tested = True
    if not ld_test(state, ctx, unit, "Pinning", insane=False):
        go_to_ground(state, ctx, unit)


def is_gone_to_ground(state: State, unit: Unit) -> bool:
    return unit.ground_until > 0 and unit.ground_until >= state.turn_index


def go_to_ground(state: State, ctx: RuleContext, unit: Unit) -> None:
    """Until the end of its owner's next turn: +1 cover, no move, snap shots (§6.8.11)."""
    unit.ground_until = state.next_turn_end(unit.player)
    ctx.emit("WentToGround", f"{says(unit.name, 'goes')} to ground", unit=unit.id)


def fall_back_dice(state: State, unit: Unit) -> int | None:
    """D6 of the fall-back move (§6.2 table; jump units always 3D6, A-7)."""
    members = state.members(unit)
    if not members:
        return None
    rows = []
    for m in members:
        move_class = "jump" if m.profile.unit_type is UnitType.JUMP else m.profile.move_class()
        rows.append(t.MOVE_TABLE[move_class].fall_back)
    if any(r is None for r in rows):
        return None
    return max(r for r in rows if r is not None)


def fall_back(
    state: State, ctx: RuleContext, unit: Unit, combat: tuple[str, ...] = ()
) -> Procedure[None]:
    """The unit falls back: each model moves the rolled distance to its own edge (§6.5)."""
    dice = fall_back_dice(state, unit)
    if dice is None:
        return
    unit.falling_back = True
    for m in state.on_table(unit):
        drop_relic(state, ctx, m)  # a falling-back unit cannot hold the Relic (relic.py)
    reason = f"fall back distance for {unit.name}"
    roll = ctx.dice.roll(dice, 6, player=unit.player, reason=reason, check=DISTANCE)
    ctx.emit(
        "FellBack",
        f'{says(unit.name, "falls")} back {roll.total}"',
        unit=unit.id,
        inches=roll.total,
    )
    edges = state.side(unit.player).edges
    models = sorted(
        state.on_table(unit), key=lambda m: min(rect_edge_distance(state, m.rect, e) for e in edges)
    )
    f = Field(state, unit.player, [m.id for m in models], spare=combat, pass_spared=True)
    taken: set[Cell] = set()
    jump = any(m.profile.unit_type is UnitType.JUMP for m in models)
    for m in models:
        assert m.cell is not None
        start = m.cell
        reach = f.reach(m, start, roll.total, fly=jump)
        best = _fall_back_end(state, m, reach, roll.total, edges, taken, f)
        if best is None:
            remove_model(state, ctx, m, "fell back off the table")
            continue
        m.cell = best
        m.moved = m.moved or best != start
        taken.update(m.rect.cells())
        if jump:
            tested = touches(state, m, start, "difficult") or touches(state, m, best, "difficult")
        else:
            tested = crossed(state, f, m, start, best, roll.total, "dangerous", False)
        if tested:
            dangerous_test(state, ctx, m)
    yield from ()


def _fall_back_end(
    state: State,
    m: Model,
    reach: dict[Cell, int],
    roll: int,
    edges: tuple[str, ...],
    taken: set[Cell],
    f: Field,
) -> Cell | None:
    """The reachable end nearest the own edge; None if the model runs off the table (A-25)."""
    size = m.profile.size
    assert m.cell is not None
    start = m.cell
    scored: list[tuple[int, int, int, int, int, Cell]] = []
    for cell, cost in reach.items():
        rect = square(cell, size)
        edge = min(rect_edge_distance(state, rect, e) for e in edges)
        if edge == 0 and cost < roll:
            return None
        if any(c in taken for c in rect.cells()) or f.enemy_near.any_in(rect):
            continue
        lateral = abs(cell.x - start.x) + abs(cell.y - start.y)
        scored.append((edge, cost, lateral, cell.y, cell.x, cell))
    if not scored:
        return m.cell
    return min(scored)[5]


def dangerous_test(state: State, ctx: RuleContext, model: Model) -> None:
    """D6: on a 1 a model suffers an unsaveable wound, a vehicle is Immobilised (§6.3)."""
    reason = f"dangerous terrain test for {model.name}"
    face = ctx.dice.d6(player=model.player, reason=reason, check=DANGEROUS)
    if face != 1:
        ctx.emit("DangerousTerrainPassed", f"{model.name} passes its dangerous terrain test")
        return
    if model.is_vehicle:
        if model.immobilised:
            model.hp -= 1
            ctx.emit("HullPointLost", f"{model.name} is immobilised again: -1 HP ({model.hp} left)")
        model.immobilised = True
        ctx.emit("VehicleImmobilised", f"{model.name} is immobilised by dangerous terrain")
        return
    unsaveable_wound(state, ctx, model, "dangerous terrain")


def regroup(state: State, ctx: RuleContext, unit: Unit) -> Procedure[bool]:
    """Regroup test at the start of its activation; pass: 3" regroup move (§6.6)."""
    below = 4 * len(state.members(unit)) < unit.start_count
    if below:
        check = Check(
            "Regroup", 2, "double 1 below 25%", dice=2, at_most=True, fails_on=frozenset()
        )
        reason = f"Regroup test for {unit.name}"
        faces = ctx.dice.roll(2, 6, player=unit.player, reason=reason, check=check).faces
        passed = faces == (1, 1)
        ctx.emit(
            "LeadershipTested",
            f"{says(unit.name, 'is')} below 25% and "
            f"{agreeing(unit.name, 'passes on a double 1' if passed else 'fails')} "
            f"its Regroup test ({faces[0]}+{faces[1]})",
            unit=unit.id,
            passed=passed,
        )
    else:
        passed = ld_test(state, ctx, unit, "Regroup")
    if not passed:
        yield from fall_back(state, ctx, unit)
        return False
    unit.falling_back = False
    unit.regrouped = True
    unit.moved = True
    models = state.on_table(unit)
    f = Field(state, unit.player, [m.id for m in models])
    allowed = {m.id: frozenset(f.reach(m, m.cell, t.REGROUP_MOVE, False)) for m in models if m.cell}
    starts = {m.id: m.cell for m in models if m.cell}
    cells = yield from place_unit(ctx, Placement(unit, models, allowed, "regroup", starts))
    for m in models:
        m.moved = m.moved or cells[m.id] != m.cell
        m.cell = cells[m.id]
    return True
