"""Where a model may move: blocked cells, reach, the 1" rule, dangerous crossings (wh40k6).

Digest §6.1 and §11.1: paths step between the 8 neighbours with the 1-2-1 diagonal rule
(`engine.token_reach.token_reach`, which also moves 2x2 and 3x3 footprints). A path may
not enter impassable terrain or other models, nor come within 1" of an enemy (outside
charges and pile-ins); jump, jet pack, jetbike, skimmer and flyer models pass over
models and terrain and only their end cell must be legal. Models of the moving unit do
not block each other's paths (PROPOSED: they move together), but never share an end.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.board import Cell
from engine.footprints import Grid, Rect, rect_distance, square
from engine.rulesets.wh40k6.geometry import (
    enemies_of,
    is_dangerous_for,
    is_difficult,
    terrain_cells,
)
from engine.rulesets.wh40k6.profiles import UnitType
from engine.rulesets.wh40k6.state import Model, State
from engine.token_reach import token_reach

FLYING_TYPES = (UnitType.JUMP, UnitType.JET_PACK, UnitType.JETBIKE, UnitType.ADV_JETBIKE)


def can_fly(model: Model, packs: bool = True) -> bool:
    """Passes over models and terrain (§6.1 item 2)."""
    p = model.profile
    if p.unit_type in (UnitType.JUMP, UnitType.JET_PACK):
        return packs
    if p.unit_type in (UnitType.JETBIKE, UnitType.ADV_JETBIKE, UnitType.FLYING_MC):
        return True
    return p.is_vehicle and bool(p.vehicle_types & {"skimmer", "flyer"})


def _empty(state: State) -> Grid:
    cached = state.cache.get("empty")
    if cached is None:
        cached = Grid.from_cells(state.width, state.height, ())
        state.cache["empty"] = cached
    assert isinstance(cached, Grid)
    return cached


class Field:
    """Blocked cells for one move (paths) and for its ends, built once per activation."""

    def __init__(
        self,
        state: State,
        player: int,
        movers: Iterable[str],
        *,
        spare: Iterable[str] = (),
        pass_spared: bool = False,
        avoid: Iterable[Cell] = (),
        halo: bool = True,
    ) -> None:
        """``movers``: ids of the moving unit's models; ``spare``: enemy unit ids whose
        1" zone is waived (charge targets, the combat one falls back from); with
        ``pass_spared`` the path may even cross their models. ``avoid``: more cells the
        path may not enter (difficult terrain the player chose to avoid)."""
        self.state = state
        self.avoiding: dict[str, Grid] = {}
        moving = set(movers)
        spared = set(spare)
        others: list[Rect] = []
        walkable: list[Rect] = []
        near: list[Rect] = []
        for m in state.table_models():
            if m.id in moving:
                continue
            rect = m.rect
            others.append(rect)
            if m.profile.is_flyer:
                continue  # zooming flyers block neither paths nor the 1" rule (flyers.py)
            if m.player != player and m.unit in spared and pass_spared:
                continue
            walkable.append(rect)
            if halo and m.player != player and m.unit not in spared:
                near.append(_ring(rect))
        impassable = terrain_cells(state, "impassable")
        self._path_parts = ([*walkable, *near], [*impassable, *avoid])
        self._end_parts = ([*others, *near], impassable)
        self._player = player
        self._path: Grid | None = None
        self._end: Grid | None = None
        self._near: Grid | None = None

    @property
    def path(self) -> Grid:
        """Cells a walking path may not enter."""
        if self._path is None:
            rects, cells = self._path_parts
            self._path = Grid.from_rects(self.state.width, self.state.height, rects, cells)
        return self._path

    @property
    def end(self) -> Grid:
        """Cells no footprint may end on."""
        if self._end is None:
            rects, cells = self._end_parts
            self._end = Grid.from_rects(self.state.width, self.state.height, rects, cells)
        return self._end

    @property
    def enemy_near(self) -> Grid:
        """Cells within 1" of any enemy model (spared or not)."""
        if self._near is None:
            rings = [_ring(e.rect) for e in enemies_of(self.state, self._player)]
            self._near = Grid.from_rects(self.state.width, self.state.height, rings)
        return self._near

    def reach(self, model: Model, start: Cell, budget: int, fly: bool) -> dict[Cell, int]:
        """Anchors the model can end on with ``budget`` inches, with their cost."""
        if budget <= 0:
            return {start: 0}
        blocked = self.end if fly else self.path
        size = model.profile.size
        empty = _empty(self.state)
        return token_reach(start, size, budget, blocked, empty, fly=fly, stop=self.end)


def _ring(rect: Rect) -> Rect:
    """The footprint and every cell within 1" of it (past the table's edge too)."""
    return Rect(rect.x0 - 1, rect.y0 - 1, rect.x1 + 1, rect.y1 + 1)


def difficult_cells(state: State) -> list[Cell]:
    return terrain_cells(state, "difficult")


def difficult_within(state: State, rect: Rect, inches: int) -> bool:
    """Some difficult terrain cell lies within ``inches`` of ``rect``.

    A prefix-sum count over the square ``inches`` around ``rect`` settles most asks at
    once (nothing there: nothing nearer); only then are that square's cells measured."""
    key = "grid:difficult"
    found = state.cache.get(key)
    if found is None:
        found = Grid.from_cells(state.width, state.height, difficult_cells(state))
        state.cache[key] = found
    assert isinstance(found, Grid)
    box = Rect(rect.x0 - inches, rect.y0 - inches, rect.x1 + inches, rect.y1 + inches)
    if not found.any_in(box):
        return False
    return any(
        rect_distance(rect, square(c, 1)) <= inches
        for c in difficult_cells(state)
        if box.x0 <= c.x <= box.x1 and box.y0 <= c.y <= box.y1
    )


def touches(state: State, model: Model, anchor: Cell, test: str) -> bool:
    """True if the footprint at ``anchor`` stands in difficult (or dangerous) terrain."""
    for c in square(anchor, model.profile.size).cells():
        if test == "difficult" and is_difficult(state, c):
            return True
        if test == "dangerous" and is_dangerous_for(state, c, model):
            return True
    return False


def crossed(
    state: State, f: Field, model: Model, start: Cell, end: Cell, budget: int, test: str, fly: bool
) -> bool:
    """Did the move from ``start`` to ``end`` go through such terrain (§6.3 PROPOSED)?

    It did if it starts or ends there, or if the end cannot be reached within the budget
    by a path that avoids every such cell. Flying models only count start and end.
    """
    if start == end:
        return False
    if touches(state, model, start, test) or touches(state, model, end, test):
        return True
    if fly:
        return False
    cells = terrain_cells(state, "difficult" if test == "difficult" else "dangerous")
    if test == "dangerous":
        cells = [c for c in cells if is_dangerous_for(state, c, model)]
    size = model.profile.size
    box = Rect(start.x - budget, start.y - budget, start.x + size + budget, start.y + size + budget)
    if not any(box.x0 <= c.x <= box.x1 and box.y0 <= c.y <= box.y1 for c in cells):
        return False
    key = f"{test}:{model.profile.unit_type.value}"
    avoid = f.avoiding.get(key)
    if avoid is None:
        avoid = _with_cells(f.path, cells)
        f.avoiding[key] = avoid
    found = token_reach(start, size, budget, avoid, _empty(state))
    return end not in found


def _with_cells(g: Grid, cells: list[Cell]) -> Grid:
    """``g`` with ``cells`` (those on the board) flagged too, its flags copied in C."""
    cols, rows = g.cols, g.rows
    flags = bytearray(g.flags)
    for x, y in cells:
        if 0 <= x < cols and 0 <= y < rows:
            flags[y * cols + x] = 1
    return Grid(cols, rows, flags)
