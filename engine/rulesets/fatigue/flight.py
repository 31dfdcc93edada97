"""Breaking and fleeing: free blows and the flight move (digest fatigue §6.16 step 5, §6.17).

The seed's own flight rules ("Побег") are missing; the move is the FILL-IN algorithm of
§6.17: each model, farthest from the threat first, steps greedily to the neighbour that
most increases its distance from the threat, and a step off the board takes it out of
action.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell, neighbours8
from engine.checks import DISTANCE
from engine.decisions import DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.damage import remove_model, take_hits
from engine.rulesets.fatigue.geometry import (
    adjacent,
    dist,
    facing_of,
    height,
    is_difficult,
    is_obstacle,
    is_walkable,
)
from engine.rulesets.fatigue.prompts import pick
from engine.rulesets.fatigue.scrums import leave_scrum, scrum_of
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.units import centroid
from engine.wording import agrees, counted, says, they


def nearest_enemy(state: FState, unit: Unit) -> Cell | None:
    """The nearest enemy model, a threat point (FILL-IN §6.17 item 1; ties: y, then x)."""
    best: tuple[int, int, int] | None = None
    found = None
    for e in state.enemy_models(unit.player):
        assert e.cell is not None
        d = min((dist(state, c, e.cell) for c in unit.cells()), default=0)
        key = (d, e.cell.y, e.cell.x)
        if best is None or key < best:
            best, found = key, e.cell
    return found


def scrum_threat(state: FState, unit: Unit) -> Cell | None:
    """The centroid of the enemy models in the unit's scrum (§6.17 item 1)."""
    scrum = scrum_of(state, unit)
    if scrum is None:
        return None
    cells = [c for uid in scrum.sides[1 - unit.player] for c in state.units[uid].cells()]
    return centroid(cells) if cells else None


def free_blows(state: FState, ctx: RuleContext, unit: Unit) -> Procedure[None]:
    """Adjacent enemies strike the breaking unit once each, hitting automatically (§6.16 5.1).

    PROPOSED (§10 #13): the enemy player chooses the strikers (default all, decision 15);
    models of STUPID units cannot strike (SEED); the owner allocates (decision 16).
    """
    cells = unit.cells()
    strikers = [
        m
        for m in state.enemy_models(unit.player)
        if m.cell is not None
        and not state.unit_of(m).stupid
        and any(adjacent(m.cell, c) for c in cells)
    ]
    enemy = 1 - unit.player
    while strikers:
        options = [Option("all", f"Strike with all {len(strikers)} listed models")]
        options += [Option(m.id, f"Hold back {m.name}", cell=m.cell, model=m.id) for m in strikers]
        key = yield from pick(
            enemy, DecisionKind.PICK_OPTION, f"{says(unit.name, 'breaks')}: free blows", options
        )
        if key == "all":
            break
        strikers = [m for m in strikers if m.id != key]
    if not strikers:
        return
    ctx.emit(
        "FreeBlowsStruck",
        f"{len(strikers)} free blows hit {unit.name} "
        f"as {they(unit.name)} {agrees(unit.name, 'breaks')}",
        unit=unit.id,
        blows=len(strikers),
    )
    yield from take_hits(state, ctx, unit, [m.profile.melee.damage for m in strikers], "free blows")


def break_and_flee(
    state: FState,
    ctx: RuleContext,
    unit: Unit,
    threat: Cell | None,
    why: str,
    *,
    blows: bool = True,
) -> Procedure[None]:
    """Free blows, then the survivors flee D6 steps (§6.16 step 5, §6.23 item 3).

    A panicking unit suffers the blows of every adjacent enemy (§6.16 5.1); a terrified
    one only if it is engaged (``blows=False`` otherwise, §6.23 item 3).
    """
    if blows:
        yield from free_blows(state, ctx, unit)
    unit.fleeing = True
    if unit.engaged:
        scrum = scrum_of(state, unit)
        assert scrum is not None
        enemies = tuple(sorted(scrum.sides[1 - unit.player]))
        scrum.fled.append((unit.id, enemies))
        leave_scrum(state, ctx, unit)
    ctx.emit(
        "UnitBroke",
        f"{says(unit.name, 'breaks')} and {agrees(unit.name, 'flees')} ({why})",
        unit=unit.id,
    )
    if unit.in_play:
        flee(state, ctx, unit, threat)


def flee(state: FState, ctx: RuleContext, unit: Unit, threat: Cell | None) -> None:
    """The flight move: one D6 of steps for every model, away from the threat (§6.17)."""
    budget = ctx.dice.d6(
        player=unit.player, reason=f"flight distance of {unit.name}", check=DISTANCE
    )
    if threat is None:
        ctx.emit("UnitFled", f"{says(unit.name, 'has')} nothing to flee from", unit=unit.id)
        return
    # Said before the steps: a model fleeing off the board is out of action after it.
    ctx.emit(
        "UnitFled",
        f"{says(unit.name, 'flees')} {counted(budget, 'step')}",
        unit=unit.id,
        steps=budget,
    )
    order = sorted(
        enumerate(unit.alive()),
        key=lambda im: (-dist(state, im[1].cell or threat, threat), im[0]),
    )
    for _, model in order:
        _flee_model(state, ctx, model, threat, budget)
    cells = unit.cells()
    if cells:
        middle = centroid(cells)
        facing = facing_of(middle.x - threat.x, middle.y - threat.y)
        if facing is not None:
            unit.facing = facing


def _flee_model(state: FState, ctx: RuleContext, model: Model, threat: Cell, budget: int) -> None:
    """Greedy steps away from the threat (§6.17 items 3-5)."""
    parity = 0
    left = budget
    while model.cell is not None:
        here = model.cell
        occupied = state.occupied()
        best: tuple[int, int, int, int] | None = None
        step: tuple[Cell, int, int] | None = None
        for nxt in neighbours8(here):
            diagonal = nxt.x != here.x and nxt.y != here.y
            if nxt not in state.board:
                cost = 1
            else:
                if not is_walkable(state, nxt) or nxt in occupied:
                    continue
                if (
                    diagonal
                    and is_obstacle(state, Cell(nxt.x, here.y))
                    and is_obstacle(state, Cell(here.x, nxt.y))
                ):
                    continue
                if state.modules.elevation and abs(height(state, nxt) - height(state, here)) > 1:
                    continue
                cost = (1 if state.modules.chebyshev else 1 + parity) if diagonal else 1
                cost *= 2 if is_difficult(state, nxt) else 1
            if cost > left:
                continue
            key = (-dist(state, nxt, threat), int(diagonal), nxt.y, nxt.x)
            if best is None or key < best:
                best, step = key, (nxt, cost, int(diagonal))
        if step is None or best is None or -best[0] <= dist(state, here, threat):
            return
        nxt, cost, diag = step
        left -= cost
        if diag and not state.modules.chebyshev:
            parity ^= 1
        if nxt not in state.board:
            remove_model(state, ctx, model, "fled off the board")
            return
        model.cell = nxt
