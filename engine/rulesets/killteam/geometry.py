"""Kill Team's questions about the battlefield: engagement, visibility, cover (killteam §11).

Thin rules on top of the core `Board`: what counts as "within 1"", who blocks sight,
when a target is obscured and when terrain softens an injury roll.
"""

from __future__ import annotations

from functools import lru_cache

from engine.board import Board, Cell, Terrain
from engine.rulesets.killteam.state import KTState, Model


class TeamWipedOut(Exception):  # noqa: N818 - a signal, not an error
    """A team has no models on the table: the game ends at once (§5.2, §12.5 item 5)."""


def check_wipeout(state: KTState) -> None:
    """Raise `TeamWipedOut` if either team has no model left on the table."""
    if not state.on_table(0) or not state.on_table(1):
        raise TeamWipedOut


def dist(state: KTState, a: Model, b: Model) -> int:
    """Inches between two deployed models (§11.2)."""
    assert a.cell is not None and b.cell is not None
    return state.board.range_to(a.cell, b.cell)


def enemies(state: KTState, model: Model) -> list[Model]:
    """Enemy models on the table."""
    return state.on_table(1 - model.player)


def friends(state: KTState, model: Model) -> list[Model]:
    """Other friendly models on the table."""
    return [m for m in state.on_table(model.player) if m is not model]


def is_within_1(state: KTState, a: Model, b: Model) -> bool:
    """Base contact on the grid: adjacent cells, floors within 1" (§11.2)."""
    assert a.cell is not None and b.cell is not None
    return state.board.is_adjacent(a.cell, b.cell)


def engaged_with(state: KTState, model: Model) -> list[Model]:
    """Enemies within 1" of the model."""
    return [e for e in enemies(state, model) if is_within_1(state, model, e)]


def is_engaged(state: KTState, model: Model) -> bool:
    """Within 1" of any enemy model."""
    return bool(engaged_with(state, model))


def cell_near_enemy(
    state: KTState, cell: Cell, player: int, ignore: frozenset[str] = frozenset()
) -> bool:
    """Would a model of ``player`` on ``cell`` be within 1" of an enemy (not in ``ignore``)?"""
    board = state.board
    for e in state.on_table(1 - player):
        if e.id not in ignore and e.cell is not None and board.is_adjacent(cell, e.cell):
            return True
    return False


def can_see(state: KTState, a: Model, b: Model) -> bool:
    """Line of sight: models never block it, walls do (§11.4)."""
    assert a.cell is not None and b.cell is not None
    return state.board.has_line_of_sight(a.cell, b.cell)


def _obscured(state: KTState, shooter: Model, target: Model, *, models: bool) -> bool:
    assert shooter.cell is not None and target.cell is not None
    if not models:
        return _hidden(state.board, shooter.cell, target.cell, frozenset())
    hostile = frozenset(m.cell for m in enemies(state, shooter) if m is not target)
    return _hidden(state.board, shooter.cell, target.cell, hostile)


def _hidden(board: Board, origin: Cell, spot: Cell, hostile: frozenset[Cell | None]) -> bool:
    """Walls, cover more than 1" from the origin and ``hostile`` cells block (§11.4)."""
    if board.kind(spot) is Terrain.COVER:
        return True
    w = board.width
    near = {  # cover next to the shooter does not hide (§11.4)
        y * w + x
        for x in range(origin.x - 1, origin.x + 2)
        for y in range(origin.y - 1, origin.y + 2)
        if Cell(x, y) in board and board.kind(Cell(x, y)) is Terrain.COVER
    }
    models = {c.y * w + c.x for c in hostile if c is not None}
    return not board.clear_view_of(origin, spot, _screens(board), skip=near, extra=models)


@lru_cache(maxsize=16)
def _screens(board: Board) -> list[bool]:
    """Walls and cover by cell index: what may hide a target."""
    return [board.kind(c) in (Terrain.BLOCKING, Terrain.COVER) for c in board.cells()]


def is_obscured(state: KTState, shooter: Model, target: Model) -> bool:
    """Part of the target is hidden by terrain or by models hostile to the shooter (§11.4)."""
    return _obscured(state, shooter, target, models=True)


def terrain_saves_injury(state: KTState, shooter: Model, target: Model) -> bool:
    """-1 to injury: obscured by terrain alone, and that terrain within 1" of the target."""
    assert shooter.cell is not None and target.cell is not None
    return _terrain_saves(state.board, shooter.cell, target.cell)


@lru_cache(maxsize=8192)
def _terrain_saves(board: Board, origin: Cell, spot: Cell) -> bool:
    """Terrain alone decides it and terrain never moves: one answer per pair of cells
    (asked for each target of each shooter, again at each shot)."""
    if not _hidden(board, origin, spot, frozenset()):
        return False
    if board.kind(spot) is Terrain.COVER:
        return True
    # Only cover or walls within 1" of the target count: those few cells (often none, so
    # nothing is traced) are the ones a segment is asked about, traced without building
    # its cells and stopping at the first.
    w = board.width
    near = {
        y * w + x
        for x in range(spot.x - 1, spot.x + 2)
        for y in range(spot.y - 1, spot.y + 2)
        if Cell(x, y) in board and board.kind(Cell(x, y)) in (Terrain.COVER, Terrain.BLOCKING)
    }
    if not near:
        return False
    return any(board.segment_meets(origin, spot, k, near) for k in range(25))


def terrain_between_fighters(state: KTState, a: Model, b: Model) -> bool:
    """Melee -1: a fighter on low cover, or a diagonal past low cover or a wall (§11.4)."""
    board = state.board
    assert a.cell is not None and b.cell is not None
    if board.is_low_cover(a.cell) or board.is_low_cover(b.cell):
        return True
    if a.cell.x != b.cell.x and a.cell.y != b.cell.y:
        for corner in (Cell(a.cell.x, b.cell.y), Cell(b.cell.x, a.cell.y)):
            if board.is_low_cover(corner) or board.kind(corner) is Terrain.BLOCKING:
                return True
    return False


def closest(state: KTState, origin: Model, candidates: list[Model]) -> list[Model]:
    """The candidates at the smallest distance from ``origin`` (ties all returned)."""
    if not candidates:
        return []
    best = min(dist(state, origin, c) for c in candidates)
    return [c for c in candidates if dist(state, origin, c) == best]
