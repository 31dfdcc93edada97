"""Lookup tables as data: wound table, wound accumulation, range bands (digest confrontation §4.5).

Pure functions of their arguments, so the quick reference and the tests read the same
numbers the rules use.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

import enum
from functools import cache


class Wound(enum.IntEnum):
    """A fighter's wound level (§3.5); it never heals."""

    HEALTHY = 0
    LIGHT = 1
    SERIOUS = 2
    CRITICAL = 3
    KILLED = 4


class Result(enum.IntEnum):
    """What one damage roll reads on the wound table T1."""

    NONE = 0
    """No effect."""
    STUNNED = 1
    """Ignored in these rules (§10 A18)."""
    LIGHT = 2
    SERIOUS = 3
    CRITICAL = 4
    KILLED = 5


LOCATIONS: tuple[str, ...] = ("Legs", "Arms", "Abdomen", "Chest", "Head")
"""Wound-table columns: the lower die 1, 2, 3, 4, 5-6."""

ROW_LABELS: tuple[str, ...] = (
    "< 0",
    "0-1",
    "2-3",
    "4-5",
    "6-7",
    "8-9",
    "10-11",
    "12-13",
    "14-15",
    "16-17",
    "18+",
)

_N, _S, _L, _SE, _C, _K = (
    Result.NONE,
    Result.STUNNED,
    Result.LIGHT,
    Result.SERIOUS,
    Result.CRITICAL,
    Result.KILLED,
)

WOUND_TABLE: tuple[tuple[Result, ...], ...] = (
    (_N, _S, _S, _L, _L),  # < 0
    (_S, _S, _L, _L, _SE),  # 0-1
    (_S, _L, _L, _SE, _C),  # 2-3
    (_L, _L, _SE, _SE, _C),  # 4-5
    (_L, _SE, _SE, _C, _K),  # 6-7
    (_L, _SE, _C, _C, _K),  # 8-9
    (_SE, _SE, _C, _K, _K),  # 10-11
    (_SE, _C, _K, _K, _K),  # 12-13
    (_SE, _C, _K, _K, _K),  # 14-15
    (_C, _C, _K, _K, _K),  # 16-17
    (_C, _K, _K, _K, _K),  # 18+
)
"""T1: ``WOUND_TABLE[row + 1][column]``, row -1 for "< 0"."""


def wound_row(value: int) -> int:
    """Row index of T1 for ``high die + STR - RES``: -1 for "< 0", else min(v // 2, 9)."""
    return -1 if value < 0 else min(value // 2, 9)


def location(low_die: int) -> str:
    """Column of T1 from the lower die (§6.1.4 step 3)."""
    return LOCATIONS[min(low_die, 5) - 1]


@cache
def read_wound_table(dice: tuple[int, int], strength: int, resilience: int) -> Result:
    """The result of a damage roll (§6.1.4 steps 1-3; E15: a double 6 always kills).
    Kept per question: the odds of each attack read the table for all 36 throws."""
    lo, hi = min(dice), max(dice)
    if lo == hi == 6:
        return Result.KILLED
    return WOUND_TABLE[wound_row(hi + strength - resilience) + 1][min(lo, 5) - 1]


@cache
def accumulate(current: Wound, result: Result) -> Wound:
    """T2: the new wound level after a table result (§4.5; example E14).

    A worse result replaces the level; an equal or lighter wound adds one step; "no
    effect" and "stunned" change nothing. Kept per pair: the odds of an attack ask it
    for every throw.
    """
    if result <= Result.STUNNED or current is Wound.KILLED:
        return current
    new = Wound(result - 1)
    if new > current:
        return new
    return Wound(min(current + 1, Wound.KILLED))


class Band(enum.Enum):
    """Shooting range bands (T4)."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    OUT = "out of range"


DIFFICULTY: dict[Band, int] = {Band.SHORT: 4, Band.MEDIUM: 7, Band.LONG: 10}
"""AIM difficulty per band (T4)."""

QUICK_RELOAD_MALUS = 2
"""Extra difficulty of every shot in a quick-reload activation (H4)."""


def range_band(distance: int, ranges: tuple[int, int, int]) -> Band:
    """The band of a measured distance (T4; example E10). Units are the caller's."""
    short, medium, long_ = ranges
    if distance <= short:
        return Band.SHORT
    if distance <= medium:
        return Band.MEDIUM
    if distance <= long_:
        return Band.LONG
    return Band.OUT


def disengage_difficulty(enemies_in_contact: int) -> int:
    """T5: 4 + 2 per enemy in contact."""
    return 4 + 2 * enemies_in_contact


def combat_dice(opponents: int) -> int:
    """T7: one die per opponent in the fight, plus one (example E5)."""
    return opponents + 1


def pursuit_cells(mov: int) -> int:
    """Half MOV rounded up, in cells (§11; example X16)."""
    return (mov + 1) // 2


HERO_EXTRA_DICE_MALUS = 2
"""ATT and DEF lost per extra combat die a hero takes (H1)."""

COUNTER_ATTACK_MARGIN = 2
"""A counter-attack parries only by this much (H2, §10 A20)."""
