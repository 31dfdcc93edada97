"""Psychic powers and Perils of the Warp (killteam §6.4, §6.7, §12.1, §12.2).

Psybolt (mortal wounds to the closest visible enemy), Ward (5++) and Fury (+1 S, +1 A),
and the Perils that follow a double 1 or double 6.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import (
    can_see,
    check_wipeout,
    closest,
    dist,
    enemies,
    terrain_saves_injury,
)
from engine.rulesets.killteam.injury import mortal_wounds
from engine.rulesets.killteam.profiles import Power
from engine.rulesets.killteam.state import KTState, Model

PSYBOLT_RANGE = 18
BLESSING_RANGE = 12
"""Ward and Fury reach a friendly model within 12" (§12.1, §12.2)."""
PERILS_BLAST = 3
"""A psyker slain by Perils hurts every model within 3" (§6.4 item 4)."""
PSYBOLT_SURGE = 11
"""A test total of 11+ makes Psybolt inflict D3 mortal wounds."""


MORTALS = Check.purpose("number of mortal wounds")


def choose_power_target(
    state: KTState, ctx: RuleContext, psyker: Model, power: Power
) -> Procedure[Model | None]:
    """Ward / Fury: a friendly model within 12" that the psyker sees, itself included (§7 #22).

    Psybolt picks its target when it resolves (the closest enemy), so returns None.
    """
    if power.id not in ("ward", "fury"):
        return None
    friends = [
        m
        for m in state.on_table(psyker.player)
        if m is psyker or (dist(state, psyker, m) <= BLESSING_RANGE and can_see(state, psyker, m))
    ]
    if len(friends) == 1:
        ctx.answered(
            f"{power.name}: {psyker.name} is the only friendly model it can target.", psyker.player
        )
        return friends[0]
    pick = yield Decision(
        psyker.player,
        DecisionKind.PICK_MODEL,
        f"{power.name}: choose the friendly model",
        tuple(Option(m.id, m.name, cell=m.cell, model=m.id) for m in friends),
        subject=psyker.id,
    )
    return state.models[pick.key]


def perils(state: KTState, ctx: RuleContext, psyker: Model) -> Procedure[bool]:
    """D3 mortal wounds to the psyker; if slain, D3 to each model within 3" (§6.4, A7, A23).

    Returns True if the psyker survived. No attacker: the opponent of each wounded
    model's owner rolls its injury dice, with only the flesh-wound modifier (§6.7 item 3).
    """
    ctx.emit("PerilsSuffered", f"{psyker.name} suffers Perils of the Warp", model=psyker.id)
    amount = ctx.dice.d3(
        player=1 - psyker.player, reason=f"Perils of the Warp on {psyker.id}", check=MORTALS
    )
    yield from mortal_wounds(
        state, ctx, psyker, amount, roller=1 - psyker.player, source=" from Perils of the Warp"
    )
    if not psyker.out_of_action:
        check_wipeout(state)
        return True
    ctx.emit(
        "PsykerExploded",
        f"{psyker.name} is torn apart by the warp: every model within "
        f'{PERILS_BLAST}" suffers D3 mortal wounds',
        model=psyker.id,
    )
    assert psyker.cell is not None
    centre = psyker.cell
    caught = [
        m
        for m in state.on_table()
        if m.cell is not None and state.board.range_to(centre, m.cell) <= PERILS_BLAST
    ]
    for victim in caught:
        if victim.out_of_action:
            continue
        roller = 1 - victim.player
        hurt = ctx.dice.d3(player=roller, reason=f"Perils explosion on {victim.id}", check=MORTALS)
        yield from mortal_wounds(
            state, ctx, victim, hurt, roller=roller, source=" from the Perils explosion"
        )
    check_wipeout(state)
    return False


def resolve_power(
    state: KTState, ctx: RuleContext, psyker: Model, power: Power, total: int, target: Model | None
) -> Procedure[None]:
    """The effect of a manifested power (§6.4 item 6, §12.1 Ward, §12.2 Fury)."""
    ctx.emit("PowerManifested", f"{power.name} manifests", model=psyker.id, power=power.id)
    if power.id == "psybolt":
        yield from psybolt(state, ctx, psyker, total)
    elif target is not None and target.on_table:
        if power.id == "ward":
            target.warded = True
            ctx.emit(
                "WardGranted",
                f"{target.name} gains a 5++ invulnerable save this round",
                model=target.id,
            )
        elif power.id == "fury":
            target.fury = True
            ctx.emit(
                "FuryGranted", f"{target.name} gains +1 S and +1 A this round", model=target.id
            )


def psybolt_targets(state: KTState, psyker: Model) -> list[Model]:
    """The enemies Psybolt could strike now: visible, within 18" (§6.4)."""
    return [
        e
        for e in enemies(state, psyker)
        if dist(state, psyker, e) <= PSYBOLT_RANGE and can_see(state, psyker, e)
    ]


def psybolt(state: KTState, ctx: RuleContext, psyker: Model, total: int) -> Procedure[None]:
    """1 mortal wound (D3 on 11+) to the closest visible enemy within 18" (§6.4, A28).

    A psychic attack: the terrain injury modifier applies, measured from the psyker (§6.7).
    """
    nearest = closest(state, psyker, psybolt_targets(state, psyker))
    if not nearest:
        ctx.emit("PowerWasted", 'Psybolt finds no visible enemy within 18"', model=psyker.id)
        return
    target = nearest[0]
    if len(nearest) > 1:
        pick = yield Decision(
            psyker.player,
            DecisionKind.PICK_TARGET,
            "Psybolt: choose among the closest enemies",
            tuple(Option(m.id, m.name, cell=m.cell, model=m.id) for m in nearest),
            subject=psyker.id,
        )
        target = state.models[pick.key]
    amount = 1
    if total >= PSYBOLT_SURGE:
        amount = ctx.dice.d3(player=psyker.player, reason="Psybolt mortal wounds", check=MORTALS)
    modifier = -1 if terrain_saves_injury(state, psyker, target) else 0
    yield from mortal_wounds(
        state,
        ctx,
        target,
        amount,
        roller=psyker.player,
        injury_modifier=modifier,
        source=f" from {psyker.id}'s Psybolt",
    )
    check_wipeout(state)
