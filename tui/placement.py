"""Where things go on screen: the cursor's starting cell, option hopping, map columns.

Pure functions over the engine's Decision and GameView (no Textual), so the game screen
stays small and these choices can be tested directly.
"""

from __future__ import annotations

from engine.board import Board, Cell
from engine.decisions import Decision
from engine.view import GameView


def start_cell(decision: Decision, view: GameView) -> Cell | None:
    """Where the cursor starts for ``decision``: on its model if that is an option (a
    move's "stay"), else on the first lit cell, else on its model; None to stay put."""
    subject = view.model(decision.subject) if decision.subject else None
    here = subject.cell if subject is not None else None
    cells = [o.cell for o in decision.options if o.cell is not None]
    if here is not None and here in cells:
        return here
    if cells:
        return cells[0]
    return here


def hop(decision: Decision | None, cursor: Cell, step: int) -> Cell | None:
    """The next (``step`` 1) or previous (-1) lit cell after ``cursor``, in option order."""
    cells = [] if decision is None else [o.cell for o in decision.options if o.cell]
    if not cells:
        return None
    at = cells.index(cursor) if cursor in cells else -1 if step > 0 else 0
    return cells[(at + step) % len(cells)]


def map_columns(board: Board, width: int, height: int, panels: int) -> tuple[int, int]:
    """(characters per cell, columns for the map) on a ``width`` x ``height`` screen that
    keeps ``panels`` columns for the panels: square-looking 2-character cells when they
    fit, a scrollbar's column when the map is taller than the screen (less the status line
    and the key bar)."""
    cell_width = 2 if width >= 2 * board.width + panels else 1
    needed = board.width * cell_width + (1 if board.height > height - 2 else 0)
    return cell_width, max(12, min(needed, width - panels))
