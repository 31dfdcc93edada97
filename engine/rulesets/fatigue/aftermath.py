"""The Aftermath phase: Panic, Pursuit, Rest (digest fatigue §4.5, §6.16, §6.19, §6.20).

Each step is resolved for the initiative player's units first, then the other's, each in
unit id order (PROPOSED, §10 #34). The end-of-round step is in ``endround.py``.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import DecisionKind, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import frenzy_active, morale_test
from engine.rulesets.fatigue.flight import break_and_flee, nearest_enemy, scrum_threat
from engine.rulesets.fatigue.outcome import check_wipeout
from engine.rulesets.fatigue.profiles import Psych
from engine.rulesets.fatigue.prompts import pick, unit_id, unit_option
from engine.rulesets.fatigue.pursuit import pursue
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import FREE_ACTIVATIONS
from engine.wording import its, says, they


def aftermath(state: FState, ctx: RuleContext) -> Procedure[None]:
    """Steps 1-3 of the Aftermath phase (SEED table, §4.5)."""
    state.step = "Panic checks"
    for unit in list(state.units_in_order()):
        yield from panic_check(state, ctx, unit)
    check_wipeout(state)
    state.step = "Pursuit"
    yield from pursuit_step(state, ctx)
    check_wipeout(state)
    state.step = "Rest"
    rest(state, ctx)


def lost_melee(state: FState, unit: Unit) -> bool:
    """Its side took more wounds in a scrum it fought in this round (§6.16 1.1, §10 #11).

    A tie means no test, and so does a scrum whose enemy side has no units left in it.
    """
    for sid in unit.scrums_this_round:
        scrum = state.scrums[sid]
        enemy = 1 - unit.player
        if not scrum.sides[enemy]:
            continue
        if scrum.wounds[unit.player] > scrum.wounds[enemy]:
            return True
    return False


def panic_triggers(state: FState, unit: Unit) -> list[str]:
    """Why a unit must take a panic test (SEED, §6.16 item 1); empty if it need not."""
    why = []
    if lost_melee(state, unit):
        why.append("lost the melee")
    if unit.ambushed:
        why.append("ambushed")
    if 2 * unit.lost_to_shooting > unit.models_at_round_start:
        why.append("shot up")
    return why


def panic_check(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Panic test of one unit, at most once (§6.16 items 1-5)."""
    if not unit.in_play or unit.fleeing:
        return
    why = panic_triggers(state, unit)
    if not why:
        return
    if "lost the melee" in why and unit.frenzied:
        unit.frenzy_lost = True  # SEED + PROPOSED: Frenzy is lost first (§6.16 item 3)
        ctx.emit("FrenzyLost", f"{says(unit.name, 'loses')} {its(unit.name)} Frenzy", unit=unit.id)
    if unit.has(Psych.IMMUNE_PSYCH) or frenzy_active(state, unit):
        return
    if morale_test(ctx, unit, "panic"):
        return
    threat = scrum_threat(state, unit) if unit.engaged else None
    threat = threat or nearest_enemy(state, unit)
    yield from break_and_flee(state, ctx, unit, threat, ", ".join(why))


def pursuit_step(state: FState, ctx: RuleContext) -> Procedure[None]:
    """Pursuit (SEED + PROPOSED, §6.19)."""
    for unit in list(state.units_in_order()):
        quarry = fled_from(state, unit)
        if not quarry or unit.fleeing or unit.engaged:
            continue
        # PROPOSED: a frenzied pursuer with an enemy near skips the test and counts as
        # failing it (§6.19 step 2.1).
        must = frenzy_active(state, unit) or not morale_test(ctx, unit, "pursuit")
        if not must and not (yield from ask_yes_no(unit.player, f"Pursue with {unit.name}?")):
            continue
        quarry = fled_from(state, unit)
        if not quarry:
            continue
        target = quarry[0]
        if len(quarry) > 1:
            key = yield from pick(
                unit.player,
                DecisionKind.PICK_TARGET,
                f"{says(unit.name, 'pursues')}: which fleeing unit?",
                [unit_option(q) for q in quarry],
            )
            target = state.units[unit_id(key)]
        else:
            ctx.answered(
                f"{says(unit.name, 'pursues')} {target.name}, "
                f"the only unit {they(unit.name)} may pursue.",
                unit.player,
            )
        pursue(state, ctx, unit, target)


def fled_from(state: FState, unit: Unit) -> list[Unit]:
    """Units in play that fled this Aftermath from a scrum this unit was in (§6.19 item 1)."""
    out: dict[int, Unit] = {}
    for scrum in state.scrums.values():
        for fled, enemies in scrum.fled:
            if unit.id in enemies and state.units[fled].in_play:
                out[fled] = state.units[fled]
    return [out[k] for k in sorted(out)]


def rest(state: FState, ctx: RuleContext) -> None:
    """Remove fatigue equal to unused free activations (SEED, §6.20)."""
    for unit in state.units_in_order():
        remove = min(unit.fatigue, max(0, FREE_ACTIVATIONS - unit.activations))
        if remove:
            unit.fatigue -= remove
            ctx.emit(
                "UnitRested",
                f"{says(unit.name, 'rests')}: -{remove} fatigue ({unit.fatigue} left)",
                unit=unit.id,
                fatigue=unit.fatigue,
            )
