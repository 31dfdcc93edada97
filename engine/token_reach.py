"""Moving a whole-unit token: the anchors a footprint reaches within a move budget.

A unit moved as one piece (engine.footprints) steps its whole rectangle one cell in
eight directions with the 1-2-1 diagonal rule, around blocked and occupied cells and
paying extra where it climbs. Kept apart from the footprint geometry because it is the
one search every move decision runs, and the module rulesets tune for speed.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Container
from functools import cache

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
    stop: Grid | None = None,
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
    leaves the token's own cells out of ``occupied``. With ``stop`` the token may only
    end where its footprint avoids that grid too (a path may pass where it may not stop).

    The search runs on the window of anchors the budget can reach, with a border of
    never-enterable anchors (so no bounds checks): as the bits of one integer where no
    step climbs (`_spread`), as a flat list otherwise.
    """
    cols, rows = blocked.cols, blocked.rows
    if cols < size or rows < size:
        return {}
    k = size - 1
    lo_x, hi_x = max(0, start.x - budget), min(cols - size, start.x + budget)
    lo_y, hi_y = max(0, start.y - budget), min(rows - size, start.y + budget)
    pw, ph = hi_x - lo_x + 3, hi_y - lo_y + 3
    origin = (start.y - lo_y + 1) * pw + start.x - lo_x + 1
    climbing = not fly and climb.count(lo_x, lo_y, hi_x + k, hi_y + k) > 0
    if climbing or occupied:
        legal = _legal_window(blocked, occupied, k, lo_x, lo_y, pw, ph)
        if climbing:
            cost_of = _spread_climbing(legal, origin, budget, pw, climb, lo_x, lo_y, k)
        else:
            passable = _inside(pw, ph) if fly else _bits(legal)
            cost_of = _spread(passable, origin, budget, pw)
        if stop is not None:
            legal = _legal_window(stop, occupied, k, lo_x, lo_y, pw, ph)
        ends = _bits(legal)
    else:
        ends = _window_bits(blocked, k, lo_x, lo_y, pw, ph)
        cost_of = _spread(_inside(pw, ph) if fly else ends, origin, budget, pw)
        if stop is not None:
            ends = _window_bits(stop, k, lo_x, lo_y, pw, ph)
    cells = _cells(cols, rows)
    reach: dict[Cell, int] = {}
    corner = (lo_y - 1) * cols + lo_x - 1
    for j in sorted(cost_of):
        if ends >> j & 1 or j == origin:
            wy = j // pw
            reach[cells[corner + wy * cols + j - wy * pw]] = cost_of[j]
    return reach


@cache
def _cells(cols: int, rows: int) -> list[Cell]:
    """Every cell of a board, row by row (index ``y * cols + x``): made once."""
    return [Cell(x, y) for y in range(rows) for x in range(cols)]


@cache
def _inside(pw: int, ph: int) -> int:
    """Every anchor of a window but its border, as bits."""
    row = ((1 << (pw - 2)) - 1) << 1
    return sum(row << (y * pw) for y in range(1, ph - 1))


_FREE = bytes([49]) + bytes([48]) * 255
"""Translates a cell's flag to "1" where it is clear (0), "0" where it is flagged."""


def _window_bits(grid: Grid, k: int, lo_x: int, lo_y: int, pw: int, ph: int) -> int:
    """`_legal_window` as bits, with no occupied cells: one integer per board row of the
    window, and an anchor is legal where the rows and columns of its footprint are all
    clear (an AND of k+1 rows, then of the row shifted by 0..k)."""
    flags, cols = grid.flags, grid.cols
    width = pw - 2 + k
    clear = [
        int(bytes(flags[base : base + width][::-1]).translate(_FREE), 2)
        for base in range(lo_y * cols + lo_x, (lo_y + ph - 2 + k) * cols + lo_x, cols)
    ]
    anchors = (1 << (pw - 2)) - 1
    out = 0
    for wy in range(ph - 2):
        bits = clear[wy]
        for dy in range(1, k + 1):
            bits &= clear[wy + dy]
        row = bits
        for dx in range(1, k + 1):
            row &= bits >> dx
        out |= (row & anchors) << ((wy + 1) * pw + 1)
    return out


_BINARY = bytes.maketrans(b"\x00\x01", b"01")


def _bits(flags: list[bool]) -> int:
    """The flags as the bits of one integer (flag ``j`` is bit ``j``)."""
    return int(bytes(flags[::-1]).translate(_BINARY) or b"0", 2)


def _spread(passable: int, origin: int, budget: int, pw: int) -> dict[int, int]:
    """The search of `token_reach` where no step climbs, on whole rows at once: the
    window's anchors are the bits of an integer (anchor ``j`` is bit ``j``, rows ``pw``
    apart), so a step in one direction is one shift of every anchor reached so far.

    Returns the cheapest cost of every anchor reached within the budget. A state is an
    anchor and the parity of the diagonals taken to it: orthogonal steps cost 1 and keep
    the parity, diagonals cost 1 + parity, flip it, and need one of their two orthogonal
    neighbours passable (reached through either). Costs are settled in increasing order
    (every step costs at least 1), as a bucket queue would. The window's border is never
    passable, so no shift wraps from one row's edge into the next."""
    seen = [0, 0]
    pending = [[0, 0] for _ in range(budget + 3)]
    pending[0][0] = 1 << origin
    cost_of: dict[int, int] = {}
    done = 0
    for cost in range(budget + 1):
        level = 0
        for parity in (0, 1):
            front = pending[cost][parity] & ~seen[parity]
            if not front:
                continue
            seen[parity] |= front
            level |= front
            across = ((front << 1) | (front >> 1)) & passable
            along = ((front << pw) | (front >> pw)) & passable
            pending[cost + 1][parity] |= across | along
            diagonal = (across << pw) | (across >> pw) | (along << 1) | (along >> 1)
            pending[cost + 1 + parity][1 - parity] |= diagonal & passable
        level &= ~done
        done |= level
        text = bin(level)[:1:-1]
        at = text.find("1")
        while at >= 0:
            cost_of[at] = cost
            at = text.find("1", at + 1)
    return cost_of


def _spread_climbing(
    passable: list[bool],
    origin: int,
    budget: int,
    pw: int,
    climb: Grid,
    lo_x: int,
    lo_y: int,
    k: int,
) -> dict[int, int]:
    """`_spread` where a step costs 1 more when it newly covers a climb cell (never for a
    flying token): Dijkstra over anchor and parity (``2 * anchor + parity``) with a
    bucket queue, since costs are small integers."""
    steep = _footprint_flags(climb, k, lo_x, lo_y, pw, len(passable) // pw)
    best = [budget + 1] * (2 * len(passable))
    best[2 * origin] = 0
    buckets: list[list[int]] = [[] for _ in range(budget + 2)]
    buckets[0].append(2 * origin)
    steps = [(dy * pw + dx, dx, dy, bool(dx and dy)) for dx, dy in _STEPS]
    for cost in range(budget + 1):
        for code in buckets[cost]:
            if best[code] != cost:
                continue
            i, parity = code >> 1, code & 1
            for off, dx, dy, diagonal in steps:
                # Orthogonal steps cost 1 and keep the parity; diagonals cost 1 + parity,
                # flip it and need an orthogonal neighbour clear.
                t, turned = (cost + 1 + parity, parity ^ 1) if diagonal else (cost + 1, parity)
                j = i + off
                if t > budget or not passable[j]:
                    continue
                if diagonal and not (passable[i + dy * pw] or passable[i + dx]):
                    continue
                if steep[j] and _climbs_from(climb, i, pw, lo_x, lo_y, dx, dy, k):
                    t += 1
                    if t > budget:
                        continue
                c2 = 2 * j + turned
                if best[c2] > t:
                    best[c2] = t
                    buckets[t].append(c2)
    cost_of: dict[int, int] = {}
    for j in range(len(passable)):
        even, odd = best[2 * j], best[2 * j + 1]
        cost = even if even < odd else odd
        if cost <= budget:
            cost_of[j] = cost
    return cost_of


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
