"""Where things go on screen: the cursor's starting cell, option hopping, the map's zoom.

Pure functions over the engine's Decision and GameView (no Textual), so the game screen
stays small and these choices can be tested directly.
"""

from __future__ import annotations

from engine.board import Board, Cell
from engine.decisions import Decision, DecisionKind, Option
from engine.game import Game
from engine.view import GameView
from tui.cells import ONE_TO_ONE, ZOOMS


def start_cell(decision: Decision, view: GameView, last: Cell | None = None) -> Cell | None:
    """Where the cursor starts for ``decision``: on its model if that is an option (a
    move's "stay") or the lit cells lie around it (a move that must leave, `moves_off`),
    else on the lit cell nearest that model, else (no model on the board:
    deploying, placing a marker) on the free lit cell nearest the player's ``last`` placed
    cell (the next model goes beside the one before, not back to the middle the player
    moved away from), or the middle of the lit area, so the cursor
    and the scrolled map show where the choice is (a list of models to choose from: on
    option 1's, as the list highlights it); with no lit cell, on its model or, None,
    where it was. A list whose first option is not on the board (Confrontation's
    declare list: common actions, then charges at enemies) starts on its model too, so
    the cursor lights no option but the first."""
    subject = view.model(decision.subject) if decision.subject else None
    here = subject.cell if subject is not None else None
    cells = [o.cell for o in decision.options if o.cell is not None]
    if not cells or (not board_first(decision) and here is not None):
        return here
    if stays_listed(decision, view) is not None:
        return here  # not on a lit cell beside it: Enter moved an Apocalypse unit 1"
    if decision.kind is DecisionKind.PICK_CELL and here is not None and moves_off(here, cells):
        # A move that must leave the model's cell (Confrontation's run and pursuit): on
        # the model all the same, as a walk's, so the cursor shows who moves; a lit cell
        # beside it had the model panel and the status line on another cell.
        return here
    lead = next((o for o in decision.options if o.suggested), None)
    lead = lead or next((o for o in decision.options if not o.ends), None)
    first = None if lead is None else lead.cell
    if decision.kind is not DecisionKind.PICK_CELL and first is not None:
        # A list shown on the board (whose Discipline to use, which target to shoot): on
        # option 1, so Enter takes the highlighted first row. Started on the target
        # nearest the shooter, the list scrolled to it and option 1 went out of sight.
        return first
    if here is None and last is not None:
        here = last
    if here is None:
        xs = sorted(c.x for c in cells)
        ys = sorted(c.y for c in cells)
        here = Cell((xs[0] + xs[-1]) // 2, (ys[0] + ys[-1]) // 2)
    return nearest(cells, here)


def moves_off(here: Cell, cells: list[Cell]) -> bool:
    """True when ``cells`` lie around ``here`` but not on it: a move away from the model
    standing there, not a charge's cells at a distant target or a deployment zone."""
    return here not in cells and any(max(abs(c.x - here.x), abs(c.y - here.y)) == 1 for c in cells)


def stays_listed(decision: Decision, view: GameView) -> tuple[Cell, Option] | None:
    """The model's cell and the first listed option, for a cell picker about a model on
    the board whose own cell is not lit while options off the board are listed (an
    Apocalypse move lists "Stay where it is"): the cursor starts on the model, and Enter
    there goes to that option rather than onto a cell beside it."""
    if decision.kind is not DecisionKind.PICK_CELL or not decision.subject:
        return None
    subject = view.model(decision.subject)
    if subject is None or subject.cell is None or subject.removed:
        return None
    if any(o.cell == subject.cell for o in decision.options):
        return None  # staying is a lit cell (Kill Team, wh40k6)
    listed = next((o for o in decision.options if o.cell is None and not o.ends), None)
    return None if listed is None else (subject.cell, listed)


def nearest(cells: list[Cell], here: Cell) -> Cell:
    """The cell of ``cells`` nearest ``here`` (the first of equals, in their order)."""
    return min(cells, key=lambda c: (c.x - here.x) ** 2 + (c.y - here.y) ** 2)


def last_placement(game: Game) -> Cell | None:
    """The cell the pending Decision's player last picked (None: none yet), for
    `start_cell`: where their previous model went."""
    pending = game.pending
    if pending is None:
        return None
    for decision, choice in zip(reversed(game.answered), reversed(game.choices), strict=False):
        if decision.player == pending.player and decision.kind is DecisionKind.PICK_CELL:
            option = decision.option(choice.key)
            return None if option is None else option.cell
    return None


def board_first(decision: Decision) -> bool:
    """True when ``decision`` picks a cell, or the first option of its list (ending ones
    are listed last) is on the board: the board takes the keys then, else the list."""
    if decision.kind is DecisionKind.PICK_CELL:
        return True
    first = next((o for o in decision.options if not o.ends), None)
    return first is not None and first.cell is not None


def hop(decision: Decision | None, cursor: Cell, step: int) -> Cell | None:
    """The next (``step`` 1) or previous (-1) lit cell after ``cursor``, in option order;
    from an unlit cell, the lit cell nearest it (the first in option order was the far
    corner of a deployment zone, away from where the player was looking)."""
    cells = [] if decision is None else [o.cell for o in decision.options if o.cell]
    if not cells:
        return None
    if cursor not in cells:
        return nearest(cells, cursor)
    return cells[(cells.index(cursor) + step) % len(cells)]


PANELS_MIN = 40
"""Columns always kept for the panels beside the map."""


def auto_zoom(board: Board, width: int, height: int) -> int:
    """The largest zoom level (an index of `ZOOMS`) whose whole map fits beside the panels
    on a ``width`` x ``height`` screen (less the status line and key bar); failing that,
    the largest as wide as the screen allows (the map then scrolls up and down). Never an
    overview level: those show one cell of each block only (the players press ``-``)."""
    rows = height - 2
    sizes = [(z, ZOOMS[z].size(board)) for z in range(ONE_TO_ONE, len(ZOOMS))]
    across = [(z, down) for z, (columns, down) in sizes if columns + PANELS_MIN <= width]
    whole = [z for z, down in across if down <= rows]
    return whole[-1] if whole else across[0][0] if across else ONE_TO_ONE


def map_columns(board: Board, width: int, height: int, zoom: int) -> int:
    """Columns for the map at ``zoom`` on a ``width`` x ``height`` screen: the whole map
    when it fits beside the panels (plus a scrollbar's column when it is taller than the
    screen), else what the panels leave."""
    columns, rows = ZOOMS[zoom].size(board)
    scrollbar = 1 if rows > height - 2 else 0
    needed = columns + scrollbar
    return max(12, min(needed, width - PANELS_MIN))
