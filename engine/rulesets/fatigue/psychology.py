"""The START_OF_TURN step: Rout test, Rally, Stupidity and Terror (digest fatigue §5, §6.18,
§6.21, §6.23, §6.25).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.checks import (
    effective_morale,
    morale_check,
    morale_test,
    subject_to_terror,
)
from engine.rulesets.fatigue.flight import break_and_flee, flee, free_blows, nearest_enemy
from engine.rulesets.fatigue.geometry import dist
from engine.rulesets.fatigue.outcome import GameOver, check_wipeout
from engine.rulesets.fatigue.profiles import Psych
from engine.rulesets.fatigue.scrums import leave_scrum
from engine.rulesets.fatigue.state import FState, Unit
from engine.rulesets.fatigue.stupidity import stupidity_test
from engine.rulesets.fatigue.tables import TERROR_RADIUS
from engine.wording import its, says


def start_of_turn(state: FState, ctx: RuleContext, player: int) -> Procedure[None]:
    """Rout check, then Rally, Stupidity and Terror for the player's units (§5)."""
    state.step = f"Start of turn: {state.side(player).name}"
    yield from rout_check(state, ctx, player)
    for unit in _units(state, player):
        if unit.fleeing:
            yield from rally(state, ctx, unit)
    check_wipeout(state)
    for unit in _units(state, player):
        if unit.has(Psych.STUPIDITY):
            stupidity_test(state, ctx, unit)
    check_wipeout(state)
    for unit in _units(state, player):
        yield from terror_test(state, ctx, unit)
    check_wipeout(state)


def _units(state: FState, player: int) -> list[Unit]:
    return [u for u in state.units_of(player) if u.in_play]


def rout_threshold(start_models: int) -> int:
    """Half the starting models, rounded up: 25 -> 13 (SEED, §6.21 item 1)."""
    return (start_models + 1) // 2


def must_test_rout(state: FState, player: int) -> bool:
    """Out of action >= ceil(N/2); fleeing models do not count (SEED, §6.21 item 1)."""
    return state.out_of_action(player) >= rout_threshold(state.side(player).start_models)


def rout_morale(state: FState, player: int) -> int | None:
    """The Morale of the Rout test (§6.21 item 3, PROPOSED §10 #18).

    The Leader's, with his unit's modifiers; if he is out of action or fleeing, the
    highest effective Morale among models neither fleeing nor out of action; None if
    there is no such model.
    """
    values: list[int] = []
    for unit in _units(state, player):
        if unit.fleeing:
            continue
        for model in unit.alive():
            value = effective_morale(unit, model.profile.morale)
            if model.profile.leader:
                return value
            values.append(value)
    return max(values, default=None)


def rout_check(state: FState, ctx: RuleContext, player: int) -> Procedure[None]:
    """Voluntary Rout (decision point 4), then the Rout test (SEED, §6.21).

    Raises:
        GameOver: the player concedes or fails the test.
    """
    if not must_test_rout(state, player):
        return
    side = state.side(player)
    other = state.side(1 - player)
    choice = yield Decision(
        player,
        DecisionKind.YES_NO,
        f"{says(side.name, 'has')} lost half {its(side.name)} models: rout voluntarily?",
        # Staying in is key 1 and Enter: a player pressing on must not concede the game.
        (
            Option("no", "No: take the Rout test", suggested=True),
            Option("yes", "Yes: rout (the game is lost)"),
        ),
    )
    if choice.key == "yes":
        ctx.emit("VoluntaryRout", f"{says(side.name, 'routs')} voluntarily", player=player)
        raise GameOver(1 - player, f"{side.name} routed voluntarily; {says(other.name, 'wins')}.")
    target = rout_morale(state, player)
    if target is None:
        ctx.emit("RoutTested", f"{says(side.name, 'has')} nobody left to rally: the force routs")
        raise GameOver(1 - player, f"{side.name} routed with no one left to lead.")
    check = morale_check(target, "rout test")
    roll = ctx.dice.d6(player=player, reason=f"rout test of {side.name}", check=check)
    passed = check.passes(roll)
    ctx.emit(
        "RoutTested",
        "",  # the dice line says it all; a failed test ends the game
        player=player,
        roll=roll,
        target=target,
        passed=passed,
    )
    if not passed:
        raise GameOver(1 - player, f"{side.name} failed the Rout test; {says(other.name, 'wins')}.")


def rally(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Rally test of a fleeing unit on its troops' own Morale (FILL-IN, §6.18)."""
    if morale_test(ctx, unit, "rally"):
        unit.fleeing = False
        unit.terrified = False
        ctx.emit("UnitRallied", f"{says(unit.name, 'rallies')}", unit=unit.id)
        return
    if unit.engaged:
        yield from free_blows(state, ctx, unit)
        leave_scrum(state, ctx, unit)
    if unit.in_play:
        flee(state, ctx, unit, nearest_enemy(state, unit))


def terror_source(state: FState, unit: Unit) -> Cell | None:
    """The nearest enemy TERROR model within 3 steps, if any (SEED, §6.23 item 1)."""
    best: tuple[int, int, int] | None = None
    found = None
    for enemy in state.units_in_order():
        if enemy.player == unit.player or not enemy.has(Psych.TERROR):
            continue
        for e in enemy.cells():
            d = min((dist(state, c, e) for c in unit.cells()), default=TERROR_RADIUS + 1)
            if d <= TERROR_RADIUS and (best is None or (d, e.y, e.x) < best):
                best, found = (d, e.y, e.x), e
    return found


def terror_test(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Terror: test within 3 steps of a terrifying model or flee from it (§6.23)."""
    if not unit.in_play or not subject_to_terror(state, unit):
        return
    source = terror_source(state, unit)
    if source is None or morale_test(ctx, unit, "terror"):
        return
    unit.terrified = True
    yield from break_and_flee(state, ctx, unit, source, "terror", blows=unit.engaged)
