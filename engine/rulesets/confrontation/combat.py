"""The Combat phase: split melees, pick fights in turn, resolve each with its pursuits.

Digest confrontation §6.11, D18, D19.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.fight import resolve_fight
from engine.rulesets.confrontation.pursuit import pursue
from engine.rulesets.confrontation.split import choose_split, contact_graph, describe_fight, melees
from engine.rulesets.confrontation.state import CState, Fight


def combat_phase(state: CState, ctx: RuleContext, *, fresh: bool = True) -> Procedure[None]:
    """§5 COMBAT_SPLIT .. PURSUIT: fights one at a time, alternate picks (A27).

    ``fresh`` False: a position's fought flags stand (play_game ``held``)."""
    state.phase = "Combat"
    ctx.enter(state.round, "Combat")
    for f in state.fighters.values():
        f.fought = f.fought and not fresh
    assert state.tactical_winner is not None
    winner = state.tactical_winner
    state.step = "Split the melees"
    graph = contact_graph(state)
    state.fights = []
    for component in melees(graph):
        state.fights.extend(
            (
                yield from choose_split(
                    state, winner, graph, component, "Split this melee into fights"
                )
            )
        )
    for fight in state.fights:
        ctx.emit("FightFormed", f"Fight formed: {describe_fight(state, fight)}")
    picker = winner
    while state.fights:
        fight = yield from _pick_fight(state, ctx, picker)
        state.fights.remove(fight)
        yield from fight_with_pursuit(state, ctx, fight)
        picker = 1 - picker
    state.step = ""


def _pick_fight(state: CState, ctx: RuleContext, player: int) -> Procedure[Fight]:
    """D19: the picking player chooses the next unresolved fight."""
    state.step = "Choose a fight"
    if len(state.fights) == 1:
        ctx.answered(f"{describe_fight(state, state.fights[0])} is the only fight left.", player)
        return state.fights[0]
    choice = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        "Choose the next fight to resolve",
        tuple(
            Option(str(i), describe_fight(state, f), cell=state.fighters[f.center].cell)
            for i, f in enumerate(state.fights)
        ),
    )
    return state.fights[int(choice.key)]


def fight_with_pursuit(state: CState, ctx: RuleContext, fight: Fight) -> Procedure[None]:
    """Resolve one fight completely, pursuits and the fights they start included (§6.11.2)."""
    living = [i for i in fight.members if state.fighters[i].on_table]
    center = state.fighters[fight.center]
    leaves = tuple(i for i in fight.leaves if i in living)
    if not center.on_table or not leaves:
        return
    state.step = f"Fight: {describe_fight(state, fight)}"
    engagement = yield from resolve_fight(state, ctx, Fight(fight.center, leaves))
    yield from pursue(state, ctx, engagement, fight_with_pursuit)
