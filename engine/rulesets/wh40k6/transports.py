"""Transports: embarking, disembarking, emergency disembarkation (digest wh40k6 §6.15).

The optional module of the digest, simplified as it says: a unit whose every model ends
its move within 2" of a friendly transport may embark if there is room (§7 D20); an
embarked unit may disembark at the start of its move if the transport has not moved more
than 6", placing its models within 6" of the hull (they count as having moved and may
not charge unless the transport is open-topped). Passengers of a wrecked or exploded
transport are placed within 3" of the hull; those that cannot be placed are destroyed.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Procedure, ask_yes_no
from engine.footprints import Rect, rect_distance, square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.damage import remove_model
from engine.rulesets.wh40k6.geometry import gap
from engine.rulesets.wh40k6.paths import Field
from engine.rulesets.wh40k6.placement import Placement, place_unit
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.wording import says


def passengers(state: State, transport: Model) -> list[Unit]:
    return [u for u in state.units.values() if u.embarked_in == transport.id and not u.destroyed]


def room(state: State, transport: Model) -> int:
    used = sum(len(state.members(u)) for u in passengers(state, transport))
    return transport.profile.capacity - used


def transports_for(state: State, unit: Unit) -> list[Model]:
    """Friendly transports the whole unit could embark on now (§6.15)."""
    models = state.on_table(unit)
    if not models or any(m.is_vehicle for m in models) or unit.disembarked:
        return []
    out = []
    for v in state.table_models():
        if v.player != unit.player or "transport" not in v.profile.vehicle_types:
            continue
        if room(state, v) >= len(models) and all(gap(m, v) <= t.EMBARK_RANGE for m in models):
            out.append(v)
    return out


def offer_embark(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """After its move a unit may embark on a transport within 2" (§7 D20)."""
    for transport in transports_for(state, unit):
        yes = yield from ask_yes_no(unit.player, f"Embark {unit.name} on {transport.name}?")
        if yes:
            embark(state, ctx, unit, transport)
            return


def embark(state: State, ctx: RuleContext, unit: Unit, transport: Model) -> None:
    for m in state.members(unit):
        m.cell = None
    unit.embarked_in = transport.id
    unit.embarked = True
    ctx.emit("UnitEmbarked", f"{says(unit.name, 'embarks')} on {transport.name}", unit=unit.id)


def can_disembark(state: State, unit: Unit) -> bool:
    """Not embarked this turn; the transport moved at most 6"; room to stand (§6.15)."""
    if unit.embarked_in is None or unit.embarked:
        return False
    transport = state.models[unit.embarked_in]
    if not transport.on_table or transport.moved_inches > t.COMBAT_SPEED:
        return False
    near = _cells_near(state, unit, transport.rect, t.DISEMBARK_RANGE)
    return len(frozenset().union(*near.values())) >= len(state.members(unit))


def _cells_near(state: State, unit: Unit, hull: Rect, inches: int) -> dict[str, frozenset[Cell]]:
    """Anchors within ``inches`` of the hull where each model of the unit may stand
    (worked out once per footprint size: a squad's ten models share one)."""
    models = state.members(unit)
    f = Field(state, unit.player, [m.id for m in models])
    by_size: dict[int, frozenset[Cell]] = {}
    for size in {m.profile.size for m in models}:
        by_size[size] = frozenset(
            Cell(x, y)
            for x in range(max(0, hull.x0 - inches), min(state.width - size, hull.x1 + inches) + 1)
            for y in range(max(0, hull.y0 - inches), min(state.height - size, hull.y1 + inches) + 1)
            if rect_distance(square(Cell(x, y), size), hull) <= inches
            and not f.end.any_in(square(Cell(x, y), size))
        )
    return {m.id: by_size[m.profile.size] for m in models}


def disembark(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Place the unit within 6" of the hull; it counts as having moved (§6.15)."""
    assert unit.embarked_in is not None
    transport = state.models[unit.embarked_in]
    allowed = _cells_near(state, unit, transport.rect, t.DISEMBARK_RANGE)
    models = state.members(unit)
    cells = yield from place_unit(ctx, Placement(unit, models, allowed, "disembark"))
    for m in models:
        m.cell = cells[m.id]
        m.moved = True
    unit.embarked_in = None
    unit.disembarked = True
    unit.left_open_topped = "open_topped" in transport.profile.vehicle_types
    unit.moved = True
    ctx.emit(
        "UnitDisembarked", f"{says(unit.name, 'disembarks')} from {transport.name}", unit=unit.id
    )


def emergency_disembark(state: State, ctx: RuleContext, unit: Unit, hull: Rect) -> Procedure[None]:
    """Wrecked or exploded transport: models within 3" of the hull or destroyed (§6.8.6)."""
    unit.embarked_in = None
    models = state.members(unit)
    if not models:
        return
    allowed = _cells_near(state, unit, hull, t.EMERGENCY_DISEMBARK)
    free = set().union(*allowed.values()) if allowed else set()
    keep = models[: len(free)]
    for m in models[len(free) :]:
        remove_model(state, ctx, m, "could not get out of the transport")
    if keep:
        # PROPOSED: coherency is not required when bailing out of a burning hull.
        cells = yield from place_unit(
            ctx,
            Placement(unit, keep, {m.id: allowed[m.id] for m in keep}, "bail out", coherent=False),
        )
        for m in keep:
            m.cell = cells[m.id]
            m.moved = True
    unit.counts_moved_until = state.next_turn_end(unit.player)
    ctx.emit("UnitDisembarked", f"{says(unit.name, 'bails')} out of the wreck", unit=unit.id)
