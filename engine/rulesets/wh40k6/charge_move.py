"""The charge move (digest wh40k6 §6.11 steps 4-5, §7 D38).

The model closest to the target moves first into base contact; every other model then
moves up to the charge range and, where it can, (a) contacts a target model no charger
touches yet, else (b) any target model, else (c) ends within 2" of a friend in base
contact, else (d) gets as close to the target as it can. The player auto-places the move
(best tier, shortest move) or picks each model's cell within its best tier.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import Rect, rect_distance, square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.explosions import destroy_vehicle
from engine.rulesets.wh40k6.geometry import gap
from engine.rulesets.wh40k6.morale import dangerous_test
from engine.rulesets.wh40k6.paths import Field, crossed, touches
from engine.rulesets.wh40k6.placement import cell_key, parse_cell
from engine.rulesets.wh40k6.profiles import UnitType
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.vehicles import WRECKED
from engine.wording import says

AUTO, MANUAL = "auto", "manual"
TIER_NAMES = {
    0: "contacts an unengaged target model",
    1: "contacts a target model",
    2: 'ends within 2" of a friend in base contact',
    3: "gets as close as it can",
}


def contact_cost(state: State, f: Field, model: Model, target: Unit, fly: bool) -> int | None:
    """Shortest move that puts ``model`` in base contact with the target (§11.1)."""
    assert model.cell is not None
    reach = f.reach(model, model.cell, t.MAX_CHARGE, fly)
    size = model.profile.size
    costs = [
        reach[cell]
        for cell in contact_anchors([e.rect for e in state.on_table(target)], size)
        if cell in reach
    ]
    return min(costs) if costs else None


def contact_anchors(rects: list[Rect], size: int) -> set[Cell]:
    """Where a ``size`` footprint stands in base contact with one of ``rects``
    (`rect_distance` 1: at most one column and one row between, not overlapping).

    Listed around each rect rather than measured from every cell a charger reaches: that
    measuring was most of the time a charge's odds took (hundreds of cells times every
    target model, for each charge a unit could declare)."""
    found: set[Cell] = set()
    for x0, y0, x1, y1 in rects:
        # a footprint's columns [ax, ax + size - 1] come within one column of [x0, x1]
        # from ax = x0 - size to ax = x1 + 1 (rows alike); inside both it overlaps
        for ax in range(x0 - size, x1 + 2):
            edge_x = ax in (x0 - size, x1 + 1)
            for ay in range(y0 - size, y1 + 2):
                if edge_x or ay in (y0 - size, y1 + 1):
                    found.add(Cell(ax, ay))
    return found


def _tier(
    rect: Rect, targets: list[Model], untouched: set[str], anchors: list[Rect]
) -> tuple[int, int]:
    contact = [e for e in targets if rect_distance(rect, e.rect) == 1]
    if any(e.id in untouched for e in contact):
        return 0, 0
    if contact:
        return 1, 0
    if any(rect_distance(rect, a) <= t.COHERENCY for a in anchors):
        return 2, 0
    return 3, min(rect_distance(rect, e.rect) for e in targets)


def charge_move(
    state: State,
    ctx: RuleContext,
    unit: Unit,
    target: Unit,
    distance: int,
    f: Field,
    fly: bool,
    packs: bool,
) -> Procedure[None]:
    """Move every charging model (§6.11 step 5), then Dangerous Terrain tests."""
    choice = yield Decision(
        unit.player,
        DecisionKind.PICK_OPTION,
        f'{says(unit.name, "charges")} {distance}": place the charge move',
        (Option(AUTO, "Auto-place the charge move"), Option(MANUAL, "Place each model")),
    )
    manual = choice.key == MANUAL
    targets = state.on_table(target)
    models = sorted(state.on_table(unit), key=lambda m: (min(gap(m, e) for e in targets), m.id))
    starts = {m.id: m.cell for m in models}
    for m in models:
        assert m.cell is not None
        start = m.cell
        scored = _scores(m, models, targets, f.reach(m, start, distance, fly))
        tier, pool = _best_pool(scored)
        cell = pool[0]
        if manual and len(pool) > 1:
            pick = yield Decision(
                unit.player,
                DecisionKind.PICK_CELL,
                f"Charge move of {m.name}: it {TIER_NAMES[tier]}",
                tuple(Option(cell_key(c), f'{c} ({scored[c][2]}")', cell=c) for c in pool),
                subject=m.id,
            )
            cell = parse_cell(pick.key)
        elif manual:
            ctx.answered(
                f"{m.name} moves to {cell}: the only cell its charge move may end on.", unit.player
            )
        m.cell = cell
        m.moved = m.moved or cell != start
    for m in models:
        begin = starts[m.id]
        if m.removed or begin is None or begin == m.cell or m.cell is None:
            continue
        if _charge_test(state, f, m, begin, m.cell, distance, fly, packs):
            dangerous_test(state, ctx, m)
            if m.is_vehicle and m.hp <= 0 and not m.removed:
                yield from destroy_vehicle(state, ctx, m, WRECKED)


def _scores(
    m: Model, models: list[Model], targets: list[Model], reach: dict[Cell, int]
) -> dict[Cell, tuple[int, int, int]]:
    """(priority tier, inches still to go, cost) of every free cell the model can reach."""
    others = [o.rect for o in models if o.id != m.id]
    untouched = {e.id for e in targets if not any(rect_distance(e.rect, o) == 1 for o in others)}
    anchors = [
        o.rect
        for o in models
        if o.id != m.id and any(rect_distance(o.rect, e.rect) == 1 for e in targets)
    ]
    scored: dict[Cell, tuple[int, int, int]] = {}
    for cell, cost in reach.items():
        rect = square(cell, m.profile.size)
        if any(rect_distance(rect, o) == 0 for o in others):
            continue
        tier, gap_left = _tier(rect, targets, untouched, anchors)
        scored[cell] = (tier, gap_left, cost)
    return scored


def _best_pool(scored: dict[Cell, tuple[int, int, int]]) -> tuple[int, list[Cell]]:
    """The best tier reachable, and its cells (tier 3: only the closest ones), best first."""
    tier = min(v[0] for v in scored.values())
    pool = sorted(
        (c for c, v in scored.items() if v[0] == tier), key=lambda c: (scored[c], c.y, c.x)
    )
    if tier == 3:
        closest = scored[pool[0]][1]
        pool = [c for c in pool if scored[c][1] == closest]
    return tier, pool


def _charge_test(
    state: State, f: Field, m: Model, start: Cell, end: Cell, budget: int, fly: bool, packs: bool
) -> bool:
    """DT tests of a charge (§6.11 table): start/end for packs, crossing for the rest."""
    kind = m.profile.unit_type
    if fly or (kind is UnitType.JUMP and packs):
        return touches(state, m, start, "difficult") or touches(state, m, end, "difficult")
    if kind in (UnitType.CAVALRY, UnitType.BIKE):
        return crossed(state, f, m, start, end, budget, "difficult", False)
    return crossed(state, f, m, start, end, budget, "dangerous", False)
