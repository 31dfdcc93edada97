"""FP refill, the ACTIVATIONS loop and one activation (digest fatigue §5, §6.3, §6.13).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.decisions import DecisionKind, Option, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.actions import legal_actions, perform
from engine.rulesets.fatigue.lostgroup import lost_group_test
from engine.rulesets.fatigue.outcome import check_wipeout
from engine.rulesets.fatigue.profiles import Ability, AbilityType
from engine.rulesets.fatigue.prompts import lead_of, pick, unit_id, unit_option
from engine.rulesets.fatigue.scrums import enemies_in_scrum
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.tables import ACTION_FP_COST, COMMANDER_FP_BONUS, FREE_ACTIVATIONS
from engine.wording import says


def fp_refill(state: FState, ctx: RuleContext) -> None:
    """Pool = sum of fp_value + 1 per living commander, non-fleeing units only (§10 #1)."""
    for side in state.sides:
        pool = 0
        for unit in state.units_of(side.player):
            if unit.in_play and not unit.fleeing:
                pool += unit.spec.fp_value
                if unit.commander() is not None:
                    pool += COMMANDER_FP_BONUS
        side.fp = pool
        side.passed = False
        ctx.emit("PoolRefilled", f"{says(side.name, 'has')} {pool} FP", player=side.player, fp=pool)


def standalone_abilities(unit: Unit) -> list[Ability]:
    """Activated abilities that make an activation on their own (§6.3 step 2)."""
    return [
        a
        for a in unit.spec.abilities
        if a.type is AbilityType.ACTIVATED and a.attach_to == "standalone"
    ]


def is_eligible(state: FState, unit: Unit) -> bool:
    """In play, not FLEEING, STUPID or BRACED, and some action is affordable (§6.3)."""
    if not unit.in_play or unit.fleeing or unit.stupid or unit.braced:
        return False
    fp = state.side(unit.player).fp
    if any(max(1, a.fp_cost) <= fp for a in standalone_abilities(unit)):
        return True
    if fp < ACTION_FP_COST:
        return False
    if not unit.engaged:
        return True  # BRACE is always legal for a free unit
    return not unit.cannot_attack and bool(enemies_in_scrum(state, unit))


NEXT = ("Activations (side 1 next)", "Activations (side 2 next)")
"""The checkpoints between two activations (``ctx.boundary``), by the side whose turn is
next (the only thing the loop keeps outside the state): undo replays one activation."""


def activations(state: FState, ctx: RuleContext, current: int | None = None) -> Procedure[None]:
    """Alternate activations, A first; passing is final for the round (§5 ACTIVATIONS).

    ``current``: resumed from a checkpoint between two activations (`NEXT`), this side's
    turn next."""
    resumed = current is not None
    if current is None:
        state.step = "Activations"
        current = state.initiative
    while not (state.sides[0].passed and state.sides[1].passed):
        if resumed:
            ctx.boundary(state.round, NEXT[current])
        resumed = True  # a checkpoint before every activation but the first (the phase's)
        side = state.side(current)
        if not side.passed:
            eligible = [u for u in state.units_of(current) if is_eligible(state, u)]
            if not eligible:
                side.passed = True
                ctx.emit("SidePassed", f"{side.name} cannot act and passes", player=current)
            else:
                yield from _turn(state, ctx, current, eligible)
                check_wipeout(state)
        if not state.side(1 - current).passed:
            current = 1 - current


def _turn(state: FState, ctx: RuleContext, player: int, eligible: list[Unit]) -> Procedure[None]:
    """Activate a unit, or pass (§5 ACTIVATIONS, PROPOSED: passing is final; §7 #5-6)."""
    side = state.side(player)
    options = [unit_option(u, f"{u.name} ({', '.join(u.states(state.round))})") for u in eligible]
    options.append(Option("pass", "Pass (final for this round)", ends=True))
    key = yield from pick(
        player,
        DecisionKind.PICK_MODEL,
        f"{side.name} ({side.fp} FP): activate a unit or pass",
        options,
    )
    if key == "pass":
        side.passed = True
        ctx.emit("SidePassed", f"{says(side.name, 'passes')}", player=player)
        return
    yield from activate(state, ctx, state.units[unit_id(key)])


def activate(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """One activation (§6.3 steps 1-7): action, attached abilities, pay, resolve, fatigue."""
    side = state.side(unit.player)
    if state.modules.lost_group_test:
        lost_group_test(state, ctx, unit)
    menu = legal_actions(state, unit, side.fp)
    key = yield from pick(
        unit.player,
        DecisionKind.PICK_OPTION,
        f"{unit.name}: choose the action ({side.fp} FP)",
        [Option(k, label, detail=detail) for k, label, detail in menu],
        subject=lead_of(unit),
    )
    if key.startswith("ability:"):
        ability = next(a for a in unit.spec.abilities if a.key == key[8:])
        attached = [ability]
        cost = max(1, ability.fp_cost)  # PROPOSED: every activation costs FP (§6.3 step 4)
    else:
        attached = yield from attach_abilities(unit, key, side.fp)
        cost = ACTION_FP_COST + sum(a.fp_cost for a in attached)
    side.fp -= cost
    ctx.emit(
        "UnitActivated",
        f"{unit.name}: {key}{''.join(' + ' + a.name for a in attached)} for {cost} FP "
        f"({side.fp} left)",
        unit=unit.id,
        action=key,
        cost=cost,
    )
    unit.whirlwind = any(a.key == "whirlwind_of_steel" for a in attached)
    yield from perform(state, ctx, unit, key)
    unit.whirlwind = False
    count_activation(ctx, unit, attached)


def attach_abilities(unit: Unit, action: str, fp: int) -> Procedure[list[Ability]]:
    """Decision point 8: which activated abilities go with the action (§6.3 step 3)."""
    attached: list[Ability] = []
    cost = ACTION_FP_COST
    for ability in unit.spec.abilities:
        if ability.type is not AbilityType.ACTIVATED or ability.attach_to != action:
            continue
        if cost + ability.fp_cost > fp:
            continue
        prompt = f"Attach {ability.name} ({ability.fp_cost} FP)? {ability.text}"
        if (yield from ask_yes_no(unit.player, prompt)):
            attached.append(ability)
            cost += ability.fp_cost
    return attached


def count_activation(ctx: RuleContext, unit: Unit, attached: list[Ability]) -> None:
    """Fatigue bookkeeping after the action (SEED, §6.3 step 6).

    Always exactly one activation, whatever the FP spent; an extra activation gives +1
    fatigue, and the abilities' own fatigue comes on top.
    """
    unit.activations += 1
    gained = 1 if unit.activations > FREE_ACTIVATIONS else 0
    gained += sum(a.self_fatigue for a in attached)
    if gained:
        unit.fatigue += gained
        ctx.emit(
            "FatigueGained",
            f"{says(unit.name, 'gains')} {gained} fatigue ({unit.fatigue} in all)",
            unit=unit.id,
            fatigue=unit.fatigue,
        )
