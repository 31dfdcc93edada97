"""Deployment (digest apocalypse §4.3, FILL-IN, with PROPOSED A2).

Roll-off on a D12 each (ties re-rolled); the winner chooses who deploys first; players
alternate whole detachments; each unit is placed wholly in its owner's zone, embarked in
a friendly transport with room, or put in Reserve. A unit the scenario places (``at``)
needs no Decision. The player who places his last detachment first wins turn-1
initiative ties.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.roll_off import roll_off
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.attacks import ROLL_OFF
from engine.rulesets.apocalypse.geometry import command_warnings
from engine.rulesets.apocalypse.placement import cell_options, deployment_cells, parse_cell
from engine.rulesets.apocalypse.state import (
    BATTLEFIELD,
    RESERVE,
    ApocState,
    Detachment,
    Unit,
)
from engine.rulesets.apocalypse.transports import board, can_carry
from engine.wording import order_chosen, says


def deploy(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """§4.3 steps 2-6."""
    # §4.3 step 2: a D12 each, ties re-rolled.
    names = (state.side(0).name, state.side(1).name)
    winner = roll_off(
        ctx, names, "Deployment roll-off", "chooses who deploys first", die=12, check=ROLL_OFF
    )
    choice = yield Decision(
        winner,
        DecisionKind.PICK_OPTION,
        "You won the deployment roll-off: who deploys first?",
        (Option("first", "Deploy first"), Option("second", "The opponent deploys first")),
    )
    player = winner if choice.key == "first" else 1 - winner
    ctx.emit(
        "DeploymentOrderChosen",
        order_chosen(state.side(winner).name, state.side(1 - winner).name, player == winner),
        player=winner,
        first=player,
    )
    pending = {p: [d for d in state.detachments.values() if d.owner == p] for p in (0, 1)}
    finished: int | None = None
    while pending[0] or pending[1]:
        if not pending[player]:
            player = 1 - player
            continue
        det = yield from _pick_detachment(state, ctx, player, pending[player])
        pending[player].remove(det)
        yield from deploy_detachment(state, ctx, det)
        if not pending[player] and finished is None:
            finished = player
        if pending[1 - player]:
            player = 1 - player
    state.first_deployed = finished if finished is not None else 0
    ctx.emit(
        "DeploymentFinished",
        f"Deployment over; {state.side(state.first_deployed).name} finished first",
        player=state.first_deployed,
    )


def _pick_detachment(
    state: ApocState, ctx: RuleContext, player: int, dets: list[Detachment]
) -> Procedure[Detachment]:
    if len(dets) == 1:
        ctx.answered(f"{dets[0].name} is the last detachment of its side to deploy.", player)
        return dets[0]
    choice = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        "Which detachment do you deploy next?",
        tuple(Option(d.id, d.name) for d in dets),
    )
    return state.detachments[choice.key]


def deploy_detachment(state: ApocState, ctx: RuleContext, det: Detachment) -> Procedure[None]:
    """Each unit: place, embark or Reserve (§4.3 step 4); transports go first."""
    units = state.units_in(det)
    units.sort(key=lambda u: "TRANSPORT" not in u.sheet.keywords)
    for unit in units:
        if unit.start.count(",") == 1:
            _place(state, ctx, unit, unit.start)
            continue
        options = _options(state, unit)
        choice = yield Decision(
            unit.owner,
            DecisionKind.PICK_CELL,
            f"Deploy {unit.name} ({det.name})",
            tuple(options),
            subject=unit.uid,
        )
        if choice.key == "reserve":
            state.put(unit, RESERVE)
            ctx.emit(
                "UnitReserved",
                f"{says(unit.name, 'waits')} in Reserve",
                player=unit.owner,
                unit=unit.uid,
            )
        elif choice.key.startswith("embark:"):
            carrier = state.units[choice.key.split(":", 1)[1]]
            board(state, unit, carrier)
            ctx.emit(
                "Embarked",
                f"{says(unit.name, 'starts')} embarked in {carrier.name}",
                player=unit.owner,
                unit=unit.uid,
            )
        else:
            _place(state, ctx, unit, choice.key)


def _options(state: ApocState, unit: Unit) -> list[Option]:
    embark = [
        Option(f"embark:{t.uid}", f"Embark in {t.name}", model=t.uid)
        for t in state.units_of(unit.owner)
        if "TRANSPORT" in t.sheet.keywords
        and t.location in (BATTLEFIELD, RESERVE)
        and can_carry(t, unit)
    ]
    reserve = [Option("reserve", "Put in Reserve")]
    cells = cell_options(deployment_cells(state, unit), "Deploy at", command_warnings(state, unit))
    if unit.start == "reserve":
        return reserve + embark + cells
    if unit.start == "embark":
        return embark + reserve + cells
    return cells + embark + reserve


def _place(state: ApocState, ctx: RuleContext, unit: Unit, key: str) -> None:
    state.put(unit, BATTLEFIELD, parse_cell(key))
    ctx.emit(
        "UnitDeployed",
        f"{says(unit.name, 'deploys')} at {unit.anchor}",
        player=unit.owner,
        unit=unit.uid,
    )
