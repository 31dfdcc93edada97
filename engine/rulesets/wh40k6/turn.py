"""The game: setup, game turns of two player turns, game length, result (wh40k6 §4, §5).

Written as the rulebook reads: the pre-game sequence, then game turns in which the first
player and then the second play Movement, Shooting and Assault (I-go-you-go), with the
variable game length of §4.12 and sudden death checked after every player turn.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.checks import Check
from engine.decisions import Procedure
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.charge import CHARGING_ON, charge_subphase
from engine.rulesets.wh40k6.deployment import (
    DEPLOYING_ON,
    deploy_army,
    deployment_order,
    infiltrate,
    scouts,
    waiting,
)
from engine.rulesets.wh40k6.fight import FIGHTING_ON, fight_subphase
from engine.rulesets.wh40k6.movement import MOVING_ON, MOVING_UNIT, movement_phase
from engine.rulesets.wh40k6.objectives import place_objectives
from engine.rulesets.wh40k6.scoring import final_outcome, sudden_death
from engine.rulesets.wh40k6.setup import (
    SetupOptions,
    pregame_until_deployment,
    seize_the_initiative,
)
from engine.rulesets.wh40k6.shooting import RUNNING, SHOOTING_ON, shooting_phase
from engine.rulesets.wh40k6.state import State


def play_game(state: State, ctx: RuleContext, options: SetupOptions) -> Procedure[Outcome]:
    """The whole game (§4.1, §5)."""
    winner = yield from pregame_until_deployment(state, ctx, options)
    return (yield from play_setup(state, ctx, "Deployment", winner))


def play_setup(state: State, ctx: RuleContext, step: str, winner: int) -> Procedure[Outcome]:
    """The game from a step of the pre-game sequence on (§4.1): "Objectives" (placed by
    the table-halves roll-off ``winner`` first; a position gives traits and powers),
    "Deployment" (the roll-off for who deploys first, both armies, infiltrators and
    scouts), `DEPLOYING_ON` (a checkpoint before a unit is deployed), or "Seize the
    Initiative" (the armies on the table)."""
    if step == "Objectives":
        state.phase = "Setup"
        ctx.enter(0, "Setup")
        yield from place_objectives(state, ctx, winner)
    state.phase = "Deployment"
    ctx.enter(0, "Deployment")
    if step in ("Objectives", "Deployment"):
        yield from deployment_order(state, ctx)
    if step in ("Objectives", "Deployment", DEPLOYING_ON):
        inside = step == DEPLOYING_ON  # a checkpoint before a unit: whose army is placed
        order: tuple[int, ...] = (state.first_deployer, 1 - state.first_deployer)
        if inside and not waiting(state, order[0]):
            order = order[1:]
        for player in order:
            yield from deploy_army(state, ctx, player, resumed=inside and player == order[0])
        yield from infiltrate(state, ctx)
        yield from scouts(state, ctx)
    yield from seize_the_initiative(state, ctx)
    return (yield from game_turns(state, ctx))


def game_turns(state: State, ctx: RuleContext) -> Procedure[Outcome]:
    """Game turns 1.. until the game ends (§4.12, §5)."""
    for number in range(1, t.LAST_TURN + 1):
        state.game_turn = number
        for player in (state.first_player, 1 - state.first_player):
            yield from player_turn(state, ctx, player)
            ended = sudden_death(state)
            if ended is not None:
                return ended
        if not another_turn(state, ctx, number):
            break
    return final_outcome(state, ctx)


def another_turn(state: State, ctx: RuleContext, number: int) -> bool:
    """Game length (§4.12): after turn 5 a 3+ continues, after turn 6 a 4+, 7 is the last."""
    needed = t.GAME_LENGTH.get(number)
    if number >= t.LAST_TURN:
        return False
    if needed is None:
        return True
    check = Check.at_least("game length", needed, f"after turn {number}", ("goes on", "ends"))
    face = ctx.dice.d6(player=-1, reason="game length", check=check)
    goes_on = check.passes(face)
    ctx.emit(
        "GameLengthRolled",
        f"End of game turn {number}: "  # the dice line has the face
        + ("the battle goes on" if goes_on else "the game ends"),
        face=face,
    )
    return goes_on


def _begin(state: State, ctx: RuleContext, phase: str, inside: bool) -> None:
    """A phase's checkpoint and start; resumed inside it, only the log's stamp."""
    if inside:
        ctx.enter(state.game_turn, phase)
        return
    ctx.boundary(state.game_turn, phase)
    _enter(state, ctx, phase)


def _enter(state: State, ctx: RuleContext, phase: str) -> None:
    state.phase = phase
    state.step = ""
    ctx.enter(state.game_turn, phase)
    ctx.emit(
        "PhaseStarted",
        f"Turn {state.game_turn}, {state.side(state.active).name}: {phase} phase",
        phase=phase,
        player=state.active,
    )


def start_of_turn(state: State, player: int) -> None:
    """T0: expire effects, clear per-turn flags of the player's units, and every charge (§5)."""
    state.turn_index += 1
    state.active = player
    for unit in state.units.values():
        unit.effects = [e for e in unit.effects if e[2] > state.turn_index]
        unit.overwatch_used = False
        if unit.player == player:
            unit.clear_turn()
        else:
            # "Charged this turn" (§6.13.4) means the charger's own turn: a combat fought
            # on in the enemy's turn gets no +1 Attack and no I1 for difficult terrain.
            unit.charged = unit.hammer = unit.charge_difficult = False
    for model in state.models.values():
        if model.player == player:
            model.moved = False
            model.powers_used = 0
            if model.is_vehicle:
                model.speed = t.STATIONARY
                model.moved_inches = 0


def player_turn(state: State, ctx: RuleContext, player: int) -> Procedure[None]:
    """T0-T5 of one player turn (§5)."""
    start_of_turn(state, player)
    yield from turn_phases(state, ctx, "Movement")


TURN = ("Movement", "Shooting", "Assault")
"""The phases of a player turn, each a checkpoint (``ctx.boundary``)."""


INSIDE = {
    MOVING_ON: "Movement",
    MOVING_UNIT: "Movement",
    SHOOTING_ON: "Shooting",
    RUNNING: "Shooting",
    CHARGING_ON: "Assault",
    FIGHTING_ON: "Assault",
}
"""Checkpoints inside a phase (between two units' activations, inside a unit's move), and
the phase each lies in."""


def turn_phases(state: State, ctx: RuleContext, start: str) -> Procedure[None]:
    """The active player's turn after T0, from the start of phase ``start`` (§5), or from
    between two units' activations of it (a key of `INSIDE`)."""
    inside = start in INSIDE
    at = TURN.index(INSIDE.get(start, start))
    if at == 0:
        _begin(state, ctx, "Movement", inside)
        yield from movement_phase(state, ctx, resumed=inside)
    if at <= 1:
        _begin(state, ctx, "Shooting", inside and at == 1)
        yield from shooting_phase(state, ctx, resumed=inside and at == 1)
    _begin(state, ctx, "Assault", inside and at == 2)
    if start != FIGHTING_ON:
        yield from charge_subphase(state, ctx, resumed=start == CHARGING_ON)
    yield from fight_subphase(state, ctx, resumed=start == FIGHTING_ON)
