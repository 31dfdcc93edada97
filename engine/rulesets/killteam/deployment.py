"""Setup: starting CP, the deployment roll-off, table sides and placing models.

Digest killteam §4.3 (underdog CP), §4.4 (roll-off 1D6 each, ties re-rolled; the winner
picks a zone; the loser places first; alternate one model at a time; PROPOSED: when one
side has placed everything, the other places the rest).
"""

from __future__ import annotations

from functools import lru_cache

from engine.board import Board, Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure, cell_options
from engine.roll_off import roll_off
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model
from engine.wording import says


def starting_cp(state: KTState, ctx: RuleContext) -> None:
    """+1 CP per full 10 points a roster is cheaper than the opponent's (§4.3, ex. S20)."""
    for team in state.teams:
        other = state.team(1 - team.player)
        bonus = max(0, (other.points - team.points) // 10)
        team.cp += bonus
        if bonus:
            ctx.emit(
                "CommandPointsGained",
                f"{says(team.name, 'starts')} with {bonus} CP "
                f"(roster {other.points - team.points} points cheaper)",
                player=team.player,
                cp=team.cp,
            )


def names(state: KTState) -> tuple[str, str]:
    """Both teams' names, seat order (a roll-off's line names them)."""
    return state.team(0).name, state.team(1).name


def deploy(state: KTState, ctx: RuleContext, zones: tuple[str, str]) -> Procedure[None]:
    """§4.4 steps 1-4: roll-off, choose a side, alternate placing models."""
    state.phase = "Deployment"
    ctx.enter(0, "Deployment")
    # §10 A29: 1D6 each, ties re-rolled.
    winner = roll_off(ctx, names(state), "Deployment roll-off", "chooses the deployment zone")
    choice = yield Decision(
        winner,
        DecisionKind.PICK_OPTION,
        "You won the roll-off: choose your deployment zone",
        tuple(Option(z, f"Deploy in the {z} zone") for z in zones),
    )
    state.team(winner).zone = choice.key
    state.team(1 - winner).zone = next(z for z in zones if z != choice.key)
    ctx.emit(
        "ZoneChosen",
        f"{says(state.team(winner).name, 'deploys')} {choice.key}",
        player=winner,
        zone=choice.key,
    )
    loser = 1 - winner
    state.first_deployer = loser
    player = loser
    while True:
        waiting = [m for m in state.models_of(player) if m.cell is None]
        if not waiting:
            player = 1 - player
            if not [m for m in state.models_of(player) if m.cell is None]:
                break
            continue
        yield from _place_one(state, ctx, player, waiting)
        if [m for m in state.models_of(1 - player) if m.cell is None]:
            player = 1 - player


def _place_one(
    state: KTState, ctx: RuleContext, player: int, waiting: list[Model]
) -> Procedure[None]:
    state.step = "Place a model"
    if len(waiting) == 1:
        model = waiting[0]
        ctx.answered(f"{model.name} is the only model left to place.", player)
    else:
        pick = yield Decision(
            player,
            DecisionKind.PICK_MODEL,
            "Deployment: choose the next model to place",
            tuple(Option(m.id, m.name, model=m.id) for m in waiting),
        )
        model = state.models[pick.key]
    zone_name = state.team(player).zone
    assert zone_name is not None
    taken = state.occupied()
    free = [c for c in _zone_cells(state.board, state.zones[zone_name]) if c not in taken]
    cell_choice = yield Decision(
        player,
        DecisionKind.PICK_CELL,
        f"Deployment: place {model.name} in the {zone_name} zone",
        cell_options(free, "cell "),
        subject=model.id,
    )
    x, y = (int(v) for v in cell_choice.key.split(","))
    model.cell = Cell(x, y)
    ctx.emit("ModelDeployed", f"{model.name} deploys at {model.cell}", model=model.id, x=x, y=y)


@lru_cache(maxsize=16)
def _zone_cells(board: Board, cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """Cells of a zone that models may stand on (no walls or impassable ground), row by
    row from the south: worked out once per zone, not at each model placed."""
    return tuple(sorted((c for c in cells if board.is_standable(c)), key=lambda c: (c.y, c.x)))
