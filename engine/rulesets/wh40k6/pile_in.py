"""Piling in at the start of an Initiative step (digest wh40k6 §6.13.3 step 1, D41).

Models of this Initiative that are not engaged move up to 3" toward the nearest enemy of
the combat, trying to reach base contact; the 1" rule is waived toward that combat's
units. The owner lets the engine place them (contact first, then closest, then shortest)
or picks each model's cell among the moves that bring it no farther from the enemy.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance, square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.paths import Field
from engine.rulesets.wh40k6.placement import cell_key, parse_cell
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.strikes import Strike, is_engaged
from engine.wording import counted

AUTO, MANUAL = "auto", "manual"


def pile_in(
    state: State,
    ctx: RuleContext,
    units: list[Unit],
    ids: set[str],
    strikes: dict[str, Strike],
    step: int,
) -> Procedure[None]:
    """One side's pile-in moves for Initiative ``step``."""
    movers = _movers(state, units, ids, strikes, step)
    if not movers:
        return
    player = units[0].player
    choice = yield Decision(
        player,
        DecisionKind.PICK_OPTION,
        f"Initiative {step}: {counted(len(movers), 'model')} "
        f'{"piles" if len(movers) == 1 else "pile"} in up to 3"',
        (Option(AUTO, "Pile in automatically"), Option(MANUAL, "Choose each pile-in move")),
    )
    for m, foes in movers:
        assert m.cell is not None
        scored = _toward(state, m, foes)
        pool = sorted(scored, key=lambda c: (scored[c], c.y, c.x))
        cell = pool[0]
        if choice.key == MANUAL and len(pool) > 1:
            pick = yield Decision(
                player,
                DecisionKind.PICK_CELL,
                f"Pile-in move of {m.name}",
                tuple(
                    Option(cell_key(c), f'{c} ({scored[c][0]}" from the enemy)', cell=c)
                    for c in pool
                ),
                subject=m.id,
            )
            cell = parse_cell(pick.key)
        elif choice.key == MANUAL:
            ctx.answered(
                f"{m.name} {'stays at' if cell == m.cell else 'piles in to'} {cell}: "
                "the only cell it may end on.",
                player,
            )
        if cell != m.cell:
            m.cell = cell
            ctx.emit("PiledIn", f"{m.name} piles in to {cell}", model=m.id)


def _movers(
    state: State, units: list[Unit], ids: set[str], strikes: dict[str, Strike], step: int
) -> list[tuple[Model, list[Model]]]:
    """Models of this Initiative that are not engaged, with the enemies of their combat."""
    movers = []
    for unit in units:
        foes = [m for m in state.table_models() if m.player != unit.player and m.unit in ids]
        if not foes:
            continue
        for m in state.on_table(unit):
            strike = strikes.get(m.id)
            if strike is None or strike.initiative != step:
                continue
            if m.is_vehicle and not m.profile.is_walker:
                continue
            if not is_engaged(state, m, foes):
                movers.append((m, foes))
    return movers


def _toward(state: State, m: Model, foes: list[Model]) -> dict[Cell, tuple[int, int]]:
    """Cells within 3" that bring the model no farther from the enemy: (gap, cost)."""
    assert m.cell is not None
    f = Field(state, m.player, [m.id], spare={e.unit for e in foes})
    now = min(rect_distance(m.rect, e.rect) for e in foes)
    scored: dict[Cell, tuple[int, int]] = {}
    for cell, cost in f.reach(m, m.cell, t.PILE_IN, False).items():
        d = min(rect_distance(square(cell, m.profile.size), e.rect) for e in foes)
        if d <= now:
            scored[cell] = (d, cost)
    return scored
