"""Movement on the board's grid: the cells a model reaches within a budget of inches, and
the cheapest cost to any of some goals (killteam §11.3: 1-2-1 diagonals, climbs, drops).

`GridPaths` is one of `engine.board.Board`'s bases: the board holds the terrain and the
cached tables these searches read. Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.board import Cell


@dataclass(frozen=True, slots=True)
class Reach:
    """How a cell can be reached by a move."""

    cost: int
    """Inches of movement spent."""
    drop: int = 0
    """Height of the largest jump down on the way that needs a falling check (0: none)."""


class GridPaths:
    """Searches over a `Board`'s cells (its steps between cells are worked out once)."""

    width: int
    height: int
    _reached: dict[Hashable, dict[Cell, Reach]]
    _blocking: list[bool]
    _zs: list[int]
    _cell_list: list[Cell]
    _links_walk: list[tuple[tuple[int, int, int, int], ...]] | None
    _links_fly: list[tuple[tuple[int, int, int, int], ...]] | None
    _unasked_walk: tuple[bool | None, ...]
    _unasked_fly: tuple[bool | None, ...]
    _has_drops: bool | None

    if TYPE_CHECKING:

        def __contains__(self, cell: object) -> bool: ...

    def reachable(
        self,
        start: Cell,
        budget: int,
        *,
        can_enter: Callable[[Cell], bool],
        fly: bool = False,
        extra_cost: Callable[[Cell], int] | None = None,
        climb_down: bool = False,
        key: Hashable = None,
    ) -> dict[Cell, Reach]:
        """Cells a model can move to from ``start`` spending at most ``budget`` inches.

        Steps go to the 8 neighbours; orthogonal steps cost 1 and diagonal steps cost
        1, 2, 1, 2 ... along the path (killteam §11.3), found by Dijkstra over
        (cell, diagonal parity). Climbing more than 1" costs the height; dropping more
        than 1" is a free jump, with a falling check above 6" (or a climb of the same
        cost, whichever the caller prefers: both are returned as the cheapest `Reach`).
        No corner cutting past BLOCKING cells, no entering walls or impassable ground.
        ``can_enter`` says which other cells the path may use (the caller decides about
        models and enemies); the start is always included at cost 0. FLY models ignore
        heights, may cross anything ``can_enter`` allows and cut corners. With
        ``climb_down`` every drop of more than 6" is climbed (costing its height) instead
        of jumped, so no `Reach` needs a falling check.

        ``key``: the caller vouches that ``can_enter`` (and ``extra_cost``) answer as a
        pure function of it on this board, so the answer is kept and given again while
        nothing moved (a charge's odds, then its roll; each option of a decision). Any
        search is the same with or without it.
        """
        if key is None:
            return self._reachable(start, budget, can_enter, fly, extra_cost, climb_down)
        memo = (start, budget, fly, climb_down, key)
        known = self._reached.pop(memo, None)  # put back last: most recent last
        if known is None:
            known = self._reachable(start, budget, can_enter, fly, extra_cost, climb_down)
        self._reached[memo] = known
        if len(self._reached) > _REACH_KEPT:
            self._reached.pop(next(iter(self._reached)), None)
        return dict(known)

    def cheapest(
        self,
        start: Cell,
        budget: int,
        goals: Collection[Cell],
        *,
        can_enter: Callable[[Cell], bool],
        fly: bool = False,
    ) -> int | None:
        """The least cost `reachable` gives any of ``goals`` (None: none is reached),
        searching no further than it takes.

        The search stops when it first takes a goal off the queue at a cost reached
        without a jump down (no drop): every other goal then costs as much or more, and
        `reachable` prefers no drop. A first goal reached by a jump leaves it in doubt
        (a dearer path without one wins): the search then runs to the end."""
        w = self.width
        wanted = frozenset(c.y * w + c.x for c in goals if c in self)
        if not wanted:
            return None
        if fly or not self._drops():
            return self._nearest(start, budget, can_enter, fly, wanted)
        reach = self._reachable(start, budget, can_enter, fly, None, False, wanted)
        return min((r.cost for c, r in reach.items() if c.y * w + c.x in wanted), default=None)

    def _drops(self) -> bool:
        """Some step on foot jumps down more than 6" (a search must then weigh drops)."""
        if self._has_drops is None:
            links = self._links_walk if self._links_walk is not None else self._links(False)
            self._has_drops = any(down for out in links for _n, _d, _u, down in out)
        return self._has_drops

    def _nearest(
        self,
        start: Cell,
        budget: int,
        can_enter: Callable[[Cell], bool],
        fly: bool,
        goals: frozenset[int],
    ) -> int | None:
        """`cheapest` where no step jumps down: the states and steps of `_reachable`,
        searched towards the goals (A*), so a charge's search walks a lane to its targets,
        not the whole 13" around the charger.

        Each state's estimate is what reaching the goals' bounding box would cost on an
        open, flat board from that state (diagonal parity included): never more than the
        true cost (walls, corners and climbs only add), and consistent (one step changes
        it by at most the step's cost), so the first goal taken off the queue is reached
        at the least cost, the one `_reachable`'s search stops at."""
        w, cells = self.width, self._cell_list
        links = self._links_fly if fly else self._links_walk
        if links is None:
            links = self._links(fly)
        allowed: list[bool | None] = list(self._unasked_fly if fly else self._unasked_walk)
        gx0 = gx1 = gy0 = gy1 = -1
        for i in goals:
            x, y = i % w, i // w
            if gx0 < 0:
                gx0, gx1, gy0, gy1 = x, x, y, y
            else:
                gx0, gx1, gy0, gy1 = min(gx0, x), max(gx1, x), min(gy0, y), max(gy1, y)
        never = budget + 1
        size = len(allowed)
        cost_of = [never] * (4 * size)
        guess_of = [0] * (4 * size)
        buckets: list[list[int]] = [[] for _ in range(budget + 1)]
        x, y = start
        dx = gx0 - x if x < gx0 else (x - gx1 if x > gx1 else 0)
        dy = gy0 - y if y < gy0 else (y - gy1 if y > gy1 else 0)
        guess = dx + dy // 2 if dx >= dy else dy + dx // 2
        if guess > budget:
            return None
        origin = 4 * (y * w + x)
        cost_of[origin], guess_of[origin] = 0, guess
        buckets[guess].append(origin)
        for bound in range(guess, budget + 1):
            for state in buckets[bound]:
                cost = cost_of[state]
                if cost + guess_of[state] != bound:
                    continue  # reached more cheaply since it was queued
                idx, parity = state >> 2, state & 2
                if idx in goals:
                    return cost
                for nidx, diagonal, up, _down in links[idx]:
                    ok = allowed[nidx]
                    if ok is None:
                        ok = allowed[nidx] = can_enter(cells[nidx])
                    if not ok:
                        continue
                    if diagonal and parity:
                        total, npar = cost + 2 + up, 0
                    else:
                        total, npar = cost + 1 + up, parity ^ diagonal
                    nstate = 4 * nidx + npar
                    if cost_of[nstate] <= total:
                        continue
                    x, y = nidx % w, nidx // w
                    dx = gx0 - x if x < gx0 else (x - gx1 if x > gx1 else 0)
                    dy = gy0 - y if y < gy0 else (y - gy1 if y > gy1 else 0)
                    if dx >= dy:
                        guess = dx + (dy + (npar >> 1)) // 2
                    else:
                        guess = dy + (dx + (npar >> 1)) // 2
                    if total + guess > budget:
                        continue
                    cost_of[nstate], guess_of[nstate] = total, guess
                    buckets[total + guess].append(nstate)
        return None

    def _reachable(
        self,
        start: Cell,
        budget: int,
        can_enter: Callable[[Cell], bool],
        fly: bool,
        extra_cost: Callable[[Cell], int] | None,
        climb_down: bool,
        goals: frozenset[int] = frozenset(),
    ) -> dict[Cell, Reach]:
        w, cells = self.width, self._cell_list
        links = self._links_fly if fly else self._links_walk
        if links is None:
            links = self._links(fly)
        # None: not asked yet; on foot walls and impassable ground are refused at once.
        allowed: list[bool | None] = list(self._unasked_fly if fly else self._unasked_walk)
        # State = cell index * 4 + diagonal parity * 2 + jumped; a bucket queue suffices
        # because every step costs a whole number of inches >= 1.
        never = budget + 1
        size = len(allowed)
        cost_of = [never] * (4 * size)
        drop_of = [0] * (4 * size)
        origin = start.y * w + start.x
        cost_of[origin * 4] = 0
        buckets: list[list[int]] = [[] for _ in range(budget + 1)]
        buckets[0].append(origin * 4)
        # The best (drop, cost) each cell was reached at, and the cells in the order first
        # reached (the answer's order).
        best_cost = [never] * size
        best_drop: list[int | None] = [None] * size
        best_cost[origin], best_drop[origin] = 0, 0
        order = [origin]
        doubt = False  # a goal (`cheapest`) came off the queue after a jump down
        for cost in range(budget + 1):
            for state in buckets[cost]:
                if cost_of[state] != cost:
                    continue
                idx, parity, jumped = state >> 2, state & 2, state & 1
                drop = drop_of[state]
                if goals and idx in goals and not doubt:
                    if not drop:
                        return {cells[idx]: _reach(cost, 0)}
                    doubt = True
                for nidx, diagonal, up, down in links[idx]:
                    ok = allowed[nidx]
                    if ok is None:
                        ok = allowed[nidx] = can_enter(cells[nidx])
                    if not ok:
                        continue
                    if diagonal and parity:
                        total, npar = cost + 2, 0
                    else:
                        total, npar = cost + 1, parity ^ diagonal
                    if extra_cost is not None:
                        total += extra_cost(cells[nidx])
                    ndrop, njump = drop, jumped
                    if up:
                        total += up
                    elif down:
                        if climb_down:
                            total += down
                        else:
                            ndrop, njump = (down if down > drop else drop), 1
                    if total > budget:
                        continue
                    nstate = 4 * nidx + npar + njump
                    if cost_of[nstate] <= total:
                        continue
                    cost_of[nstate] = total
                    drop_of[nstate] = ndrop
                    buckets[total].append(nstate)
                    old = best_drop[nidx]
                    if old is None:
                        order.append(nidx)
                        best_cost[nidx], best_drop[nidx] = total, ndrop
                    elif ndrop < old or (ndrop == old and total < best_cost[nidx]):
                        best_cost[nidx], best_drop[nidx] = total, ndrop
        return {cells[i]: _reach(best_cost[i], best_drop[i]) for i in order}

    def _links(self, fly: bool) -> list[tuple[tuple[int, int, int, int], ...]]:
        """Per cell index: the neighbours a step may go to (walls never move), each with
        whether the step is diagonal (2, the parity bit of a search's state, or 0) and,
        on foot, the inches a climb adds (``up``: a rise of more than 1") or the height of
        a drop of more than 6" (``down``: a jump, or a climb down). On foot a diagonal may
        not cut a wall's corner."""
        w, h, blocking, zs = self.width, self.height, self._blocking, self._zs
        links: list[tuple[tuple[int, int, int, int], ...]] = []
        for idx in range(w * h):
            x, y = idx % w, idx // w
            out = []
            for dx, dy in _STEPS:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h):
                    continue
                if dx and dy and not fly and (blocking[y * w + nx] or blocking[ny * w + x]):
                    continue
                nidx = ny * w + nx
                dz = 0 if fly else zs[nidx] - zs[idx]
                up, down = (dz if dz > 1 else 0), (-dz if dz < -6 else 0)
                out.append((nidx, 2 if dx and dy else 0, up, down))
            links.append(tuple(out))
        if fly:
            self._links_fly = links
        else:
            self._links_walk = links
        return links


_REACH_KEPT = 64
"""`Board.reachable` answers kept per board (a move's and a charge's few searches)."""


@lru_cache(maxsize=4096)
def _reach(cost: int, drop: int) -> Reach:
    """Reaches are immutable: one per (cost, drop) serves every search."""
    return Reach(cost, drop)


_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
