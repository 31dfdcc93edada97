"""After the blows: combat result, Morale, Sweeping Advance, consolidation (wh40k6).

Digest §6.13.6 (the side that inflicted more unsaved wounds wins; a draw changes
nothing), §6.10 trigger 2 (losers test at Ld minus the difference, double 1 passes),
§6.13.7 (Sweeping Advance: D6 + unmodified majority Initiative, §10 A-28; the winning
side rolls once with its best unit, PROPOSED) and §6.13.8 (units with no enemy left may
consolidate D6", D43). Non-walker vehicles do not count for the result (§6.14).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.checks import DISTANCE, Check
from engine.decisions import Procedure
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.attacks import majority
from engine.rulesets.wh40k6.damage import destroy_unit
from engine.rulesets.wh40k6.morale import (
    fall_back,
    is_fearless,
    is_locked,
    is_vehicle_unit,
    morale_check,
)
from engine.rulesets.wh40k6.movement import move_unit
from engine.rulesets.wh40k6.paths import can_fly
from engine.rulesets.wh40k6.state import State, Unit
from engine.wording import says


def _fighters(state: State, combat: list[Unit], player: int) -> list[Unit]:
    return [
        u
        for u in combat
        if u.player == player
        and state.on_table(u)
        and not all(m.is_vehicle and not m.profile.is_walker for m in state.on_table(u))
    ]


def combat_result(
    state: State, ctx: RuleContext, combat: list[Unit], wounds: list[int]
) -> Procedure[None]:
    """Decide the combat, test the losers, then consolidate (§6.13.6-§6.13.8)."""
    sides = [_fighters(state, combat, p) for p in (0, 1)]
    if all(any(u.player == p for u in combat) for p in (0, 1)) and all(
        any(u for u in combat if u.player == p and _counts(state, u)) for p in (0, 1)
    ):
        ctx.emit(
            "CombatResolved",
            f"Combat result: {state.side(0).name} {wounds[0]}, {state.side(1).name} {wounds[1]}",
            wounds0=wounds[0],
            wounds1=wounds[1],
        )
        if wounds[0] != wounds[1]:
            winner = 0 if wounds[0] > wounds[1] else 1
            diff = abs(wounds[0] - wounds[1])
            yield from _losers(state, ctx, sides[1 - winner], sides[winner], diff, combat)
    for unit in combat:
        free = not unit.destroyed and not unit.falling_back and not is_locked(state, unit)
        if free and fights_any(state, unit) and not _enemies_left(state, combat, unit):
            yield from consolidate(state, ctx, unit)


def _enemies_left(state: State, combat: list[Unit], unit: Unit) -> bool:
    """An enemy of the combat still fights here (not destroyed, fled or a non-walker)."""
    return any(
        u.player != unit.player and not u.falling_back and _counts(state, u) and state.on_table(u)
        for u in combat
    )


def _counts(state: State, unit: Unit) -> bool:
    """Units that count for combat resolution: not non-walker vehicles (§6.14)."""
    models = state.members(unit)
    return bool(models) and not all(m.is_vehicle and not m.profile.is_walker for m in models)


def fights_any(state: State, unit: Unit) -> bool:
    models = state.on_table(unit)
    return bool(models) and not all(m.is_vehicle and not m.profile.is_walker for m in models)


def _losers(
    state: State,
    ctx: RuleContext,
    losers: list[Unit],
    winners: list[Unit],
    diff: int,
    combat: list[Unit],
) -> Procedure[None]:
    winner_roll: int | None = None
    for unit in losers:
        if unit.destroyed or not state.on_table(unit):
            continue
        if is_vehicle_unit(state, unit) or unit.falling_back:
            continue
        if is_fearless(state, unit) or morale_check(
            state, ctx, unit, -diff, f" (lost the combat by {diff})"
        ):
            continue
        alive = [w for w in winners if state.on_table(w)]
        if not alive:
            yield from fall_back(state, ctx, unit, tuple(u.id for u in combat))
            continue
        if winner_roll is None:
            best = max(_initiative(state, w) for w in alive)
            reason = "sweeping advance (winner)"
            face = ctx.dice.d6(player=alive[0].player, reason=reason, check=_sweep(best))
            winner_roll = face + best
            ctx.emit(
                "SweepRolled", f"Sweeping advance: the winners roll {face}+I{best}={winner_roll}"
            )
        reason = f"sweeping advance ({unit.name})"
        face = ctx.dice.d6(
            player=unit.player, reason=reason, check=_sweep(_initiative(state, unit))
        )
        mine = face + _initiative(state, unit)
        ctx.emit(
            "SweepRolled", f"{says(unit.name, 'rolls')} {face}+I{_initiative(state, unit)}={mine}"
        )
        if winner_roll >= mine:
            destroy_unit(state, ctx, unit, "caught by a sweeping advance")
        else:
            yield from fall_back(state, ctx, unit, tuple(u.id for u in combat))


def _sweep(initiative: int) -> Check:
    """One side of the sweeping advance: D6 + I, opposed (§6.13.7)."""
    return Check.purpose(f"opposed, +I{initiative}")


def _initiative(state: State, unit: Unit) -> int:
    """Majority of the unmodified profile Initiative, ties to the highest (§10 A-28)."""
    return majority([m.profile.i for m in state.on_table(unit)])


def consolidate(state: State, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """D43: up to D6", never within 1" of the enemy; not slowed by terrain (§6.13.8)."""
    face = ctx.dice.d6(player=unit.player, reason=f"consolidation of {unit.name}", check=DISTANCE)
    ctx.emit(
        "Consolidated", f'{unit.name} may consolidate up to {face}"', unit=unit.id, inches=face
    )
    fly = all(can_fly(m, unit.packs) for m in state.on_table(unit))
    yield from move_unit(
        state, ctx, unit, face, fly=fly, through=True, verb="consolidate", tests="dangerous"
    )
