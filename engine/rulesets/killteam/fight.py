"""The Fight phase: sections, eligibility, turn order and the fight stratagems (killteam §6.6).

Hammer of Wrath (successful chargers) and then Fight for Your Lives (everyone else
eligible) alternate one model at a time through `activation.alternate`. What one model
does when it fights lives in ``melee.py``. The Leader and Combat stratagems insert an
extra fight right after a friendly fight (§8.1, §10 A36). Must not import tui.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.activation import alternate
from engine.rulesets.killteam.geometry import check_wipeout, friends, is_engaged
from engine.rulesets.killteam.melee import fight_sequence
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import can_use, offer_stratagem, specialist, spend

LEADER = "Leader stratagem"
COMBAT = "Combat stratagem"
LEADER_RANGE = 3
"""Inches from the Leader to the model its stratagem sends in (§11.5)."""


def fight_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Hammer of Wrath, then Fight for Your Lives, initiative player first (§6.6.1)."""
    sections = (
        ("Hammer of Wrath", True),
        ("Fight for Your Lives", False),
    )
    for name, chargers_only in sections:
        state.step = name

        def eligible(player: int, chargers_only: bool = chargers_only) -> list[Model]:
            return [
                m
                for m in state.on_table(player)
                if can_fight(state, m) and (m.charge_successful or not chargers_only)
            ]

        yield from alternate(
            state,
            ctx,
            first=state.initiative,
            eligible=eligible,
            activate=lambda m: _activate(state, ctx, m),
            pass_model=lambda m, said: _pass(ctx, m, said),
            what=name,
        )


def can_fight(state: KTState, model: Model) -> bool:
    """Eligible to fight now (§6.6.1): alive, not shaken, not yet fought this phase, and
    it charged successfully, was the target of a successful charge (§10 A17) or is
    within 1" of an enemy model."""
    return (
        model.can_act
        and not model.has_fought
        and (model.charge_successful or bool(model.charged_by) or is_engaged(state, model))
    )


def _activate(state: KTState, ctx: RuleContext, model: Model) -> Procedure[None]:
    """Fight with the chosen model or pass it, which marks it done (§6.6.1 item 3, §7 #34)."""
    choice = yield Decision(
        model.player,
        DecisionKind.PICK_OPTION,
        f"{model.name}: fight now, or pass (it will not fight this phase)?",
        (Option("fight", "Fight"), Option("pass", "Pass", neutral=True)),
        subject=model.id,
    )
    if choice.key == "pass":
        _pass(ctx, model)
        return
    fighter: Model | None = model
    while fighter is not None:
        yield from fight_sequence(state, ctx, fighter)
        check_wipeout(state)
        fighter = yield from _extra_fighter(state, ctx, fighter)


def _pass(ctx: RuleContext, model: Model, said: bool = True) -> None:
    """The model does not fight this phase (§6.6.1 item 3). Not ``said``: a line naming
    every model passed together tells it."""
    model.has_fought = True
    text = f"{model.name} does not fight this phase" if said else ""
    ctx.emit("FightPassed", text, model=model.id)


def _extra_fighter(state: KTState, ctx: RuleContext, fought: Model) -> Procedure[Model | None]:
    """Right after a friendly fight: Leader stratagem, else Combat stratagem (§8.1).

    PROPOSED (§10 A36): the extra fight happens at once, and the alternation then resumes
    with the opponent, as `alternate` does after this activation returns.
    """
    if fought.specialism == "Leader" and fought.can_act:
        extra = yield from _offer_leader(state, ctx, fought)
        if extra is not None:
            return extra
    return (yield from _offer_combat(state, ctx, fought.player))


def _offer_leader(state: KTState, ctx: RuleContext, leader: Model) -> Procedure[Model | None]:
    """Leader stratagem (§7 #38): a friendly model within 3" that can still fight, fights."""
    if not can_use(state, leader.player, LEADER):
        return None
    assert leader.cell is not None
    board = state.board
    candidates = [
        m
        for m in friends(state, leader)
        if m.cell is not None
        and board.range_to(leader.cell, m.cell) <= LEADER_RANGE
        and can_fight(state, m)
    ]
    if not candidates:
        return None
    options = [Option("no", "Do not use it")]
    options += [Option(m.id, m.name, cell=m.cell, model=m.id) for m in candidates]
    choice = yield Decision(
        leader.player,
        DecisionKind.PICK_MODEL,
        f'{LEADER} (1 CP): which friendly model within {LEADER_RANGE}" of {leader.name} '
        "fights now?",
        tuple(options),
        subject=leader.id,
    )
    if choice.key == "no":
        return None
    spend(state, ctx, leader.player, LEADER)
    return state.models[choice.key]


def _offer_combat(state: KTState, ctx: RuleContext, player: int) -> Procedure[Model | None]:
    """Combat stratagem (§7 #39): the Combat specialist fights now, if it still can."""
    combat = specialist(state, player, "Combat")
    if combat is None or not can_fight(state, combat):
        return None
    used = yield from offer_stratagem(
        state, ctx, player, COMBAT, f"{combat.name} fights now?", subject=combat.id
    )
    return combat if used else None
