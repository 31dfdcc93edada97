"""The Morale phase: broken test, recovery and nerve tests (digest killteam §6.8).

Each player in turn, initiative player first (§10 A44): the broken test, then shaken
models recover, then the Comms stratagem window, then nerve tests one model at a time in
the order the owner chooses. Shooting and Fight read the broken -1 to hit from
`Team.broken`. Must not import tui.
"""

from __future__ import annotations

from engine.checks import Check, Modifier
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import can_use, offer_stratagem, specialist
from engine.wording import says

COMMS = "Comms stratagem"
SUPPORT_RANGE = 2
"""Inches for supporting friends and the Comms stratagem in nerve tests (§11.5)."""


def morale_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Steps 1-3 for the initiative player, then for the other (§6.8, §10 A44)."""
    for player in (state.initiative, 1 - state.initiative):
        state.step = f"{state.team(player).name}: broken test"
        broken_test(state, ctx, player)
        recover(state, ctx, player)
        state.step = f"{state.team(player).name}: nerve tests"
        yield from nerve_tests(state, ctx, player)


def needs_broken_test(state: KTState, player: int) -> bool:
    """Not broken yet and (out of action + living with a flesh wound) > half (§6.8 step 1).

    Strictly more than half of the starting count (§10 A2); once broken, never again
    (§10 A41).
    """
    team = state.team(player)
    if team.broken:
        return False
    mine = state.models_of(player)
    damaged = sum(1 for m in mine if m.out_of_action or m.flesh_wounds > 0)
    return 2 * damaged > team.start_count


def broken_test(state: KTState, ctx: RuleContext, player: int) -> None:
    """2D6 greater than the highest Ld among living models breaks the team (§6.8 step 1).

    Shaken models count for the highest Ld (§10 A41). Not re-rollable (§8.2).
    """
    living = state.on_table(player)
    if not living or not needs_broken_test(state, player):
        return
    team = state.team(player)
    best = max(m.sheet.Ld for m in living)
    check = Check(
        "broken test",
        best,
        f"highest Ld {best}",
        dice=2,
        at_most=True,
        fails_on=frozenset(),
        words=("holds", "broken"),
    )
    roll = ctx.dice.roll(2, player=player, reason="broken test", check=check)
    team.broken = not check.passes(roll.total)
    ctx.emit(
        "BrokenTestRolled",
        "",  # the dice line says it all; TeamBroken follows a broken team
        player=player,
        total=roll.total,
        leadership=best,
        broken=team.broken,
    )
    if team.broken:
        ctx.emit(
            "TeamBroken",
            f"{says(team.name, 'is')} broken: "
            "-1 to hit and nerve tests for every model from now on",
            player=player,
        )


def recover(state: KTState, ctx: RuleContext, player: int) -> None:
    """All the player's shaken models stop being shaken (§6.8 step 2)."""
    for m in state.models_of(player):
        if m.shaken:
            m.shaken = False
            ctx.emit("ShakenRecovered", f"{m.name} is no longer shaken", model=m.id)


def nerve_tests(state: KTState, ctx: RuleContext, player: int) -> Procedure[None]:
    """Comms window, then each model's nerve test in the owner's order (§6.8 step 3)."""
    team = state.team(player)
    waiting = [m for m in state.on_table(player) if team.broken or m.flesh_wounds > 0]
    if not waiting:
        return
    yield from _offer_comms(state, ctx, player, waiting)
    asked = False
    while waiting:
        model = waiting[0]
        if len(waiting) == 1 and asked:
            ctx.answered(f"{model.name} is the last model to take its Nerve test.", player)
        asked = len(waiting) > 1
        if len(waiting) > 1:
            options = tuple(
                Option(m.id, m.name, cell=m.cell, model=m.id, detail=_preview(state, m))
                for m in waiting
            )
            choice = yield Decision(
                player, DecisionKind.ORDER, "Nerve tests: which model tests next?", options
            )
            model = state.models[choice.key]
        waiting.remove(model)
        nerve_test(state, ctx, model)


def _offer_comms(
    state: KTState, ctx: RuleContext, player: int, waiting: list[Model]
) -> Procedure[None]:
    """Comms stratagem, after step 2 and before the first nerve test (§8.1, §7 #41).

    Offered only when some other model about to test stands within 2" of the Comms:
    otherwise it could change nothing.
    """
    comms = specialist(state, player, "Comms")
    if comms is None or not can_use(state, player, COMMS):
        return
    if not any(_near(state, m, comms) for m in waiting if m is not comms):
        return
    if (
        yield from offer_stratagem(
            state,
            ctx,
            player,
            COMMS,
            f'-1 to nerve tests within {SUPPORT_RANGE}" of {comms.name}?',
            subject=comms.id,
        )
    ):
        state.team(player).comms_morale = True


def _near(state: KTState, a: Model, b: Model) -> bool:
    assert a.cell is not None and b.cell is not None
    return state.board.range_to(a.cell, b.cell) <= SUPPORT_RANGE


def nerve_modifier(state: KTState, model: Model) -> int:
    """The nerve-test modifier for ``model`` now (§6.8 step 3 table).

    +1 per own model out of action and per own shaken model (a Medic never counts as
    shaken), -1 per non-shaken friend within 2" (a Medic always counts as non-shaken),
    -1 within 2" of the Comms under its stratagem (other models only, §10 A33). A Veteran
    ignores the + modifiers and keeps the - ones (§10 A39). Shaken counts include models
    shaken earlier in this step (§10 A38).
    """
    mine = [m for m in state.models_of(model.player) if m is not model]
    penalty = sum(1 for m in mine if m.out_of_action)
    penalty += sum(1 for m in mine if m.on_table and m.shaken and m.specialism != "Medic")
    support = sum(
        1
        for m in mine
        if m.on_table and (not m.shaken or m.specialism == "Medic") and _near(state, model, m)
    )
    if state.team(model.player).comms_morale and model.specialism != "Comms":
        support += sum(
            1 for m in mine if m.specialism == "Comms" and m.on_table and _near(state, model, m)
        )
    if model.specialism == "Veteran":
        penalty = 0
    return penalty - support


def nerve_check(leadership: int, modifier: int) -> Check:
    """D6 + modifiers greater than Ld: shaken; a natural 1 always passes (§6.8 step 3)."""
    return Check(
        "nerve test",
        leadership,
        f"Ld {leadership}",
        (Modifier(modifier, "nerve modifiers"),),
        at_most=True,
        fails_on=frozenset(),
        passes_on=frozenset({1}),
        words=("passes", "shaken"),
    )


def _preview(state: KTState, model: Model) -> str:
    modifier = nerve_modifier(state, model)
    return f"Ld {model.sheet.Ld}, modifier {modifier:+d} (a natural 1 always passes)"


def nerve_test(state: KTState, ctx: RuleContext, model: Model) -> None:
    """D6 + modifiers greater than Ld: shaken; a natural 1 passes (§6.8 step 3)."""
    modifier = nerve_modifier(state, model)
    check = nerve_check(model.sheet.Ld, modifier)
    face = ctx.dice.d6(player=model.player, reason=f"nerve test of {model.id}", check=check)
    total = face + modifier
    shaken = not check.passes(face)
    model.shaken = shaken
    ctx.emit(
        "NerveTestRolled",
        "",  # the dice line says it all; ModelShaken follows a shaken model
        model=model.id,
        face=face,
        modifier=modifier,
        total=total,
        shaken=shaken,
    )
    if shaken:
        ctx.emit(
            "ModelShaken",
            f"{model.name} is shaken: no actions until the next Morale phase",
            model=model.id,
        )
