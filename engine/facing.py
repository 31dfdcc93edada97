"""Facing on the grid: eight directions, arcs and turning, in exact integer arithmetic.

Several rule systems give a model or vehicle a front: Confrontation's 180° field of
vision (digest confrontation §6.5, §11), vehicle armour facings and weapon arcs
(wh40k6 §11.5), and "straight forward" moves (fatigue §11.4). They all store a facing as
one of eight directions and ask the same questions (where does it point, is that cell in
front, turn towards a target), so the geometry lives here once; each ruleset keeps its
own rules about when a model may turn.

Convention: a facing is an ``int`` in eighths of a turn, 0 = north (+y), clockwise, the
same as `engine.view.ModelView.facing`. Angles are compared through dot and cross
products of integer vectors, never through floats.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Option, Procedure

NAMES: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Short names of the eight facings, index = facing."""

FACING_HELP = (
    "a compass point (N, NE, E, SE, S, SW, W, NW) or degrees clockwise from north in "
    "steps of 45 (0, 45, ..., 315)"
)


def read_facing(raw: object) -> int:
    """A facing written in a position file, as eighths of a turn.

    Every ruleset reads facings through this one function, so ``facing = 45`` and
    ``facing = "NE"`` mean north-east everywhere (a wh40k6 position once read 45 as an
    index of eighths: south-west).

    Raises:
        ValueError: anything else (``True``, ``45.0``, ``"north-east"``, ``50``).
    """
    if isinstance(raw, str) and raw in NAMES:
        return NAMES.index(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and raw % 45 == 0 and 0 <= raw < 360:
        return raw // 45
    raise ValueError(f"must be {FACING_HELP}")


LONG_NAMES: tuple[str, ...] = (
    "north",
    "north-east",
    "east",
    "south-east",
    "south",
    "south-west",
    "west",
    "north-west",
)

VECTORS: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
)
"""Unit step of each facing on the grid (y grows northwards)."""


def normalised(facing: int) -> int:
    """The facing reduced to 0..7."""
    return facing % 8


def turned(facing: int, eighths: int) -> int:
    """The facing after ``eighths`` eighths of a turn clockwise (negative: anticlockwise)."""
    return (facing + eighths) % 8


def opposite(facing: int) -> int:
    """The facing pointing the other way."""
    return (facing + 4) % 8


def name(facing: int) -> str:
    """Short name ("NE") of a facing."""
    return NAMES[facing % 8]


def step(cell: Cell, facing: int) -> Cell:
    """The neighbouring cell straight ahead."""
    dx, dy = VECTORS[facing % 8]
    return Cell(cell.x + dx, cell.y + dy)


def dot(facing: int, origin: Cell, target: Cell) -> int:
    """Dot product of the facing vector and ``target - origin`` (> 0: ahead, < 0: behind)."""
    fx, fy = VECTORS[facing % 8]
    return fx * (target.x - origin.x) + fy * (target.y - origin.y)


def cross(facing: int, origin: Cell, target: Cell) -> int:
    """Cross product of the facing vector and ``target - origin``.

    Positive: the target is on the left (anticlockwise) side; negative: on the right.
    """
    fx, fy = VECTORS[facing % 8]
    return fx * (target.y - origin.y) - fy * (target.x - origin.x)


def in_front_half(facing: int, origin: Cell, target: Cell) -> bool:
    """True if ``target`` lies in the front 180° of a model at ``origin``.

    Cells exactly abeam (dot = 0) count as inside, as Confrontation's "partial view is
    enough" wants (digest confrontation §11, Facing). The origin itself is inside.
    """
    return dot(facing, origin, target) >= 0


def in_arc(facing: int, origin: Cell, target: Cell, half_width: int) -> bool:
    """True if ``target`` is within ``half_width`` eighths of a turn either side of the facing.

    ``half_width`` 0 = dead ahead only, 1 = the 90° front arc (±45°), 2 = the front half
    (±90°, same as `in_front_half`), 3 = everything but the rear 90°, 4 = all round.
    Boundaries count as inside. Exact: compares squared integer products with cos² 45° = 1/2.
    """
    if target == origin or half_width >= 4:
        return True
    d = dot(facing, origin, target)
    fx, fy = VECTORS[facing % 8]
    vx, vy = target.x - origin.x, target.y - origin.y
    norms = (fx * fx + fy * fy) * (vx * vx + vy * vy)
    if half_width <= 0:
        return d > 0 and cross(facing, origin, target) == 0
    if half_width == 1:
        return d > 0 and 2 * d * d >= norms
    if half_width == 2:
        return d >= 0
    return d >= 0 or 2 * d * d <= norms


def towards(origin: Cell, target: Cell) -> int | None:
    """The facing of the eight nearest to the direction from ``origin`` to ``target``.

    None if the cells are the same. There are never ties: a sector boundary lies at
    22.5° off an axis, and ``(min + max)² = 2·max²`` has no integer solution but 0.
    """
    dx, dy = target.x - origin.x, target.y - origin.y
    if dx == 0 and dy == 0:
        return None
    ax, ay = abs(dx), abs(dy)
    lo, hi = min(ax, ay), max(ax, ay)
    if (lo + hi) ** 2 < 2 * hi * hi:
        if ay >= ax:
            return 0 if dy > 0 else 4
        return 2 if dx > 0 else 6
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    return VECTORS.index((sx, sy))


def orthogonal_towards(origin: Cell, target: Cell) -> int | None:
    """The orthogonal facing (N, E, S or W) closest to the direction of ``target``.

    Used where a front edge must face a model in edge contact. On a diagonal the north
    or south facing wins (a documented, arbitrary tie-break). None for the same cell.
    """
    dx, dy = target.x - origin.x, target.y - origin.y
    if dx == 0 and dy == 0:
        return None
    if abs(dy) >= abs(dx):
        return 0 if dy > 0 else 4
    return 2 if dx > 0 else 6


def facing_options(marked: int | None = None, mark: str = "current") -> tuple[Option, ...]:
    """The eight facings as Options (keys "N", "NE", ...), always in compass order from
    north so a player's habit holds at every prompt; ``marked`` gets ``(mark)`` and is
    the one a UI highlights first."""
    return tuple(
        Option(
            NAMES[f],
            f"Face {LONG_NAMES[f]}"
            + (f" ({mark})" if marked is not None and f == marked % 8 else ""),
            detail=f"facing {NAMES[f]}",
            suggested=marked is not None and f == marked % 8,
        )
        for f in range(8)
    )


def ask_facing(
    player: int,
    prompt: str,
    *,
    marked: int | None = None,
    mark: str = "current",
    subject: str | None = None,
) -> Procedure[int]:
    """Ask a player to choose one of the eight facings and return it."""
    choice = yield Decision(
        player, DecisionKind.PICK_OPTION, prompt, facing_options(marked, mark), subject=subject
    )
    return NAMES.index(choice.key)


# -- armour facings and weapon arcs (wh40k6 §11.5) --------------------------------------
# Vehicles in Warhammer 40,000 (and other systems with armoured fronts) ask which of
# their facings an attacker stands against. The vector from the vehicle's centre to the
# attacker is compared with the facing: under 45° off it is the front, over 135° the
# rear, and everything else (the boundaries included) the side. Callers with centres
# between cells pass doubled coordinates (``Cell(2x + 1, 2y + 1)``): the angles do not
# change under scaling.

FRONT = "front"
SIDE = "side"
REAR = "rear"


def armour_arc(facing: int, origin: Cell, target: Cell) -> str:
    """FRONT, SIDE or REAR: which facing of a model at ``origin`` ``target`` stands against.

    Strictly less than 45° off the facing is the front, strictly more than 135° the rear;
    exactly 45° or 135° is the side (wh40k6 §11.5). The origin itself counts as the front.
    """
    if target == origin:
        return FRONT
    d = dot(facing, origin, target)
    fx, fy = VECTORS[facing % 8]
    vx, vy = target.x - origin.x, target.y - origin.y
    norms = (fx * fx + fy * fy) * (vx * vx + vy * vy)
    if 2 * d * d > norms:
        return FRONT if d > 0 else REAR
    return SIDE


def in_right_half(facing: int, origin: Cell, target: Cell) -> bool:
    """True if ``target`` lies in the right half-plane (0° to 180° clockwise), abeam included."""
    return cross(facing, origin, target) <= 0


def in_left_half(facing: int, origin: Cell, target: Cell) -> bool:
    """True if ``target`` lies in the left half-plane (0° to 180° anticlockwise), abeam included."""
    return cross(facing, origin, target) >= 0
