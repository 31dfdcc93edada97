"""Scrum membership: joining, leaving and ending scrums (digest fatigue §3.7, §6.6 step 5).

A unit leaves a scrum only by being destroyed or by fleeing (FILL-IN, §10 #36); when one
side has no units left the scrum ends at once and the survivors are free (§6.8 step 7).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.ruleset import RuleContext
from engine.rulesets.fatigue.state import FState, Scrum, Unit
from engine.wording import says


def scrum_of(state: FState, unit: Unit) -> Scrum | None:
    return None if unit.scrum is None else state.scrums[unit.scrum]


def enemies_in_scrum(state: FState, unit: Unit) -> list[Unit]:
    """Enemy units in play in the unit's scrum, in id order."""
    scrum = scrum_of(state, unit)
    if scrum is None:
        return []
    return [state.units[i] for i in sorted(scrum.sides[1 - unit.player]) if state.units[i].in_play]


def join_scrum(state: FState, ctx: RuleContext, unit: Unit, scrum: Scrum) -> None:
    """Add a unit to a scrum on its owner's side; its first exchange is pending (§6.6 step 5)."""
    scrum.sides[unit.player].append(unit.id)
    scrum.sides[unit.player].sort()
    unit.scrum = scrum.id
    unit.first_exchange = True
    if scrum.id not in unit.scrums_this_round:
        unit.scrums_this_round.append(scrum.id)
    ctx.emit(
        "ScrumJoined", f"{says(unit.name, 'is')} in scrum {scrum.id}", unit=unit.id, scrum=scrum.id
    )


def start_scrum(state: FState, ctx: RuleContext, attacker: Unit, target: Unit) -> Scrum:
    """A new scrum with the attacker on one side and the target on the other (§6.6 step 5)."""
    scrum = state.new_scrum(attacker, target)
    for unit in (attacker, target):
        unit.scrum = scrum.id
        unit.first_exchange = True
        if scrum.id not in unit.scrums_this_round:
            unit.scrums_this_round.append(scrum.id)
    ctx.emit(
        "ScrumStarted",
        f"Scrum {scrum.id}: {attacker.name} against {target.name}",
        scrum=scrum.id,
        attacker=attacker.id,
        target=target.id,
    )
    return scrum


def leave_scrum(state: FState, ctx: RuleContext, unit: Unit) -> None:
    """Take a unit out of its scrum; end the scrum if a side is left empty (§6.9 item 5)."""
    scrum = scrum_of(state, unit)
    if scrum is None:
        return
    scrum.sides[unit.player].remove(unit.id)
    unit.scrum = None
    unit.first_exchange = False
    unit.leap_bonus = False
    settle_scrum(state, ctx, scrum)


def settle_scrum(state: FState, ctx: RuleContext, scrum: Scrum) -> None:
    """Drop destroyed units and end the scrum if one side has no units (§6.8 step 7)."""
    for side in scrum.sides:
        for uid in list(side):
            if not state.units[uid].in_play:
                side.remove(uid)
                state.units[uid].scrum = None
    if scrum.active and not (scrum.sides[0] and scrum.sides[1]):
        scrum.active = False
        for uid in scrum.sides[0] + scrum.sides[1]:
            unit = state.units[uid]
            unit.scrum = None
            unit.first_exchange = False
            unit.leap_bonus = False
        scrum.sides[0].clear()
        scrum.sides[1].clear()
        ctx.emit("ScrumEnded", f"Scrum {scrum.id} is over", scrum=scrum.id)
