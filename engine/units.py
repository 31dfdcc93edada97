"""Units of several models: coherency, unit-to-unit distance and centroids.

Several rule systems move models in units that must stay together (Roads of the
Apocalypse keeps every model within 2 steps of another, Apocalypse within its coherency
distance). The rules differ only in the link distance and the way distance is measured,
so both are parameters here and each ruleset keeps its own numbers.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter

from engine.board import Cell, distance

Measure = Callable[[Cell, Cell], int]
"""How a ruleset measures the distance between two cells."""


def flat_distance(a: Cell, b: Cell) -> int:
    """The board's "5-10-5" distance on flat ground (the default measure)."""
    return distance(a, b)


def coherency_groups(
    cells: Sequence[Cell], link: int, measure: Measure = flat_distance
) -> list[list[int]]:
    """Indices of ``cells`` grouped into linked groups, largest group first.

    Two models are linked when they are at most ``link`` apart; a group is a connected
    component of that relation. Ties in size keep the order of the first member, so the
    result is deterministic.
    """
    unseen = list(range(len(cells)))
    groups: list[list[int]] = []
    while unseen:
        first = unseen.pop(0)
        group = [first]
        frontier = [first]
        while frontier:
            here = frontier.pop()
            near = [i for i in unseen if measure(cells[here], cells[i]) <= link]
            for i in near:
                unseen.remove(i)
            group.extend(near)
            frontier.extend(near)
        groups.append(sorted(group))
    groups.sort(key=lambda g: (-len(g), g[0]))
    return groups


def is_coherent(cells: Sequence[Cell], link: int, measure: Measure = flat_distance) -> bool:
    """True if the models form one linked group (a lone model always does)."""
    return len(coherency_groups(cells, link, measure)) <= 1


def stragglers(cells: Sequence[Cell], link: int, measure: Measure = flat_distance) -> list[int]:
    """Indices of the models outside the largest linked group, in index order."""
    groups = coherency_groups(cells, link, measure)
    return sorted(i for group in groups[1:] for i in group)


def is_linked_to(
    cell: Cell, placed: Iterable[Cell], link: int, measure: Measure = flat_distance
) -> bool:
    """True if ``cell`` is within ``link`` of at least one of the ``placed`` cells.

    Placing each model of a unit linked to one already placed builds a coherent unit
    one model at a time (the group stays connected by construction).
    """
    return any(measure(cell, other) <= link for other in placed)


def group_distance(
    a: Iterable[Cell], b: Iterable[Cell], measure: Measure = flat_distance
) -> int | None:
    """The shortest distance between any model of one unit and any of the other.

    None when either unit has no model on the board.
    """
    cells_b = list(b)
    best: int | None = None
    for cell in a:
        for other in cells_b:
            d = measure(cell, other)
            if best is None or d < best:
                best = d
    return best


def centroid(cells: Sequence[Cell]) -> Cell:
    """The mean cell of a group, each coordinate rounded to nearest, halves down.

    Raises:
        ValueError: for an empty group.
    """
    if not cells:
        raise ValueError("the centroid of no cells is undefined")
    n = len(cells)
    return Cell(
        _round_half_down(sum(c.x for c in cells), n), _round_half_down(sum(c.y for c in cells), n)
    )


def _round_half_down(total: int, count: int) -> int:
    """``total / count`` rounded to the nearest integer, exact halves rounded down."""
    q, r = divmod(total, count)
    return q + 1 if 2 * r > count else q


# -- formations ----------------------------------------------------------------------
# A player moves a whole unit at once by moving it "keeping its formation": every model
# is translated by the same offset. wh40k6 §7 D19 asks for this (plus per-model
# adjustment) so that nobody has to move thirty models by hand; the legality of each
# model's own move stays the ruleset's business (it passes the cells each model may
# reach), so these helpers only do the set arithmetic.

Offset = tuple[int, int]
"""A translation (dx, dy) applied to every model of a formation."""


def block_offsets(count: int, per_row: int = 5, spacing: int = 1) -> list[Offset]:
    """Offsets of a compact block: rows of ``per_row`` models, ``spacing`` cells apart.

    The first model is the anchor at (0, 0); rows grow east, then north. With the default
    spacing the models stand in base contact, which keeps any link distance >= 1.
    """
    if count < 0 or per_row < 1 or spacing < 1:
        raise ValueError("a block needs count >= 0, per_row >= 1 and spacing >= 1")
    return [((i % per_row) * spacing, (i // per_row) * spacing) for i in range(count)]


def translated(cells: Iterable[Cell], offset: Offset) -> list[Cell]:
    """Every cell moved by ``offset``."""
    dx, dy = offset
    return [Cell(c.x + dx, c.y + dy) for c in cells]


_DY_DX = itemgetter(1, 0)
"""An offset's (dy, dx): the order formation options are offered in."""


def formation_offsets(
    starts: Sequence[Cell], allowed: Sequence[Callable[[Cell], bool] | frozenset[Cell]]
) -> list[Offset]:
    """The translations that take every model ``i`` from ``starts[i]`` into ``allowed[i]``.

    ``allowed[i]`` is the set of cells model ``i`` may end on (or a predicate); the first
    set drives the search, so pass the most restrictive one first when it matters. The
    result is sorted (by dy, then dx) so options built from it are deterministic.
    Translating keeps models on distinct cells, so no occupancy check is needed between
    the members of the formation.
    """
    if not starts:
        return []
    first = allowed[0]
    if not isinstance(first, frozenset):
        raise ValueError("the first allowed area must be a set of cells")
    s0 = starts[0]
    # Each other model as its place relative to the first, and its area: a set is asked
    # with a plain (x, y) (a Cell hashes and compares as one), a predicate with a Cell.
    rest = [
        (s.x - s0.x, s.y - s0.y, area if isinstance(area, frozenset) else None, area)
        for s, area in zip(starts[1:], allowed[1:], strict=True)
    ]
    found: list[Offset] = []
    for x, y in first:
        for rx, ry, frozen, area in rest:
            if frozen is not None:
                if (x + rx, y + ry) not in frozen:
                    break
            elif not area(Cell(x + rx, y + ry)):  # type: ignore[operator]
                break
        else:
            found.append((x - s0.x, y - s0.y))
    found.sort(key=_DY_DX)  # (dy, dx), the tuple made in C
    return found
