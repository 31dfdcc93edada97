"""The battle round and the whole game (digest killteam §5, §6.2, §6.9, §12.5).

Written as the rulebook reads: setup, then each round's Initiative, Movement, Psychic,
Shooting, Fight and Morale phases, then the mission's scoring, until the last round or a
team is wiped out.
"""

from __future__ import annotations

import copy

from engine.board import Board
from engine.decisions import Procedure
from engine.objectives import score_majority
from engine.roll_off import roll_off
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.killteam.deployment import deploy, names, starting_cp
from engine.rulesets.killteam.fight import fight_phase
from engine.rulesets.killteam.geometry import TeamWipedOut
from engine.rulesets.killteam.morale import morale_phase
from engine.rulesets.killteam.movement import movement_phase, veteran_window
from engine.rulesets.killteam.psychic import psychic_phase
from engine.rulesets.killteam.shooting import shooting_phase
from engine.rulesets.killteam.state import KTState
from engine.statecodec import encode
from engine.wording import says

OBJECTIVE_RANGE = 2
"""Inches within which models control a marker (§12.5 item 3)."""


PHASES = (
    ("Movement", movement_phase),
    ("Psychic", psychic_phase),
    ("Shooting", shooting_phase),
    ("Fight", fight_phase),
    ("Morale", morale_phase),
)
"""The phases after Initiative, in order (§5.1)."""


def play_game(state: KTState, ctx: RuleContext, zones: tuple[str, str]) -> Procedure[Outcome]:
    """Setup, the battle rounds, and the result (§5.2)."""
    starting_cp(state, ctx)
    yield from deploy(state, ctx, zones)
    return (yield from play_from(state, ctx, 1, "Initiative"))


def play_from(
    state: KTState, ctx: RuleContext, first: int, phase: str, *, held: bool = False
) -> Procedure[Outcome]:
    """The game from the start of ``phase`` of round ``first`` to its result.

    ``held``: a hand-written position set the flags of that phase (who has shot, the
    stratagems used...): its start keeps them, and takes no checkpoint, since resuming
    there would clear them (undo and saves replay from the position instead).
    """
    try:
        for number in range(first, state.rounds + 1):
            start = phase if number == first else None
            yield from battle_round(state, ctx, number, start, held=held and number == first)
    except TeamWipedOut:
        return _wipeout_outcome(state)
    return final_outcome(state, ctx)


def battle_round(
    state: KTState, ctx: RuleContext, number: int, start: str | None = None, *, held: bool = False
) -> Procedure[None]:
    """One round: start, six phases, end (§5.1, §6.2); or its rest from phase ``start``."""
    state.round = number
    if start in (None, "Initiative"):
        if not held:
            ctx.boundary(number, "Initiative")
        _enter(state, ctx, "Initiative", clear=not held)
        start_round(state, ctx)
        if number == 1:
            yield from veteran_window(state, ctx)
        state.initiative = roll_off(
            ctx, names(state), "Initiative roll-off", "has the initiative", kind="InitiativeWon"
        )
        start = None
    for name, phase in PHASES:
        if start is not None and name != start:
            continue
        keep, start, held = held and start is not None, None, False
        if not keep:
            ctx.boundary(number, name)
        _enter(state, ctx, name, clear=not keep)
        yield from phase(state, ctx)
    _enter(state, ctx, "End of round")
    score_objectives(state, ctx)


def holds_phase_flags(state: KTState) -> bool:
    """Does the state hold flags that the start of a phase would clear (a position's)?

    The board is shared with the probe, not copied: it is not encoded, the phase does not
    touch it, and its copy was most of a crowded position's start."""
    probe = copy.deepcopy(state, {id(state.board): state.board})
    probe.clear_phase()
    return encode(probe, (Board,)) != encode(state, (Board,))


def _enter(state: KTState, ctx: RuleContext, phase: str, *, clear: bool = True) -> None:
    state.phase = phase
    state.step = ""
    if clear:
        state.clear_phase()
    ctx.enter(state.round, phase)
    ctx.emit("PhaseStarted", f"Round {state.round}: {phase} phase", phase=phase)


def start_round(state: KTState, ctx: RuleContext) -> None:
    """Clear round states and gain CP: +1, and +1 with a Leader on the table (§6.2, S21)."""
    for model in state.models.values():
        model.clear_round()
    for team in state.teams:
        team.psyker_cast = False
        leader = any(m.specialism == "Leader" and m.can_act for m in state.models_of(team.player))
        gain = 2 if leader else 1
        team.cp += gain
        ctx.emit(
            "CommandPointsGained",
            f"{says(team.name, 'gains')} {gain} CP ({team.cp} in all)",
            player=team.player,
            cp=team.cp,
            gain=gain,
        )


def score_objectives(state: KTState, ctx: RuleContext) -> None:
    """+1 VP per marker where a player has more non-shaken models within 2" (§12.5)."""
    board = state.board
    for objective in board.objectives:
        counts = [0, 0]
        for m in state.on_table():
            if (
                not m.shaken
                and m.cell is not None
                and (board.range_to(m.cell, objective.cell) <= OBJECTIVE_RANGE)
            ):
                counts[m.player] += 1
        score_majority(ctx, objective.name, counts, state.team)


def _wipeout_outcome(state: KTState) -> Outcome:
    alive = [bool(state.on_table(p)) for p in (0, 1)]
    scores = (state.team(0).vp, state.team(1).vp)
    if not any(alive):
        return Outcome(None, "Both kill teams were wiped out at once.", scores, "wiped out")
    winner = 0 if alive[0] else 1
    name = state.team(1 - winner).name
    return Outcome(winner, f"{says(name, 'has')} no models left.", scores, "wiped out")


def final_outcome(state: KTState, ctx: RuleContext) -> Outcome:
    """+2 VP against a broken team, then VP, then fewer casualties (§12.5 items 4, 6)."""
    for team in state.teams:
        if state.team(1 - team.player).broken:
            team.vp += 2
            ctx.emit(
                "BonusScored",
                f"{team.name}: +2 VP, the enemy is broken ({team.vp} VP)",
                player=team.player,
                vp=team.vp,
            )
    vp = (state.team(0).vp, state.team(1).vp)
    if vp[0] != vp[1]:
        winner = 0 if vp[0] > vp[1] else 1
        return Outcome(
            winner,
            f"{says(state.team(winner).name, 'wins')} on VP, {vp[winner]} to {vp[1 - winner]}.",
            vp,
            "victory points",
        )
    lost = [sum(m.out_of_action for m in state.models_of(p)) for p in (0, 1)]
    if lost[0] != lost[1]:
        winner = 0 if lost[0] < lost[1] else 1
        return Outcome(
            winner,
            f"VP tied at {vp[0]}; {state.team(winner).name} lost fewer "
            f"models ({lost[winner]} to {lost[1 - winner]}).",
            vp,
            "fewer losses",
        )
    return Outcome(None, f"VP tied at {vp[0]} and equal losses: a draw.", vp, "fewer losses")
