"""End-of-round actions, objective scoring and the round's clean-up (digest fatigue §6.32).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import DecisionKind, Option, Procedure
from engine.objectives import score_majority
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import morale_test
from engine.rulesets.fatigue.geometry import dist
from engine.rulesets.fatigue.prompts import pick, unit_id, unit_option
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import (
    FIRST_SCORING_ROUND,
    OBJECTIVE_RANGE,
    RALLYING_VOICE_RANGE,
)
from engine.wording import possessive, says


def end_of_round(state: FState, ctx: RuleContext) -> Procedure[None]:
    """Aftermath step 4 (SEED §4.5, §6.32 items 1-2): end-of-round abilities, A first."""
    state.step = "End-of-round actions"
    for player in state.order():
        for unit in state.units_of(player):
            if any(a.key == "rallying_voice" for a in unit.spec.abilities):
                yield from rallying_voice(state, ctx, unit)


def round_end(state: FState, ctx: RuleContext) -> None:
    """ROUND_END (§5, §6.32 items 3-4), after the Aftermath: objectives scored (rounds
    2-6), then the clean-up. The VP lines had been told in the Aftermath."""
    if state.round >= FIRST_SCORING_ROUND:
        score_objectives(state, ctx)
    clear_round(state)


def rallying_voice(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Rallying Voice (FILL-IN, §8; decision point 19).

    One friendly FLEEING unit within 6 steps of the Leader takes a Rally test on the
    Leader's Morale, with its own modifiers. A failure changes nothing.
    """
    leader = next((m for m in unit.alive() if m.profile.leader), None)
    if leader is None or leader.cell is None or unit.fleeing:
        return
    here = leader.cell
    near = [
        u
        for u in state.units_of(unit.player)
        if u.fleeing
        and u.in_play
        and any(dist(state, here, c) <= RALLYING_VOICE_RANGE for c in u.cells())
    ]
    if not near:
        return
    key = yield from pick(
        unit.player,
        DecisionKind.PICK_TARGET,
        f"Rallying Voice of {leader.name}: rally which fleeing unit?",
        [unit_option(u) for u in near] + [Option("none", "Nobody", neutral=True)],
    )
    if key == "none":
        return
    target = state.units[unit_id(key)]
    if morale_test(ctx, target, "rally (Rallying Voice)", base=leader.profile.morale):
        target.fleeing = False
        target.terrified = False
        ctx.emit(
            "UnitRallied",
            f"{says(target.name, 'rallies')} to {possessive(leader.name)} voice",
            unit=target.id,
        )


def score_objectives(state: FState, ctx: RuleContext) -> None:
    """1 VP per objective where a player has more non-fleeing models within 2 (FILL-IN, §4.4)."""
    for objective in state.board.objectives:
        counts = [0, 0]
        for unit in state.units_in_order():
            if unit.fleeing:
                continue
            counts[unit.player] += sum(
                dist(state, c, objective.cell) <= OBJECTIVE_RANGE for c in unit.cells()
            )
        score_majority(ctx, objective.name, counts, state.side)


def clear_round(state: FState) -> None:
    """Forget the round-limited states, scrum tallies and unspent FP (§6.32 item 4)."""
    for unit in state.units.values():
        unit.clear_round()
    for sid in [s.id for s in state.scrums.values() if not s.active]:
        del state.scrums[sid]
    for scrum in state.scrums.values():
        scrum.wounds = [0, 0]
        scrum.fled = []
    for side in state.sides:
        side.fp = 0
        side.passed = False
