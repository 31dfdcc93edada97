"""The overview zoom levels: one character for a block of cells, showing the most important
cell in it, so a small terminal shows the whole table (both armies and the objectives).

Which cell a block shows, most important first: a model (the Decision's subject first,
else the first from the north-west), an objective, a cell the pending Decision offers, a
wall or impassable ground, other terrain (cover, difficult, raised floors, the rules'
named pieces), and last open ground. That cell is then drawn as at one character a cell
(`tui.cells.cell_text`), with its own terrain's style; the block takes every overlay of
any of its cells (a tint, a lit option). The cursor's block shows the cursor's own cell
(`tui.battlefield.Battlefield` decides that): what is under the cursor is what the status
line describes and Enter picks. A block holding models of both sides (a close combat)
shows `CONTACT` instead: one side's letter alone hid the fight. Pure functions over cells,
so they can be tested without Textual.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from engine.board import Board, Cell, Terrain
from engine.view import TerrainView

_WALLS = (Terrain.BLOCKING, Terrain.IMPASSABLE)

CONTACT = "×"
"""An overview character for a block with models of both sides in it."""


def both_sides(cells: list[Cell], sides: Mapping[Cell, int]) -> bool:
    """True when ``cells`` hold models of both sides (``sides``: a model's cell to its
    side, 0 or 1)."""
    found = {sides[cell] for cell in cells if cell in sides}
    return len(found) > 1


def block_cells(board: Board, column: int, line: int, across: int, down: int) -> list[Cell]:
    """The cells the character at ``column`` on overview ``line`` (north first) shows, a
    block of ``across`` x ``down``: north-west first, fewer at the east and south edges
    when the board's size is not a multiple of the block's."""
    top = board.height - 1 - line * down
    xs = range(column * across, min((column + 1) * across, board.width))
    return [Cell(x, y) for y in range(top, max(top - down, -1), -1) for x in xs]


def shown_cell(
    board: Board,
    cells: list[Cell],
    *,
    models: Collection[Cell],
    objectives: Collection[Cell],
    options: Collection[Cell],
    features: Mapping[Cell, TerrainView],
    first: tuple[Cell | None, ...] = (),
) -> Cell:
    """The cell of the block ``cells`` whose look stands for the whole block (see the
    module's order); among equals the cells of ``first`` (the subject) in
    their order, then the first of ``cells``."""

    def rank(cell: Cell) -> int:
        if cell in models:
            return 5
        if cell in objectives:
            return 4
        if cell in options:
            return 3
        feature = features.get(cell)
        kind = board.kind(cell) if feature is None else feature.kind
        if kind in _WALLS:
            return 2
        if kind is not Terrain.OPEN or cell in features or board.z(cell) > 0:
            return 1
        return 0

    best = max(rank(cell) for cell in cells)
    ties = [cell for cell in cells if rank(cell) == best]
    return next((cell for cell in first if cell in ties), ties[0])
