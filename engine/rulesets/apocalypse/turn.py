"""The game: deployment, five turns of four phases, scoring and the result.

Digest apocalypse §5.3 (turn loop), §6.4.4 (hand limit at the end of every phase),
§6.15 (end of turn: reserves destroyed after turn 4, scoring, clean-up), §4.4 (FILL-IN
mission "Hold the Crossing": objectives, sudden death, final result).
"""

from __future__ import annotations

from engine.decisions import Procedure
from engine.footprints import Rect, rect_distance
from engine.objectives import score_majority
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.apocalypse.activation import action_phase
from engine.rulesets.apocalypse.assets import hand_limit
from engine.rulesets.apocalypse.damage import damage_phase
from engine.rulesets.apocalypse.deployment import deploy
from engine.rulesets.apocalypse.destruction import destroy_unit
from engine.rulesets.apocalypse.orders import initiative_phase, orders_phase
from engine.rulesets.apocalypse.state import BATTLEFIELD, ApocState
from engine.wording import says

RESERVE_DEADLINE = 4
"""Units still in Reserve at the end of this turn are destroyed (S17)."""
OBJECTIVE_RANGE = 3


def play_game(state: ApocState, ctx: RuleContext) -> Procedure[Outcome]:
    """Setup, the turns, and the result (§5.3)."""
    _enter(state, ctx, "Deployment")
    yield from deploy(state, ctx)
    return (yield from play_from(state, ctx, 1, "Initiative"))


PHASES = (
    ("Initiative", initiative_phase),
    ("Orders", orders_phase),
    ("Action", action_phase),
    ("Damage", damage_phase),
)
"""The four phases of a turn, in order (§5.3)."""


def play_from(state: ApocState, ctx: RuleContext, first: int, start: str) -> Procedure[Outcome]:
    """The turns from the start of phase ``start`` of turn ``first``, and the result (§5.3).

    A game from a position begins here; a whole game begins at turn 1's Initiative phase.
    """
    for turn in range(first, state.rounds + 1):
        state.turn = turn
        skipping = turn == first
        for name, phase in PHASES:
            if skipping and name != start:
                continue
            skipping = False
            ctx.boundary(turn, name)
            _enter(state, ctx, name)
            yield from phase(state, ctx)
            state.effects.fortitude.clear()
            yield from hand_limit(state, ctx)
        _enter(state, ctx, "End of turn")
        yield from end_of_turn(state, ctx)
        outcome = sudden_death(state)
        if outcome is not None:
            return outcome
    return final_outcome(state)


def _enter(state: ApocState, ctx: RuleContext, phase: str) -> None:
    state.phase = phase
    state.step = ""
    ctx.enter(state.turn, phase)
    label = f"Turn {state.turn}: {phase} phase" if state.turn else phase
    ctx.emit("PhaseStarted", label, phase=phase)


def end_of_turn(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """§6.15 steps 1-3."""
    if state.turn == RESERVE_DEADLINE:
        late = [u for u in state.units.values() if u.alive and state.in_reserve(u)]
        late.sort(key=lambda u: not u.transport)  # passengers go before their transport
        for unit in late:
            yield from destroy_unit(state, ctx, unit, "never arrived from Reserve", explode=False)
    score_objectives(state, ctx)
    for unit in state.units.values():
        unit.clear_turn()
    for det in state.detachments.values():
        det.order = None
        det.order_revealed = False
        det.activated = False
    state.effects.clear()
    state.prev_initiative = state.initiative


def score_objectives(state: ApocState, ctx: RuleContext) -> None:
    """+1 VP per objective where a player has more units within 3" (§4.4)."""
    for objective in state.terrain.board.objectives:
        point = Rect(objective.cell.x, objective.cell.y, objective.cell.x, objective.cell.y)
        counts = [0, 0]
        for unit in state.units.values():
            if unit.location == BATTLEFIELD and rect_distance(unit.rect, point) <= OBJECTIVE_RANGE:
                counts[unit.owner] += 1
        score_majority(ctx, objective.name, counts, state.side)


def sudden_death(state: ApocState) -> Outcome | None:
    """A player with no units left loses; both at once is a draw (§4.4)."""
    alive = [any(u.alive for u in state.units_of(p)) for p in (0, 1)]
    scores = (state.side(0).vp, state.side(1).vp)
    if all(alive):
        return None
    if not any(alive):
        return Outcome(None, "Both armies were destroyed.", scores, "wiped out")
    winner = 0 if alive[0] else 1
    name = state.side(1 - winner).name
    return Outcome(winner, f"{says(name, 'has')} no units left.", scores, "wiped out")


def destroyed_points(state: ApocState, player: int) -> int:
    """Points of the opponent's units this player destroyed (tie-break, §4.4)."""
    return sum(u.sheet.points for u in state.units_of(1 - player) if u.destroyed_turn is not None)


def final_outcome(state: ApocState) -> Outcome:
    """Most VP; then more enemy points destroyed; else a draw (§4.4)."""
    vp = (state.side(0).vp, state.side(1).vp)
    if vp[0] != vp[1]:
        winner = 0 if vp[0] > vp[1] else 1
        return Outcome(
            winner,
            f"{says(state.side(winner).name, 'wins')} on VP, {vp[winner]} to {vp[1 - winner]}.",
            vp,
            "victory points",
        )
    kills = (destroyed_points(state, 0), destroyed_points(state, 1))
    if kills[0] != kills[1]:
        winner = 0 if kills[0] > kills[1] else 1
        return Outcome(
            winner,
            f"VP tied at {vp[0]}; {state.side(winner).name} destroyed more points "
            f"({kills[winner]} to {kills[1 - winner]}).",
            vp,
            "points destroyed",
        )
    return Outcome(None, f"VP tied at {vp[0]} and equal losses: a draw.", vp, "points destroyed")
