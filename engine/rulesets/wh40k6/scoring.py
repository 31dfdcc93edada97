"""Victory points, sudden death and the result (digest wh40k6 §4.2, §4.6, §4.12, §12.3).

Objectives are controlled by a player with a scoring unit within 3" and no enemy scoring
or denial unit within 3" (§4.6); The Relic scores for the player whose model carries it
(PROPOSED). Purge the Alien gives 1 VP per enemy unit destroyed (falling back or still in
reserve at the end counts as destroyed); Big Guns Never Tire and The Scouring add 1 VP per
enemy Heavy Support / Fast Attack unit destroyed. Every mission adds Slay the Warlord,
First Blood and Linebreaker.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.footprints import Rect, rect_distance
from engine.ruleset import Outcome, RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.relic import carrier, is_denial, is_scoring
from engine.rulesets.wh40k6.state import State, Unit
from engine.wording import says


def controller(state: State, marker: Rect) -> int | None:
    """Who controls a marker now (§4.6)."""
    near = {0: [], 1: []}  # type: dict[int, list[Unit]]
    for unit in state.units.values():
        if any(rect_distance(m.rect, marker) <= t.OBJECTIVE_CONTROL for m in state.on_table(unit)):
            near[unit.player].append(unit)
    holders = [
        p
        for p in (0, 1)
        if any(is_scoring(state, u) for u in near[p])
        and not any(is_scoring(state, u) or is_denial(state, u) for u in near[1 - p])
    ]
    return holders[0] if len(holders) == 1 else None


def counts_destroyed(state: State, unit: Unit) -> bool:
    """Destroyed, falling back or still in reserve at the end (§4.2, §4.9)."""
    return unit.destroyed or unit.falling_back or unit.in_reserve


def score(state: State, ctx: RuleContext) -> tuple[int, int]:
    """Mission VP plus the three secondary objectives, added to each side (§4.2)."""
    mission = t.MISSIONS[state.mission]
    vp = [0, 0]
    for n, cell in enumerate(state.objectives):
        holder = controller(state, Rect(cell.x, cell.y, cell.x, cell.y))
        if holder is not None:
            vp[holder] += state.objective_values[n]
            _log(ctx, state, holder, f"controls objective {n + 1}", state.objective_values[n])
    if state.mission == 6:
        holder_model = carrier(state)
        if holder_model is not None:
            vp[holder_model.player] += t.OBJECTIVE_VP
            _log(ctx, state, holder_model.player, "holds the Relic", t.OBJECTIVE_VP)
    for unit in state.units.values():
        if not counts_destroyed(state, unit):
            continue
        enemy = 1 - unit.player
        if mission.per_unit_kill:
            vp[enemy] += 1
            _log(ctx, state, enemy, f"destroyed {unit.name}", 1)
        elif mission.bonus_scoring is not None and unit.slot == mission.bonus_scoring:
            vp[enemy] += 1
            _log(ctx, state, enemy, f"destroyed {unit.name} ({unit.slot})", 1)
    for side in state.sides:
        enemy = 1 - side.player
        if side.warlord_slain:
            vp[enemy] += 1
            _log(ctx, state, enemy, "Slay the Warlord", 1)
        if side.first_blood:
            vp[side.player] += 1
            _log(ctx, state, side.player, "First Blood", 1)
        if linebreaker(state, side.player):
            vp[side.player] += 1
            _log(ctx, state, side.player, "Linebreaker", 1)
    for side in state.sides:
        side.vp = vp[side.player]
    return vp[0], vp[1]


def _log(ctx: RuleContext, state: State, player: int, what: str, points: int) -> None:
    ctx.emit(
        "VictoryPointsScored",
        f"{state.side(player).name}: {what} (+{points} VP)",
        player=player,
        vp=points,
    )


def linebreaker(state: State, player: int) -> bool:
    """A scoring or denial unit at least partly in the enemy deployment zone (§4.2)."""
    zone = state.side(1 - player).zone
    for unit in state.units_of(player):
        if not (is_scoring(state, unit) or is_denial(state, unit)):
            continue
        if any(c in zone for m in state.on_table(unit) for c in m.rect.cells()):
            return True
    return False


def has_models(state: State, player: int) -> bool:
    """Models on the table, passengers of a transport on the table included (§4.12)."""
    for unit in state.units_of(player):
        if state.on_table(unit):
            return True
        if unit.embarked_in is not None and state.models[unit.embarked_in].on_table:
            return True
    return False


def sudden_death(state: State) -> Outcome | None:
    """After a player turn: a side with no models left loses (both: a draw) (§4.12)."""
    alive = [has_models(state, p) for p in (0, 1)]
    if all(alive):
        return None
    if not any(alive):
        return Outcome(None, "Both armies were wiped out: a draw.", (0, 0), "wiped out")
    winner = 0 if alive[0] else 1
    return Outcome(
        winner,
        f"{says(state.side(1 - winner).name, 'has')} no models left on the table (sudden death).",
        (0, 0),
        "wiped out",
    )


def final_outcome(state: State, ctx: RuleContext) -> Outcome:
    """Score VP; more wins, equal is a draw (§4.12)."""
    vp = score(state, ctx)
    if vp[0] == vp[1]:
        return Outcome(None, f"Victory points are level at {vp[0]}: a draw.", vp, "victory points")
    winner = 0 if vp[0] > vp[1] else 1
    return Outcome(
        winner,
        f"{says(state.side(winner).name, 'wins')} on victory points, "
        f"{vp[winner]} to {vp[1 - winner]}.",
        vp,
        "victory points",
    )
