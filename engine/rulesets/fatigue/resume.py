"""Playing on from a position: the rest of a round from one of its phases (digest fatigue §5).

A game started from a position (issue 11) enters the round's state machine at the start
of the position's phase, then plays the later rounds as usual. The phase procedures are
the ones `turn.play_round` runs.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.fatigue.activation import activations, fp_refill
from engine.rulesets.fatigue.aftermath import aftermath
from engine.rulesets.fatigue.endround import end_of_round, round_end
from engine.rulesets.fatigue.outcome import GameOver
from engine.rulesets.fatigue.psychology import start_of_turn
from engine.rulesets.fatigue.state import FState
from engine.rulesets.fatigue.turn import final_outcome, play_round

PHASES = ("Round start", "Start of turn", "Activations", "Aftermath")


def play_from(state: FState, ctx: RuleContext, phase: str) -> Procedure[Outcome]:
    """The rest of ``state.round`` from the start of ``phase``, then the later rounds (§5)."""
    try:
        yield from rest_of_round(state, ctx, phase)
        for number in range(state.round + 1, state.rounds + 1):
            yield from play_round(state, ctx, number)
    except GameOver as over:
        state.phase = "Game over"
        return Outcome(over.winner, over.reason, (state.sides[0].vp, state.sides[1].vp), over.cause)
    return final_outcome(state, ctx)


def rest_of_round(state: FState, ctx: RuleContext, phase: str) -> Procedure[None]:
    """§5 from ``phase``: at "Activations" the pools are the position's (no FP_REFILL)."""
    at = PHASES.index(phase)
    if at == 0:
        yield from play_round(state, ctx, state.round)
        return
    if at == 1:
        _enter(state, ctx, "Start of turn")
        for player in state.order():
            yield from start_of_turn(state, ctx, player)
    if at <= 2:
        _enter(state, ctx, "Activations")
        if at == 1:
            fp_refill(state, ctx)
        yield from activations(state, ctx)
    _enter(state, ctx, "Aftermath")
    yield from aftermath(state, ctx)
    yield from end_of_round(state, ctx)
    _enter(state, ctx, "Round end")
    round_end(state, ctx)


def _enter(state: FState, ctx: RuleContext, phase: str) -> None:
    """As `turn.play_round` enters a phase: state, timeline and a PhaseStarted event."""
    state.phase = phase
    state.step = ""
    ctx.enter(state.round, phase)
    ctx.emit("PhaseStarted", f"Round {state.round}: {phase}", phase=phase)
