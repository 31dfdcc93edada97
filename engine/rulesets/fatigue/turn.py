"""The game and the round (digest fatigue §5, §4.4, §12.3).

SETUP, then each round: ROUND_START (initiative), START_OF_TURN for A then B, FP
refill, alternating ACTIVATIONS, the AFTERMATH and ROUND_END, until the last round or an
immediate result (rout, voluntary rout, wipe-out).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.roll_off import roll_off
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.fatigue.activation import NEXT, activations, fp_refill
from engine.rulesets.fatigue.aftermath import aftermath
from engine.rulesets.fatigue.deployment import Setup, set_up
from engine.rulesets.fatigue.endround import end_of_round, round_end
from engine.rulesets.fatigue.outcome import GameOver
from engine.rulesets.fatigue.psychology import start_of_turn
from engine.rulesets.fatigue.state import FState
from engine.rulesets.fatigue.tables import DESTROYED_UNIT_VP
from engine.wording import counted, says


def play_game(
    state: FState, ctx: RuleContext, setup: Setup, start: str = "Force choice"
) -> Procedure[Outcome]:
    """Setup from its step ``start`` (`deployment.set_up`), the rounds, and the result
    (§5 state machine)."""
    try:
        yield from set_up(state, ctx, setup, start)
    except GameOver as over:
        return _over(state, over)
    return (yield from play_on(state, ctx, 1, "Round start"))


def play_on(state: FState, ctx: RuleContext, number: int, start: str) -> Procedure[Outcome]:
    """The game from the start of phase ``start`` of round ``number`` (a checkpoint's)."""
    try:
        if start in NEXT:  # between two activations: the rest of the phase, then the round
            state.round = number
            ctx.enter(number, "Activations")
            yield from activations(state, ctx, NEXT.index(start))
            start = "Aftermath"
        yield from play_round(state, ctx, number, start)
        for later in range(number + 1, state.rounds + 1):
            yield from play_round(state, ctx, later)
    except GameOver as over:
        return _over(state, over)
    return final_outcome(state, ctx)


def _over(state: FState, over: GameOver) -> Outcome:
    state.phase = "Game over"
    return Outcome(over.winner, over.reason, (state.sides[0].vp, state.sides[1].vp), over.cause)


def _enter(state: FState, ctx: RuleContext, phase: str) -> None:
    state.phase = phase
    state.step = ""
    ctx.enter(state.round, phase)
    ctx.emit("PhaseStarted", f"Round {state.round}: {phase}", phase=phase)


ROUND = ("Round start", "Start of turn", "Activations", "Aftermath")
"""The phases of a round, each a checkpoint (``ctx.boundary``)."""


def play_round(
    state: FState, ctx: RuleContext, number: int, start: str = "Round start"
) -> Procedure[None]:
    """One round (§5): start, both players' start of turn, FP, activations, aftermath;
    or its rest from the start of phase ``start``."""
    state.round = number
    at = ROUND.index(start)
    if at == 0:
        ctx.boundary(number, "Round start")
        _enter(state, ctx, "Round start")
        start_round(state)
        state.initiative = roll_off(
            ctx,
            (state.side(0).name, state.side(1).name),
            "Initiative roll-off",
            "has the initiative",
            kind="InitiativeWon",
        )
    if at <= 1:
        ctx.boundary(number, "Start of turn")
        _enter(state, ctx, "Start of turn")
        for player in state.order():
            yield from start_of_turn(state, ctx, player)
    if at <= 2:
        ctx.boundary(number, "Activations")
        _enter(state, ctx, "Activations")
        fp_refill(state, ctx)
        yield from activations(state, ctx)
    ctx.boundary(number, "Aftermath")
    _enter(state, ctx, "Aftermath")
    yield from aftermath(state, ctx)
    yield from end_of_round(state, ctx)
    _enter(state, ctx, "Round end")
    round_end(state, ctx)


def start_round(state: FState) -> None:
    """ROUND_START (§5): per-round fields, models at round start, scrums carried over."""
    for unit in state.units.values():
        unit.clear_round()
        unit.models_at_round_start = len(unit.alive())
        if unit.scrum is not None:
            unit.scrums_this_round.append(unit.scrum)


def final_outcome(state: FState, ctx: RuleContext) -> Outcome:
    """+2 VP per destroyed enemy unit, then the higher VP wins; equal is a draw (§4.4)."""
    state.phase = "Game over"
    for side in state.sides:
        destroyed = sum(u.destroyed for u in state.units_of(1 - side.player))
        if destroyed:
            side.vp += DESTROYED_UNIT_VP * destroyed
            ctx.emit(
                "BonusScored",
                f"{side.name}: +{DESTROYED_UNIT_VP * destroyed} VP for "
                f"{counted(destroyed, 'destroyed enemy unit')} ({side.vp} VP)",
                player=side.player,
                vp=side.vp,
            )
    vp = (state.sides[0].vp, state.sides[1].vp)
    if vp[0] == vp[1]:
        draw = f"Equal VP ({vp[0]} each) after round {state.rounds}: a draw."
        return Outcome(None, draw, vp, "victory points")
    winner = 0 if vp[0] > vp[1] else 1
    return Outcome(
        winner,
        f"{says(state.side(winner).name, 'wins')} on VP, {vp[winner]} to {vp[1 - winner]}.",
        vp,
        "victory points",
    )
