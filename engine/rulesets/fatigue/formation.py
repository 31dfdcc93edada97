"""Moving a whole unit: reach of each model, auto-formation and manual placement.

Digest fatigue §6.5 steps 2-6, §6.6 step 4, §6.31. A move is given as one cell for a
lead model; the others either follow automatically (keeping their place in the
formation, or closing on a target) or are placed one by one, each within 2 steps of a
model already placed, so the unit ends in coherency by construction.

PROPOSED: a unit's own models do not block each other's paths (they move together);
every other model blocks (§11.1 "occupied cells cannot be entered").

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.board import Cell
from engine.decisions import DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.fatigue.geometry import dist, facing_of, leap, walk
from engine.rulesets.fatigue.prompts import cell_option, parse_cell, pick
from engine.rulesets.fatigue.state import FState, Model, Unit
from engine.rulesets.fatigue.tables import COHERENCY
from engine.units import centroid, is_coherent
from engine.wording import agreeing

Reach = dict[str, dict[Cell, int]]
"""Per model id: the cells it can end on, with the movement spent."""


def blocked_for(state: FState, unit: Unit) -> set[Cell]:
    """Cells a model of ``unit`` may not enter: other units' models (PROPOSED, §11.1)."""
    return {cell for cell, model in state.occupied().items() if model.unit != unit.id}


def walk_reach(state: FState, unit: Unit, budget: Callable[[Model], int]) -> Reach:
    """Every model's walking reach with its own budget (§6.5 step 2)."""
    blocked = blocked_for(state, unit)
    return {
        m.id: walk(state, m.cell, budget(m), blocked) for m in unit.alive() if m.cell is not None
    }


def leap_reach(state: FState, unit: Unit) -> Reach:
    """Every model's Giant Leap landing cells (§6.27)."""
    blocked = blocked_for(state, unit)
    return {
        m.id: leap(state, m.cell, unit.spec.giant_leap, blocked)
        for m in unit.alive()
        if m.cell is not None
    }


@dataclass(frozen=True, slots=True)
class Goal:
    """What the followers of a formation want (lower score is better)."""

    score: Callable[[Model, Cell], int]
    ideal: Callable[[Model], Cell | None] = lambda model: None
    """The cell with score 0 for a model, if the goal has one (checked first: fast path)."""
    rings: tuple[tuple[tuple[int, int], ...], ...] = ()
    """If the score is the distance from ``ideal``: the offsets from it at each score
    (0, 1, 2 ...), so the best cell is looked for nearest first, not among all."""


def _rings(chebyshev: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Offsets grouped by their steps (`dist`), out to `RING_LIMIT` steps."""
    rings: list[list[tuple[int, int]]] = [[] for _ in range(RING_LIMIT + 1)]
    for dx in range(-RING_LIMIT, RING_LIMIT + 1):
        for dy in range(-RING_LIMIT, RING_LIMIT + 1):
            ax, ay = abs(dx), abs(dy)
            steps = max(ax, ay) if chebyshev else max(ax, ay) + min(ax, ay) // 2
            if steps <= RING_LIMIT:
                rings[steps].append((dx, dy))
    return tuple(tuple(ring) for ring in rings)


RING_LIMIT = 8
"""Steps from a follower's ideal cell searched ring by ring; past them (or once the rings
hold more cells than its reach) its whole reach is scanned instead."""
RINGS = {cheb: _rings(cheb) for cheb in (False, True)}


def keep_shape(state: FState, lead: Model, lead_cell: Cell) -> Goal:
    """Goal: keep each model's place relative to the lead (MOVE, §6.5 step 2)."""
    assert lead.cell is not None
    dx, dy = lead_cell.x - lead.cell.x, lead_cell.y - lead.cell.y

    def ideal(model: Model) -> Cell | None:
        return None if model.cell is None else Cell(model.cell.x + dx, model.cell.y + dy)

    cheb = state.modules.chebyshev

    def score(model: Model, cell: Cell) -> int:  # dist(state, cell, ideal(model)), inlined
        if model.cell is None:
            return 0
        ax, ay = abs(cell.x - model.cell.x - dx), abs(cell.y - model.cell.y - dy)
        return max(ax, ay) if cheb else max(ax, ay) + min(ax, ay) // 2

    return Goal(score, ideal, RINGS[cheb])


def close_on(state: FState, targets: list[Cell]) -> Goal:
    """Goal: close on the target (charge §6.6 step 4.1, draw-in §6.7, pursuit §6.19)."""

    def score(model: Model, cell: Cell) -> int:
        # Steps first; among equal steps the straightest line (squared Euclidean).
        return min(
            (
                1000 * dist(state, cell, t) + (t.x - cell.x) ** 2 + (t.y - cell.y) ** 2
                for t in targets
            ),
            default=0,
        )

    return Goal(score)


def form_up(
    state: FState,
    unit: Unit,
    reach: Reach,
    lead: Model,
    lead_cell: Cell,
    goal: Goal,
    allowed: Callable[[Cell], bool],
) -> dict[str, Cell]:
    """Auto-formation (§6.6 step 4.2, §6.31): the lead takes ``lead_cell``, the rest follow.

    Each follower in list order takes, among the cells it can reach that are allowed,
    free and within 2 steps of a model already placed, the one with the lowest
    (score, cost, y, x); with none it stays where it is (its cell is kept for it).
    """
    return formed(state, unit, reach, lead, lead_cell, goal, allowed)[0]


def formed(
    state: FState,
    unit: Unit,
    reach: Reach,
    lead: Model,
    lead_cell: Cell,
    goal: Goal,
    allowed: Callable[[Cell], bool],
    *,
    scan: bool = False,
) -> tuple[dict[str, Cell], bool]:
    """`form_up`, and whether every follower found a cell near one placed before it (the
    unit is then coherent by construction, with no need to measure it again).

    ``scan``: look through each follower's whole reach, never ring by ring (the tests
    hold the rings to it)."""
    linked = True
    placed: dict[str, Cell] = {lead.id: lead_cell}
    followers = [m for m in unit.alive() if m.id != lead.id]
    reserved = {m.cell for m in followers if m.cell is not None}
    cheb = state.modules.chebyshev

    def coherent(cell: Cell, spots: list[Cell]) -> bool:
        """Within COHERENCY of one of ``spots`` (`dist` inlined: the hottest test here)."""
        x, y = cell
        for px, py in spots:
            ax, ay = abs(x - px), abs(y - py)
            if (max(ax, ay) if cheb else max(ax, ay) + min(ax, ay) // 2) <= COHERENCY:
                return True
        return False

    for model in followers:
        assert model.cell is not None
        reserved.discard(model.cell)
        spots = list(placed.values())
        taken = set(spots) | reserved
        best: tuple[int, int, int, int] | None = None
        choice: Cell | None = None
        cells = reach.get(model.id, {})
        ideal = goal.ideal(model)
        if (
            ideal is not None
            and ideal in cells
            and ideal not in taken
            and allowed(ideal)
            and coherent(ideal, spots)
        ):
            placed[model.id] = ideal  # score 0: nothing can beat it
            continue
        if ideal is not None and goal.rings and not scan:
            found = _nearest(cells, ideal, goal.rings, taken, allowed, spots, coherent)
            if found is not None:
                placed[model.id] = found
                continue
        for cell, cost in cells.items():
            if cell in taken or not allowed(cell):
                continue
            value = goal.score(model, cell)
            if best is not None and value > best[0]:
                continue
            if not coherent(cell, spots):
                continue
            key = (value, cost, cell.y, cell.x)
            if best is None or key < best:
                best, choice = key, cell
        if choice is None:
            linked = False
            choice = _fallback(state, unit, model, taken)
        placed[model.id] = choice
    return placed, linked


def _nearest(
    cells: dict[Cell, int],
    ideal: Cell,
    rings: tuple[tuple[tuple[int, int], ...], ...],
    taken: set[Cell],
    allowed: Callable[[Cell], bool],
    spots: list[Cell],
    coherent: Callable[[Cell, list[Cell]], bool],
) -> Cell | None:
    """The cell the whole scan of `formed` would pick, looked for ring by ring out from
    ``ideal`` (the first ring holding a usable cell holds the lowest score; within it
    the lowest (cost, y, x) wins, as in the scan); None: not within the rings, or the
    rings grew past the reach's size (scan it)."""
    looked, x, y = 0, ideal.x, ideal.y
    for ring in rings:
        best: tuple[int, int, int] | None = None
        for dx, dy in ring:
            # A plain pair hashes and compares as the Cell it names: a Cell is built only
            # for a cell in reach and free (most of a ring's are not).
            pair = (x + dx, y + dy)
            cost = cells.get(pair)  # type: ignore[call-overload]  # pair == Cell(*pair)
            if cost is None or pair in taken:
                continue
            cell = Cell(*pair)
            if not allowed(cell):
                continue
            key = (cost, cell.y, cell.x)
            if (best is None or key < best) and coherent(cell, spots):
                best = key
        if best is not None:
            return Cell(best[2], best[1])
        looked += len(ring)
        if looked >= len(cells):
            return None
    return None


def is_coherent_placement(state: FState, placement: dict[str, Cell]) -> bool:
    """Coherency (§6.31 item 1) of a proposed placement."""
    return is_coherent(list(placement.values()), COHERENCY, lambda a, b: dist(state, a, b))


def place_by_hand(
    state: FState,
    unit: Unit,
    reach: Reach,
    lead: Model,
    lead_cell: Cell,
    allowed: Callable[[Cell], bool],
    what: str,
) -> Procedure[dict[str, Cell]]:
    """Manual placement: the owner places each follower (§6.6 step 4.2; §7 #9-10)."""
    placed: dict[str, Cell] = {lead.id: lead_cell}
    followers = [m for m in unit.alive() if m.id != lead.id]
    reserved = {m.cell for m in followers if m.cell is not None}
    for model in followers:
        assert model.cell is not None
        reserved.discard(model.cell)
        taken = set(placed.values()) | reserved
        cells = sorted(
            (
                c
                for c in reach.get(model.id, {})
                if c not in taken
                and allowed(c)
                and any(dist(state, c, p) <= COHERENCY for p in placed.values())
            ),
            key=lambda c: (c.y, c.x),
        )
        if not cells:
            placed[model.id] = _fallback(state, unit, model, taken)
            continue
        key = yield from pick(
            unit.player,
            DecisionKind.PICK_CELL,
            f"{what}: place {model.name} (within 2 steps of a placed model)",
            [cell_option(c) for c in cells],
            subject=model.id,
        )
        placed[model.id] = parse_cell(key)
        state.moving = dict(placed)
    return placed


def apply_placement(
    state: FState, ctx: RuleContext, unit: Unit, placement: dict[str, Cell], why: str
) -> None:
    """Put the models on their new cells and turn the unit toward its move (§6.5 step 6)."""
    before = unit.cells()
    for model in unit.alive():
        model.cell = placement.get(model.id, model.cell)
    after = unit.cells()
    if before and after:
        old, new = centroid(before), centroid(after)
        facing = facing_of(new.x - old.x, new.y - old.y)
        if facing is not None:
            unit.facing = facing
    ctx.emit(
        "UnitMoved",
        f"{unit.name} {agreeing(unit.name, why)}: "
        + ", ".join(f"{m.id} to {m.cell}" for m in unit.alive()),
        unit=unit.id,
    )


def choose_formation(
    state: FState,
    unit: Unit,
    reach: Reach,
    lead: Model,
    lead_cell: Cell,
    goal: Goal,
    allowed: Callable[[Cell], bool],
    what: str,
) -> Procedure[dict[str, Cell]]:
    """Ask auto-formation or manual placement for a unit of several models (§7 #9-10)."""
    if len(unit.alive()) == 1:
        return {lead.id: lead_cell}
    state.moving = {lead.id: lead_cell}  # the board shows the lead where it goes
    key = yield from pick(
        unit.player,
        DecisionKind.PICK_OPTION,
        f"{what}: how should the rest of {unit.name} follow?",
        [
            Option("auto", "Auto formation"),
            Option("manual", "Place each model"),
        ],
        subject=lead.id,
    )
    if key == "auto":
        placement = form_up(state, unit, reach, lead, lead_cell, goal, allowed)
    else:
        placement = yield from place_by_hand(state, unit, reach, lead, lead_cell, allowed, what)
    state.moving = {}
    return placement


def _fallback(state: FState, unit: Unit, model: Model, taken: set[Cell]) -> Cell:
    """A follower that can go nowhere keeps its cell, or the nearest free one if the lead
    took it (rare: only when the lead ends on a follower's cell)."""
    assert model.cell is not None
    if model.cell not in taken:
        return model.cell
    ring = sorted(
        (c for c in walk(state, model.cell, 6, blocked_for(state, unit)) if c not in taken),
        key=lambda c: (dist(state, c, model.cell or c), c.y, c.x),
    )
    return ring[0] if ring else model.cell
