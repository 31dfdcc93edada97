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
            steep = _climb_bits(climb, k, lo_x, lo_y, pw, ph)
            passable, steps = _bits(legal), steep
        else:
            passable, steps = _inside(pw, ph) if fly else _bits(legal), None
        if stop is not None:
            legal = _legal_window(stop, occupied, k, lo_x, lo_y, pw, ph)
        ends = _bits(legal)
    else:
        ends = _window_bits(blocked, k, lo_x, lo_y, pw, ph)
        passable, steps = _inside(pw, ph) if fly else ends, None
        if stop is not None:
            ends = _window_bits(stop, k, lo_x, lo_y, pw, ph)
    cost_of = _spread(passable, origin, budget, pw, steps, keep=ends | 1 << origin)
    cells = _cells(cols, rows)
    reach: dict[Cell, int] = {}
    corner = (lo_y - 1) * cols + lo_x - 1
    for j in sorted(cost_of):
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


def _spread(
    passable: int,
    origin: int,
    budget: int,
    pw: int,
    steep: dict[tuple[int, int], int] | None = None,
    *,
    keep: int = -1,
) -> dict[int, int]:
    """The search of `token_reach`, on whole rows at once: the window's anchors are the
    bits of an integer (anchor ``j`` is bit ``j``, rows ``pw`` apart), so a step in one
    direction is one shift of every anchor reached so far. With ``steep`` (`_climb_bits`)
    a step in a direction costs 1 more onto the anchors its bits name.

    Returns the cheapest cost of every anchor reached within the budget (of those among
    the bits of ``keep``: where the token may end, tested a level at a time rather than an
    anchor at a time). A state is an
    anchor and the parity of the diagonals taken to it: orthogonal steps cost 1 and keep
    the parity, diagonals cost 1 + parity, flip it, and need one of their two orthogonal
    neighbours passable (reached through either). Costs are settled in increasing order
    (every step costs at least 1), as a bucket queue would. The window's border is never
    passable, so no shift wraps from one row's edge into the next."""
    seen = [0, 0]
    pending = [[0, 0] for _ in range(budget + 4)]
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
            if steep is not None:
                _climbing_steps(front, passable, pw, steep, pending, cost, parity)
                continue
            across = ((front << 1) | (front >> 1)) & passable
            along = ((front << pw) | (front >> pw)) & passable
            pending[cost + 1][parity] |= across | along
            diagonal = (across << pw) | (across >> pw) | (along << 1) | (along >> 1)
            pending[cost + 1 + parity][1 - parity] |= diagonal & passable
        level &= ~done
        done |= level
        text = bin(level & keep)[:1:-1]
        at = text.find("1")
        while at >= 0:
            cost_of[at] = cost
            at = text.find("1", at + 1)
    return cost_of


def _climbing_steps(
    front: int,
    passable: int,
    pw: int,
    steep: dict[tuple[int, int], int],
    pending: list[list[int]],
    cost: int,
    parity: int,
) -> None:
    """The steps of `_spread` from ``front`` (reached at ``cost`` with ``parity``) one
    direction at a time, each 1 more onto the anchors where it climbs."""
    east, west = (front << 1) & passable, (front >> 1) & passable
    north, south = (front << pw) & passable, (front >> pw) & passable
    level, later = pending[cost + 1], pending[cost + 2]
    for bits, way in ((east, (1, 0)), (west, (-1, 0)), (north, (0, 1)), (south, (0, -1))):
        up = bits & steep[way]
        level[parity] |= bits ^ up
        later[parity] |= up
    # A diagonal needs one of its orthogonal neighbours passable: it is reached from one.
    level, later, turned = pending[cost + 1 + parity], pending[cost + 2 + parity], 1 - parity
    for bits, way in (
        (((east << pw) | (north << 1)) & passable, (1, 1)),
        (((west << pw) | (north >> 1)) & passable, (-1, 1)),
        (((east >> pw) | (south << 1)) & passable, (1, -1)),
        (((west >> pw) | (south >> 1)) & passable, (-1, -1)),
    ):
        up = bits & steep[way]
        level[turned] |= bits ^ up
        later[turned] |= up


def _climb_bits(
    climb: Grid, k: int, lo_x: int, lo_y: int, pw: int, ph: int
) -> dict[tuple[int, int], int]:
    """Per step direction, the window's anchors a step that way climbs onto: whose
    footprint's leading column (east, west) or row (north, south), or both for a
    diagonal, holds a climb cell (the cells the step newly covers)."""
    flags, cols = climb.flags, climb.cols
    width = pw - 2 + k
    rows = [
        int(bytes(map(bool, flags[base : base + width][::-1])).translate(_BINARY) or b"0", 2)
        for base in range(lo_y * cols + lo_x, (lo_y + ph - 2 + k) * cols + lo_x, cols)
    ]
    anchors = (1 << (pw - 2)) - 1
    out = dict.fromkeys(_STEPS, 0)
    for wy in range(ph - 2):
        down = rows[wy]
        column = down  # some row of the footprint's k + 1 holds a climb cell in the column
        for dy in range(1, k + 1):
            column |= rows[wy + dy]
        top, bottom = rows[wy + k], down
        for dx in range(1, k + 1):
            top |= rows[wy + k] >> dx
            bottom |= down >> dx
        at = (wy + 1) * pw + 1
        east, west = ((column >> k) & anchors) << at, (column & anchors) << at
        north, south = (top & anchors) << at, (bottom & anchors) << at
        for way, bits in (
            ((1, 0), east),
            ((-1, 0), west),
            ((0, 1), north),
            ((0, -1), south),
            ((1, 1), east | north),
            ((-1, 1), west | north),
            ((1, -1), east | south),
            ((-1, -1), west | south),
        ):
            out[way] |= bits
    return out


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
