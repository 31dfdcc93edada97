"""Embarking and disembarking (digest apocalypse §6.8.1-§6.8.2, §10 A36-A38).

A unit cannot embark and disembark in the same turn (S58); embarked units do nothing
but disembark as their Move action, and nothing affects them (S62).
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import wholly_within
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.command import check_deserters, clear
from engine.rulesets.apocalypse.damage import resolve_blasts
from engine.rulesets.apocalypse.placement import (
    cell_options,
    disembark_cells,
    parse_cell,
    pick_cell,
)
from engine.rulesets.apocalypse.state import BATTLEFIELD, EMBARKED, ApocState, Unit
from engine.wording import says

EMBARK_RANGE = 6


def can_carry(transport: Unit, unit: Unit) -> bool:
    """Free capacity and the passenger has every allowed keyword (FILL-IN §3.1)."""
    sheet = transport.sheet
    return (
        sheet.capacity > len(transport.passengers)
        and all(unit.sheet.has(k) for k in sheet.allowed)
        and transport.owner == unit.owner
        and transport is not unit
    )


def embark_choices(state: ApocState, unit: Unit) -> list[Unit]:
    """Friendly transports the unit could board now (§6.8.1 step 1)."""
    if unit.disembarked_this_turn or not unit.on_battlefield or unit.passengers:
        return []
    r = unit.rect
    return [
        t
        for t in state.on_battlefield(unit.owner)
        if "TRANSPORT" in t.sheet.keywords
        and can_carry(t, unit)
        and wholly_within(r, t.rect, EMBARK_RANGE)
    ]


def offer_embark(state: ApocState, ctx: RuleContext, unit: Unit) -> Procedure[bool]:
    """Offer to board a transport in reach; True if it did (§6.8.1, A38)."""
    transports = embark_choices(state, unit)
    if not transports:
        return False
    choice = yield Decision(
        unit.owner,
        DecisionKind.PICK_OPTION,
        f"{unit.name}: embark?",
        (
            Option("no", "Stay on the battlefield"),
            *(Option(t.uid, f"Embark in {t.name}", cell=t.anchor, model=t.uid) for t in transports),
        ),
        subject=unit.uid,
    )
    if choice.key == "no":
        return False
    yield from embark(state, ctx, unit, state.units[choice.key])
    return True


def embark(state: ApocState, ctx: RuleContext, unit: Unit, transport: Unit) -> Procedure[None]:
    """Resolve blast markers first, then board (§6.8.1 steps 2-4)."""
    if unit.blasts:
        destroyed = yield from resolve_blasts(state, ctx, unit, windows=False)
        if destroyed:
            return
    board(state, unit, transport)
    unit.embarked_this_turn = True
    unit.step2_done = True
    ctx.emit(
        "Embarked",
        f"{says(unit.name, 'embarks')} in {transport.name}",
        player=unit.owner,
        unit=unit.uid,
        transport=transport.uid,
    )
    if unit.deserter:
        clear(ctx, unit, "embarks")


def board(state: ApocState, unit: Unit, transport: Unit) -> None:
    """Put the unit inside the transport (§6.8.1 step 3; at deployment §4.3 step 4b)."""
    state.put(unit, EMBARKED)
    unit.transport = transport.uid
    transport.passengers.append(unit.uid)


def can_disembark(state: ApocState, unit: Unit) -> bool:
    """Its transport is on the battlefield and has not moved this phase (§6.8.2 step 1)."""
    if unit.location != EMBARKED or unit.transport is None or unit.embarked_this_turn:
        return False
    carrier = state.units[unit.transport]
    return carrier.location == BATTLEFIELD and not carrier.moved


def disembark_move(state: ApocState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """The embarked unit's Move action: get out, or stay inside (§6.6 step 1, §6.8.2)."""
    unit.move_done = True
    if not can_disembark(state, unit):
        return
    assert unit.transport is not None
    carrier = state.units[unit.transport]
    cells = disembark_cells(state, unit, carrier)
    if not cells:
        return
    options = [Option("stay", f"Stay in {carrier.name}"), *cell_options(cells, "Disembark at")]
    choice = yield pick_cell(unit.owner, f"{unit.name}: disembark where?", options, unit.uid)
    if choice.key == "stay":
        return
    carrier.passengers.remove(unit.uid)
    state.put(unit, BATTLEFIELD, parse_cell(choice.key))
    unit.transport = None
    unit.disembarked_this_turn = True
    unit.moved = True
    ctx.emit(
        "Disembarked",
        f"{says(unit.name, 'disembarks')} from {carrier.name} at {unit.anchor}",
        player=unit.owner,
        unit=unit.uid,
    )
    check_deserters(state, ctx)
