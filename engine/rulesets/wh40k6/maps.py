"""Deployment maps: table halves, deployment zones and own table edges (digest wh40k6 §4.3).

Distances from the centre line or diagonal are measured from cell centres, kept exact
with doubled coordinates (the centre of cell (x, y) is (2x+1, 2y+1)). The geometry
scales with the board, so small test tables work like the 72x48 default.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from functools import lru_cache

from engine.board import Cell
from engine.rulesets.wh40k6.tables import DEPLOY_GAP

HALVES: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "dawn_of_war": (("south", "the south half"), ("north", "the north half")),
    "hammer_and_anvil": (("west", "the west half"), ("east", "the east half")),
    "vanguard_strike": (
        ("south-east", "the south-east side of the diagonal"),
        ("north-west", "the north-west side of the diagonal"),
    ),
}
"""The two halves of each map as (key, label)."""

EDGES: dict[str, tuple[str, ...]] = {
    "south": ("south",),
    "north": ("north",),
    "west": ("west",),
    "east": ("east",),
    "south-east": ("south", "east"),
    "north-west": ("north", "west"),
}
"""Own table edge(s) of each half (§4.3; Vanguard Strike: §10 A-24)."""


def other_half(map_key: str, half: str) -> str:
    a, b = HALVES[map_key]
    return b[0] if half == a[0] else a[0]


def _signed(half: str, width: int, height: int, cell: Cell) -> int:
    """Doubled signed distance-like value, positive inside ``half``."""
    cx, cy = 2 * cell.x + 1, 2 * cell.y + 1
    if half == "south":
        return height - cy
    if half == "north":
        return cy - height
    if half == "west":
        return width - cx
    if half == "east":
        return cx - width
    value = height * cx - width * cy
    return value if half == "south-east" else -value


def in_half(half: str, width: int, height: int, cell: Cell) -> bool:
    """True if the cell's centre lies in the table half (§4.1 step 3)."""
    return _signed(half, width, height, cell) > 0


def in_zone(half: str, width: int, height: int, cell: Cell) -> bool:
    """More than 12" from the centre line (or the diagonal) on the own side (§4.3)."""
    value = _signed(half, width, height, cell)
    if value <= 0:
        return False
    if half in ("south", "north", "west", "east"):
        return value > 2 * DEPLOY_GAP
    # |H*cx - W*cy| / sqrt(H² + W²) > 12, with doubled centres: value² > 4·144·(H² + W²).
    return value * value > 4 * DEPLOY_GAP * DEPLOY_GAP * (width * width + height * height)


@lru_cache(maxsize=16)
def zone(half: str, width: int, height: int) -> frozenset[Cell]:
    """The deployment zone of ``half`` (`in_zone` asked of every cell of the table, once
    per half and table size: a frozen set, so every game may share it)."""
    return frozenset(
        Cell(x, y)
        for x in range(width)
        for y in range(height)
        if in_zone(half, width, height, Cell(x, y))
    )


def half_cells(half: str, width: int, height: int) -> frozenset[Cell]:
    return frozenset(
        Cell(x, y)
        for x in range(width)
        for y in range(height)
        if in_half(half, width, height, Cell(x, y))
    )
