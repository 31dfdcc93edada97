"""The game from deployment to result: rounds of four phases (digest confrontation §5, §4.4, §12.3).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.confrontation.activation import activation_phase
from engine.rulesets.confrontation.combat import combat_phase
from engine.rulesets.confrontation.deck import remove_dead_cards, stack_decks
from engine.rulesets.confrontation.deployment import deploy
from engine.rulesets.confrontation.state import CState, GameOver
from engine.rulesets.confrontation.tactical import tactical_roll
from engine.wording import says


def play_game(
    state: CState, ctx: RuleContext, start: str = "Deployment", *, held: bool = False
) -> Procedure[Outcome]:
    """Deployment, then rounds until a side is wiped out or the round cap is reached.

    ``start`` is the phase a position begins at (the round is already in the state). A
    side wiped out ends the game at once, mid-phase (§4.4, A34): `GameOver` unwinds
    every procedure up to here. ``held``: a hand-written position gave the flags that
    phase's start clears (engaged at Activation, fought at Combat): they are kept, and
    no checkpoint is taken there (resuming would clear them; undo replays the position).
    """
    try:
        if start == "Deployment":
            yield from deploy(state, ctx)
            state.round, start = 1, "Strategic"
        while True:
            if start == "Strategic":
                ctx.boundary(state.round, "Strategic")
                yield from strategic_phase(state, ctx)
            if start in ("Strategic", "Activation"):
                keep = held and start == "Activation"
                if not keep:
                    ctx.boundary(state.round, "Activation")
                yield from activation_phase(state, ctx, fresh=not keep)
            keep = held and start == "Combat"
            if not keep:
                ctx.boundary(state.round, "Combat")
            yield from combat_phase(state, ctx, fresh=not keep)
            held = False
            time_out(state, ctx)
            if state.round >= state.rounds:
                return _round_cap(state)
            state.round, start = state.round + 1, "Strategic"
    except GameOver as over:
        state.phase, state.step = "Game over", ""
        loser = over.loser
        return Outcome(
            1 - loser,
            f"{says(state.side(loser).name, 'has')} no fighter left",
            _scores(state),
            "wiped out",
        )


def strategic_phase(state: CState, ctx: RuleContext) -> Procedure[None]:
    """§5 STRAT_CLEANUP, STRAT_ORDER, STRAT_TACTICAL (§6.2, §6.4)."""
    state.phase = "Strategic"
    ctx.enter(state.round, "Strategic")
    ctx.emit("RoundStarted", f"Round {state.round} begins", round=state.round)
    remove_dead_cards(state, ctx)
    yield from stack_decks(state, ctx, "activation deck")
    yield from tactical_roll(state, ctx, deployment=False)


def time_out(state: CState, ctx: RuleContext) -> None:
    """§5 TIMEOUT: no actions; the round's flags are cleared."""
    state.phase = "Time-out"
    ctx.enter(state.round, "Time-out")
    for f in state.fighters.values():
        f.clear_round()
    ctx.emit("RoundEnded", f"Round {state.round} ends", round=state.round)


def _scores(state: CState) -> tuple[int, int]:
    """Each player scores the AP of the opponent's dead fighters (§12.3)."""
    return state.lost_ap(1), state.lost_ap(0)


def _round_cap(state: CState) -> Outcome:
    """FILL-IN §12.3: after the cap, the higher AP destroyed wins; equal is a draw."""
    state.phase, state.step = "Game over", ""
    a, b = _scores(state)
    if a == b:
        return Outcome(
            None, f"Round {state.round} reached: {a} AP each, a draw", (a, b), "points destroyed"
        )
    winner = 0 if a > b else 1
    return Outcome(
        winner,
        f"Round {state.round} reached: {max(a, b)} AP destroyed against {min(a, b)}",
        (a, b),
        "points destroyed",
    )
