"""Playing on from a position: the rest of a player turn, then the game (wh40k6 §5).

A game started from a position (`position`) begins at the start of one phase of one
player turn. The rest of that turn reuses the phase procedures of `turn`; the following
player turns, the game length rolls (§4.12) and sudden death are those of `play_game`.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.charge import charge_subphase
from engine.rulesets.wh40k6.fight import fight_subphase
from engine.rulesets.wh40k6.scoring import final_outcome, sudden_death
from engine.rulesets.wh40k6.shooting import shooting_phase
from engine.rulesets.wh40k6.state import State
from engine.rulesets.wh40k6.turn import another_turn, player_turn, turn_phases

ORDER = ("Movement", "Shooting", "Assault", "Fight")


def play_from(
    state: State, ctx: RuleContext, phase: str, *, checkpoint: bool = False
) -> Procedure[Outcome]:
    """From the start of ``phase`` of the active player's turn to the end of the game (§5).

    A ``checkpoint`` holds the state exactly as the turn left it at that phase's start
    (T0 done); a hand-written position starts the phase as `rest_of_turn` says.
    """
    player = state.active
    if checkpoint:
        yield from turn_phases(state, ctx, phase)
    else:
        yield from rest_of_turn(state, ctx, phase)
    ended = sudden_death(state)
    if ended is not None:
        return ended
    if player == state.first_player:
        yield from player_turn(state, ctx, 1 - player)
        ended = sudden_death(state)
        if ended is not None:
            return ended
    number = state.game_turn
    while another_turn(state, ctx, number) and number < t.LAST_TURN:
        number += 1
        state.game_turn = number
        for turn_player in (state.first_player, 1 - state.first_player):
            yield from player_turn(state, ctx, turn_player)
            ended = sudden_death(state)
            if ended is not None:
                return ended
    return final_outcome(state, ctx)


def rest_of_turn(state: State, ctx: RuleContext, phase: str) -> Procedure[None]:
    """T1-T3 of the active player's turn from ``phase`` on (§5); Movement is the whole turn."""
    if phase == "Movement":
        state.turn_index -= 1  # player_turn's T0 counts this turn again
        yield from player_turn(state, ctx, state.active)
        return
    if phase == "Shooting":
        _enter(state, ctx, "Shooting")
        yield from shooting_phase(state, ctx)
    _enter(state, ctx, "Assault")
    if phase != "Fight":
        yield from charge_subphase(state, ctx)
    yield from fight_subphase(state, ctx)


def _enter(state: State, ctx: RuleContext, phase: str) -> None:
    """As `turn.player_turn` enters a phase: the view and the log learn of it."""
    state.phase = phase
    state.step = ""
    ctx.enter(state.game_turn, phase)
    ctx.emit(
        "PhaseStarted",
        f"Turn {state.game_turn}, {state.side(state.active).name}: {phase} phase",
        phase=phase,
        player=state.active,
    )
