"""Command range and Deserter markers (digest apocalypse §6.3.1, §6.3.2 step 4, §6.7).

A unit on the battlefield more than 12" from its Commander (or the transport carrying
it), or whose Commander is in Reserve, gets a Deserter marker in the Orders phase; the
marker goes as soon as the unit is back within 12" (or embarks, PROPOSED A7), and a unit
still carrying it in the Damage phase is destroyed (§6.12.2 step 1).
"""

from __future__ import annotations

from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.geometry import in_command
from engine.rulesets.apocalypse.state import BATTLEFIELD, ApocState, Unit


def needs_marker(state: ApocState, unit: Unit) -> bool:
    """Out of command: not the Commander, on the battlefield, beyond 12" (§6.3.1 2-4)."""
    return unit.on_battlefield and not unit.is_commander and not in_command(state, unit)


def place_deserters(state: ApocState, ctx: RuleContext) -> None:
    """Orders phase step (a): mark every out-of-command unit (§6.3.1)."""
    for unit in state.units.values():
        if not unit.deserter and needs_marker(state, unit):
            mark(ctx, unit)


def mark(ctx: RuleContext, unit: Unit) -> None:
    """Give the unit a Deserter marker (§6.3.1, §6.3.2 step 4)."""
    unit.deserter = True
    ctx.emit(
        "DeserterMarked",
        f"{unit.name} is out of command: Deserter marker",
        player=unit.owner,
        unit=unit.uid,
    )


def check_deserters(state: ApocState, ctx: RuleContext) -> None:
    """Remove the markers of units now within 12" of their Commander (§6.7)."""
    for unit in state.units.values():
        if unit.deserter and unit.location == BATTLEFIELD and in_command(state, unit):
            clear(ctx, unit, "is back within command range")


def clear(ctx: RuleContext, unit: Unit, why: str) -> None:
    """Remove the unit's Deserter marker, saying why (§6.7)."""
    unit.deserter = False
    ctx.emit(
        "DeserterCleared",
        f"{unit.name} {why}: Deserter marker removed",
        player=unit.owner,
        unit=unit.uid,
    )
