"""Distances, footprints, line of sight and cover on the grid (digest wh40k6 §11).

Models stand on square footprints (`engine.footprints`): 1 cell for infantry, 2x2 for
walkers and monstrous creatures, 3x3 for tanks (§11.7). Distances are between the
nearest cells (§11.1). Sight lines run centre to centre and are blocked by walls, rocks,
fortifications and by vehicles and monstrous creatures other than the two ends (§11.3);
a line that only touches a corner is not blocked (PROPOSED: the digest's "supercover"
would let a corner block diagonal sight between two walls). Cover follows §11.4.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import Cell
from engine.footprints import Grid, Rect, halo, rect_distance, square
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.profiles import UnitType
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.sight_lines import clear_lines, rectangles, segment_crosses


def gap(a: Model, b: Model) -> int:
    """Inches between the nearest cells of two models on the table (§11.1).

    `rect_distance` of their footprints, without building them (the hottest measure)."""
    ca, cb = a.cell, b.cell
    if ca is None or cb is None:
        return rect_distance(a.rect, b.rect)  # refuses a model off the table
    ax, ay = ca
    bx, by = cb
    sa, sb = a.profile.size - 1, b.profile.size - 1
    gx, other = bx - ax - sa, ax - bx - sb  # max(0, ...) by comparisons: no calls
    if other > gx:
        gx = other
    if gx < 0:
        gx = 0
    gy, other = by - ay - sa, ay - by - sb
    if other > gy:
        gy = other
    if gy < 0:
        gy = 0
    return gx + gy // 2 if gx >= gy else gy + gx // 2


def bounds(models: Iterable[Model]) -> Rect | None:
    """The rectangle around the footprints of ``models`` (all on the table), or None
    where there is none or one is off the table."""
    x0 = y0 = 1 << 30
    x1 = y1 = -1
    for m in models:
        cell = m.cell
        if cell is None:
            return None
        x, y = cell
        k = m.profile.size - 1
        if x < x0:
            x0 = x
        if y < y0:
            y0 = y
        if x + k > x1:
            x1 = x + k
        if y + k > y1:
            y1 = y + k
    return None if x1 < 0 else Rect(x0, y0, x1, y1)


def bounds_apart(a: Rect | None, b: Rect | None, inches: int) -> bool:
    """Every model inside ``a`` is more than ``inches`` from every model inside ``b``
    (False where either is None: not known). The gap of two rectangles is no more than
    that of any two footprints inside them (`gap` only grows with each axis's gap), so
    one measure settles a pair of units that are far apart, the many pairs of their
    models unmeasured."""
    return a is not None and b is not None and rect_distance(a, b) > inches


def gap_to_cell(a: Model, cell: Cell) -> int:
    return rect_distance(a.rect, Rect(cell.x, cell.y, cell.x, cell.y))


def unit_gap(state: State, a: Unit, b: Unit) -> int | None:
    """Inches between the nearest models of two units, None if either is off the table."""
    best: int | None = None
    for m in state.on_table(a):
        for n in state.on_table(b):
            d = gap(m, n)
            if best is None or d < best:
                best = d
    return best


def footprint(model: Model, anchor: Cell | None = None) -> Rect:
    """The model's footprint, at ``anchor`` if given."""
    cell = anchor if anchor is not None else model.cell
    assert cell is not None
    return square(cell, model.profile.size)


def cells_of(rect: Rect) -> list[Cell]:
    return list(rect.cells())


def occupied(state: State, skip: Iterable[str] = ()) -> dict[Cell, Model]:
    """Cell -> model for every model on the table, except the ids in ``skip``."""
    skipped = set(skip)
    out: dict[Cell, Model] = {}
    for m in state.table_models():
        if m.id not in skipped:
            for c in m.rect.cells():
                out[c] = m
    return out


def enemies_of(state: State, player: int) -> list[Model]:
    return [m for m in state.table_models() if m.player != player]


def enemy_halo(state: State, player: int, spare: Iterable[str] = ()) -> Grid:
    """Cells within 1" of an enemy model (the 1" rule, §6.1 item 3), sparing some units."""
    spared = set(spare)
    rects = [m.rect for m in enemies_of(state, player) if m.unit not in spared]
    return halo(state.width, state.height, rects, 1)


def grid(state: State, cells: Iterable[Cell]) -> Grid:
    return Grid.from_cells(state.width, state.height, cells)


def terrain_cells(state: State, test: str) -> list[Cell]:
    """Cells whose feature has the property ``test`` (impassable, difficult, ...)."""
    key = f"cells:{test}"
    cached = state.cache.get(key)
    if cached is None:
        cached = [c for c, k in state.terrain.items() if _has(t.FEATURES[k], test)]
        state.cache[key] = cached
    return list(cached)


def _has(f: t.Feature, test: str) -> bool:
    if test == "impassable":
        return f.impassable
    if test == "difficult":
        return f.difficult or bool(f.dangerous)
    if test == "dangerous":
        return bool(f.dangerous)
    if test == "sight":
        return f.blocks_sight
    raise ValueError(test)


def is_difficult(state: State, cell: Cell) -> bool:
    f = state.feature(cell)
    return f.difficult or bool(f.dangerous)


def is_dangerous_for(state: State, cell: Cell, model: Model) -> bool:
    """Dangerous terrain for this model: wrecks for all, razor wire for Infantry (§4.5)."""
    f = state.feature(cell)
    if f.dangerous == "all":
        return True
    return f.dangerous == "infantry" and model.profile.unit_type is UnitType.INFANTRY


def wall_rects(state: State) -> list[Rect]:
    """Rectangles of terrain that blocks sight (cached until the terrain changes)."""
    cached = state.cache.get("walls")
    if cached is None:
        cached = rectangles(terrain_cells(state, "sight"))
        state.cache["walls"] = cached
    return list(cached)


def cover_rects(state: State) -> list[tuple[Rect, int]]:
    """Rectangles of cover-giving terrain that does not block sight, with their save."""
    cached = state.cache.get("cover")
    if cached is None:
        by_save: dict[int, list[Cell]] = {}
        for c, k in state.terrain.items():
            f = t.FEATURES[k]
            if f.cover is not None and not f.blocks_sight:
                by_save.setdefault(f.cover, []).append(c)
        cached = [(r, save) for save, cells in sorted(by_save.items()) for r in rectangles(cells)]
        state.cache["cover"] = cached
    return list(cached)


class Sight:
    """Line of sight and cover while nothing moves (one target selection or volley)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.walls = wall_rects(state)
        self.big = [
            (m.id, m.rect)
            for m in state.table_models()
            if m.profile.blocks_sight and not m.profile.is_flyer
        ]
        self._seen: dict[tuple[str, str], tuple[Cell, Cell] | None] = {}

    def line(self, a: Model, b: Model) -> tuple[Cell, Cell] | None:
        """A clear centre-to-centre line from a cell of ``a`` to one of ``b`` (§11.3)."""
        swap = a.id > b.id
        key = (b.id, a.id) if swap else (a.id, b.id)
        if key not in self._seen:
            first, second = (b, a) if swap else (a, b)
            walls = self.walls + [r for mid, r in self.big if mid not in key]
            lines = clear_lines(first.rect, second.rect, walls)
            self._seen[key] = lines[0] if lines else None
        found = self._seen[key]
        if found is None:
            return None
        return (found[1], found[0]) if swap else found

    def sees_rect(self, a: Model, rect: Rect) -> bool:
        """True if some clear line joins ``a`` to a cell of ``rect`` (placement checks)."""
        walls = self.walls + [r for mid, r in self.big if mid != a.id]
        return bool(clear_lines(a.rect, rect, walls))

    def sees(self, a: Model, b: Model) -> bool:
        return self.line(a, b) is not None

    def cover(self, target: Model, firer: Model) -> int | None:
        """The target's cover save against this firer (§11.4), None for none."""
        best: int | None = None
        if not target.is_vehicle:
            for c in target.rect.cells():
                best = _better(best, self.state.feature(c).cover)
        line = self.line(firer, target)
        if line is None:
            return best
        (px, py), (qx, qy) = ((2 * c.x + 1, 2 * c.y + 1) for c in line)
        for rect, save in cover_rects(self.state):
            if segment_crosses(px, py, qx, qy, rect):
                best = _better(best, save)
        skip = {firer.unit, target.unit}
        for m in self.state.table_models():
            if m.unit not in skip and segment_crosses(px, py, qx, qy, m.rect):
                best = _better(best, t.MODEL_COVER)
        return best


def _better(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def edge_distance(state: State, cell: Cell, edge: str) -> int:
    """Cells from ``cell`` to the outermost row or column of a table edge."""
    return {
        "south": cell.y,
        "north": state.height - 1 - cell.y,
        "west": cell.x,
        "east": state.width - 1 - cell.x,
    }[edge]


def rect_edge_distance(state: State, rect: Rect, edge: str) -> int:
    return min(edge_distance(state, c, edge) for c in (rect.anchor, Cell(rect.x1, rect.y1)))


def on_edge(state: State, cell: Cell, edge: str) -> bool:
    return edge_distance(state, cell, edge) == 0


def nearest_edge_margin(state: State, cell: Cell) -> int:
    """min(x, y, W-1-x, H-1-y): "not within 6" of an edge" means >= 6 (§11.2 note)."""
    return min(cell.x, cell.y, state.width - 1 - cell.x, state.height - 1 - cell.y)


def within_zone(rect: Rect, zone: frozenset[Cell]) -> bool:
    """Wholly within: every cell of the footprint is in the zone (§11.1)."""
    if rect.x0 == rect.x1 and rect.y0 == rect.y1:
        return rect.anchor in zone
    return all(c in zone for c in rect.cells())
