"""Moving a whole-unit token: the anchors a footprint reaches within a move budget.

A unit moved as one piece (engine.footprints) steps its whole rectangle one cell in
eight directions with the 1-2-1 diagonal rule, around blocked and occupied cells and
paying extra where it climbs. Kept apart from the footprint geometry because it is the
one search every move decision runs, and the module rulesets tune for speed.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Container

from engine.board import Cell
from engine.footprints import Grid

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def token_reach(
    start: Cell,
    size: int,
    budget: int,
    blocked: Grid,
    climb: Grid,
    *,
    occupied: Container[int] = (),
    fly: bool = False,
) -> dict[Cell, int]:
    """Anchors a ``size`` x ``size`` token can move to with at most ``budget`` inches.

    Each step moves the whole footprint one cell in one of 8 directions. Orthogonal steps
    cost 1; diagonal steps cost 1, 2, 1, 2 ... counted over the whole move (Dijkstra over
    anchor and diagonal parity, with a bucket queue since costs are small integers). A
    step costs 1 more when it newly covers a ``climb`` cell. Every position on the way
    must avoid ``blocked`` and the ``occupied`` cells (flat indices of other tokens), and a
    diagonal step needs one of its two orthogonal neighbours clear (no squeezing past
    corners). A flying token may cross anything on the board, pays no climbing, and only
    its end position must avoid ``blocked``. The start is included at cost 0; the caller
    leaves the token's own cells out of ``occupied``.

    The search runs on the window of anchors the budget can reach, as a flat list with a
    border of never-enterable anchors (so no bounds checks in the inner loop).
    """
    cols, rows = blocked.cols, blocked.rows
    if cols < size or rows < size:
        return {}
    k = size - 1
    lo_x, hi_x = max(0, start.x - budget), min(cols - size, start.x + budget)
    lo_y, hi_y = max(0, start.y - budget), min(rows - size, start.y + budget)
    pw, ph = hi_x - lo_x + 3, hi_y - lo_y + 3
    legal = _legal_window(blocked, occupied, k, lo_x, lo_y, pw, ph)
    passable = legal
    if fly:
        passable = [True] * (pw * ph)
        for x in range(pw):
            passable[x] = passable[(ph - 1) * pw + x] = False
        for y in range(ph):
            passable[y * pw] = passable[y * pw + pw - 1] = False
    climbing = not fly and climb.count(lo_x, lo_y, hi_x + k, hi_y + k) > 0
    steep = _footprint_flags(climb, k, lo_x, lo_y, pw, ph) if climbing else []
    orthogonal = [(dy * pw + dx, dx, dy) for dx, dy in _STEPS if not (dx and dy)]
    diagonal = [(dy * pw + dx, dx, dy, dy * pw, dx) for dx, dy in _STEPS if dx and dy]
    never = budget + 1
    best = [never] * (2 * pw * ph)
    origin = 2 * ((start.y - lo_y + 1) * pw + start.x - lo_x + 1)
    best[origin] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 2)]
    buckets[0].append(origin)
    for cost in range(budget + 1):
        for code in buckets[cost]:
            if best[code] != cost:
                continue
            i, parity = code >> 1, code & 1
            # Orthogonal steps cost 1 and keep the parity; diagonals cost 1 + parity.
            total = cost + 1
            if total <= budget:
                for off, dx, dy in orthogonal:
                    j = i + off
                    if not passable[j]:
                        continue
                    t = total
                    if climbing and steep[j] and _climbs_from(climb, i, pw, lo_x, lo_y, dx, dy, k):
                        t += 1
                        if t > budget:
                            continue
                    c2 = 2 * j + parity
                    if best[c2] > t:
                        best[c2] = t
                        buckets[t].append(c2)
            total = cost + 1 + parity
            if total > budget:
                continue
            nparity = parity ^ 1
            for off, dx, dy, o1, o2 in diagonal:
                j = i + off
                if not passable[j]:
                    continue
                if not fly and not (passable[i + o1] or passable[i + o2]):
                    continue
                t = total
                if climbing and steep[j] and _climbs_from(climb, i, pw, lo_x, lo_y, dx, dy, k):
                    t += 1
                    if t > budget:
                        continue
                c2 = 2 * j + nparity
                if best[c2] > t:
                    best[c2] = t
                    buckets[t].append(c2)
    reach: dict[Cell, int] = {}
    for j in range(pw * ph):
        cost = min(best[2 * j], best[2 * j + 1])
        if cost <= budget and (legal[j] or cost == 0):
            reach[Cell(lo_x - 1 + j % pw, lo_y - 1 + j // pw)] = cost
    return reach


def _legal_window(
    blocked: Grid, occupied: Container[int], k: int, lo_x: int, lo_y: int, pw: int, ph: int
) -> list[bool]:
    """Anchor legality over a padded window (border anchors are never legal).

    Built row by row: a cell is bad if blocked or occupied, and an anchor is legal if
    none of the (k+1) x (k+1) cells of its footprint is bad.
    """
    cols, flags = blocked.cols, blocked.flags
    width = pw - 2 + k
    bad_rows = []
    for y in range(lo_y, lo_y + ph - 2 + k):
        base = y * cols + lo_x
        bad_rows.append([bool(flags[i]) or i in occupied for i in range(base, base + width)])
    legal = [False] * (pw * ph)
    for wy in range(ph - 2):
        rows = bad_rows[wy : wy + k + 1]
        column_bad = [any(col) for col in zip(*rows, strict=True)] if k else rows[0]
        start = (wy + 1) * pw + 1
        for wx in range(pw - 2):
            if not any(column_bad[wx : wx + k + 1]):
                legal[start + wx] = True
    return legal


def _footprint_flags(grid: Grid, k: int, lo_x: int, lo_y: int, pw: int, ph: int) -> list[bool]:
    """Per anchor of a padded window: its footprint covers a flagged cell of ``grid``."""
    out = [False] * (pw * ph)
    for wy in range(1, ph - 1):
        y = lo_y + wy - 1
        for wx in range(1, pw - 1):
            x = lo_x + wx - 1
            out[wy * pw + wx] = grid.count(x, y, x + k, y + k) > 0
    return out


def _climbs_from(
    climb: Grid, i: int, pw: int, lo_x: int, lo_y: int, dx: int, dy: int, k: int
) -> bool:
    """`_climbs` for a step from window anchor ``i`` by (dx, dy)."""
    x, y = lo_x - 1 + i % pw, lo_y - 1 + i // pw
    return _climbs(climb, x, y, x + dx, y + dy, k)


def _climbs(climb: Grid, x: int, y: int, ax: int, ay: int, k: int) -> bool:
    """True if the footprint at (ax, ay) covers a climb cell the one at (x, y) did not.

    Two prefix-sum counts: the new footprint's climb cells, less those of its overlap
    with the old one (a step of one cell always leaves an overlap, possibly empty)."""
    new = climb.count(ax, ay, ax + k, ay + k)
    if not new:
        return False
    both = climb.count(max(x, ax), max(y, ay), min(x, ax) + k, min(y, ay) + k)
    return new > both
