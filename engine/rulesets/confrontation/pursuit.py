"""Pursuit: the winners of a fight may move half MOV and start new fights at once.

Digest confrontation §6.11.7, A25-A27, D25.

The fight runner is passed in by the Combat phase, so nested fights use the full
procedure without this module importing it back.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.decisions import Decision, DecisionKind, Option, Procedure, cell_options
from engine.facing import ask_facing, name
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.combatants import Engagement
from engine.rulesets.confrontation.geometry import (
    enemies_in_contact,
    move_destinations,
    parse_cell,
)
from engine.rulesets.confrontation.profiles import show_cells
from engine.rulesets.confrontation.split import choose_split, contact_graph, describe_fight, melees
from engine.rulesets.confrontation.state import CState, Fight, Fighter
from engine.rulesets.confrontation.tables import pursuit_cells

FightRunner = Callable[[CState, RuleContext, Fight], Procedure[None]]


def pursuers(engagement: Engagement) -> list[Fighter]:
    """Living fighters whose opponents in the fight are all dead (§6.11.7, A25)."""
    if not engagement.center.alive:
        return [c.fighter for c in engagement.leaves if c.alive]
    if not any(c.alive for c in engagement.leaves):
        return [engagement.center.fighter]
    return []


def pursue(
    state: CState, ctx: RuleContext, engagement: Engagement, run_fight: FightRunner
) -> Procedure[None]:
    """Each eligible fighter pursues in turn, in the order its owner picks (A25)."""
    pending = pursuers(engagement)
    asked = False
    while pending:
        if len(pending) > 1:
            choice = yield Decision(
                pending[0].player,
                DecisionKind.ORDER,
                "Which fighter pursues next?",
                tuple(Option(f.id, f.name, cell=f.cell, model=f.id) for f in pending),
            )
            f = next(p for p in pending if p.id == choice.key)
        else:
            f = pending[0]
            if asked:
                ctx.answered(f"{f.name} is the last fighter to pursue.", f.player)
        asked = True
        pending.remove(f)
        if f.on_table:
            yield from _pursue_one(state, ctx, f, run_fight)


def _pursue_one(
    state: CState, ctx: RuleContext, f: Fighter, run_fight: FightRunner
) -> Procedure[None]:
    """§6.11.7 steps 1-3: move half MOV (rounded up), stay and attack, or decline."""
    budget = pursuit_cells(f.profile.mov)
    cells = sorted(
        (c for c in move_destinations(state, f, budget, set()) if c != f.cell),
        key=lambda c: (c.y, c.x),
    )
    options = []
    if cells:
        options.append(Option("move", f"Pursue: move up to {show_cells(budget)}"))
    if enemies_in_contact(state, f):
        options.append(Option("stay", "Pursue by staying: attack the enemies in contact"))
    options.append(Option("decline", "Do not pursue (fight no more this phase)", neutral=True))
    if len(options) == 1:
        ctx.answered(
            f"{f.name} cannot pursue: no cell to move to and no enemy in contact.", f.player
        )
        return
    choice = yield Decision(
        f.player, DecisionKind.PICK_OPTION, f"{f.name} may pursue", tuple(options), subject=f.id
    )
    if choice.key == "decline":
        ctx.emit("PursuitDeclined", f"{f.name} does not pursue", model=f.id)
        return
    if choice.key == "move":
        pick = yield Decision(
            f.player,
            DecisionKind.PICK_CELL,
            f"Pursuit: where does {f.name} go?",
            cell_options(cells, "cell "),
            subject=f.id,
        )
        start = f.cell
        f.cell = parse_cell(pick.key)
        f.facing = yield from ask_facing(
            f.player, f"Pursuit: which way does {f.name} face?", marked=f.facing, subject=f.id
        )
        ctx.emit(
            "FighterPursued",
            f"{f.name} pursues {start} -> {f.cell}, facing {name(f.facing)}",
            model=f.id,
        )
    else:
        ctx.emit("FighterPursued", f"{f.name} stays and attacks", model=f.id)
    yield from _new_fights(state, ctx, f, run_fight)


def _new_fights(
    state: CState, ctx: RuleContext, f: Fighter, run_fight: FightRunner
) -> Procedure[None]:
    """After a pursuit, fight at once every unfought enemy now in contact (§6.11.7, A26).

    Free enemies join one 1-vs-N fight with the pursuer. Enemies already in unresolved
    fights pull those fights in: the Tactical winner re-splits them with the pursuer
    (keeping the old fights is offered first) and only the pursuer's fight is fought now.
    """
    unfought = {e.id for e in enemies_in_contact(state, f) if not e.fought}
    if not unfought:
        return
    touched = [fight for fight in state.fights if unfought & set(fight.members)]
    in_fights = {m for fight in touched for m in fight.members}
    free_new = tuple(sorted(unfought - in_fights))
    if not touched:
        yield from run_fight(state, ctx, Fight(f.id, free_new))
        return
    for fight in touched:
        state.fights.remove(fight)
    pool = {f.id, *free_new, *in_fights}
    graph = contact_graph(state, pool)
    assert state.tactical_winner is not None
    mine: Fight | None = None
    for component in melees(graph):
        split = yield from choose_split(
            state,
            state.tactical_winner,
            graph,
            component,
            f"{f.name} pursues into a melee: split it into fights",
            keep=touched,
        )
        for fight in split:
            if f.id in fight.members:
                mine = fight
            else:
                state.fights.append(fight)
    if mine is not None:
        ctx.emit("PursuitFightFormed", f"Pursuit fight: {describe_fight(state, mine)}")
        yield from run_fight(state, ctx, mine)
