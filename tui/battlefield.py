"""The battlefield widget: the grid, the models, a cursor and the pending Decision's cells.

Drawn as `tui.board_drawing` says (cached rows of Textual's line API). The widget is dumb: the
game screen hands it the board, the current `GameView` and the pending `Decision`
(attributes down); it reports the cell the player picked (messages up) and never decides
what a pick means. The cursor moves cell by cell, also on an overview level where one
character stands for a block of cells (its block is highlighted; the status line names its
cell).
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message

from engine.board import Cell
from engine.decisions import Decision
from engine.threat import Threat
from engine.view import GameView, ModelView, TerrainView
from tui.board_drawing import BoardDrawing, changed
from tui.cells import (
    Zoom,
    feature_marks,
    models_by_cell,
    objective_marks,
)
from tui.overview import block_cells


class Battlefield(BoardDrawing, can_focus=True):
    """The map, scrolled when it is larger than its space on screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(0, 1)", "North", show=False),
        Binding("down,j", "move(0, -1)", "South", show=False),
        Binding("left,h", "move(-1, 0)", "West", show=False),
        Binding("right,l", "move(1, 0)", "East", show=False),
        # Shift+arrows only: capital letters open views (L the log; Shift+l moved the
        # cursor in the help's words but opened the log).
        Binding("shift+up", "move(0, 5)", "North x5", show=False),
        Binding("shift+down", "move(0, -5)", "South x5", show=False),
        Binding("shift+left", "move(-5, 0)", "West x5", show=False),
        Binding("shift+right", "move(5, 0)", "East x5", show=False),
        Binding("enter,space", "pick", "Choose", show=False),
    ]

    class CellPicked(Message):
        """The player chose a cell (Enter on the cursor, or a click)."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    # -- attributes down -------------------------------------------------------------

    def show(self, view: GameView, decision: Decision | None) -> None:
        """Draw this moment: models from ``view``, highlights from ``decision``'s options."""
        table = (view.terrain, view.objectives)
        if table != self._table:  # terrain placed, a wreck, a crater, an objective
            self._table = table
            objectives = objective_marks(self.board, view)
            features = feature_marks(view)
            moved = changed(self._objectives, objectives) | changed(self._features, features)
            self._objectives, self._features = objectives, features
            self._bases = self._base_styles()
            if moved:
                self._drawn.clear()
            for row in self._drawn_rows(moved):
                self._plain.pop(row, None)
                self._rows.pop(row, None)
                self.refresh_lines(row * self.cell_height, self.cell_height)
        self._models = models_by_cell(view.models)
        self._sides = {cell: m.player % 2 for cell, m in self._models.items()}
        cells = () if decision is None else (o.cell for o in decision.options)
        self._options = frozenset(c for c in cells if c is not None)
        subject = None
        if decision is not None and decision.subject is not None:
            model = view.model(decision.subject)
            subject = None if model is None else model.cell
        self._subject = subject
        self._zones = frozenset().union(*(cells for _, cells in view.zones))
        self._redraw()

    def show_sight(self, cells: frozenset[Cell]) -> None:
        """Tint these cells (what the selected model can see); empty to clear."""
        self._sight = cells
        self._redraw()

    def show_threat(self, threat: Threat | None) -> None:
        """Tint where the selected model moves and charges, and mark the enemies that see
        or can reach it (the ruleset's `Threat`); None to clear."""
        empty: frozenset[Cell] = frozenset()
        self._threat = (
            (empty, empty, empty)
            if threat is None
            else (threat.move, threat.charge, threat.menace_cells)
        )
        self._redraw()

    @property
    def threat_cells(self) -> tuple[frozenset[Cell], frozenset[Cell], frozenset[Cell]]:
        """What `show_threat` tints: move cells, charge cells, menacing enemies' cells."""
        return self._threat

    def set_zoom(self, zoom: Zoom) -> None:
        """Draw each cell ``zoom.width`` characters wide and ``zoom.height`` lines high, or
        each block of ``zoom.across`` x ``zoom.down`` cells as one character."""
        if zoom != (self.cell_width, self.cell_height, self.across, self.down):
            self.cell_width, self.cell_height, self.across, self.down = zoom
            self.virtual_size = Size(*zoom.size(self.board))
            self._special_blocks = None
            self._plain.clear()
            self._drawn.clear()
            self._rows.clear()
            self.refresh()
            self.refresh(layout=True)
            self.call_after_refresh(self.scroll_to_cursor)

    def model_at(self, cell: Cell) -> ModelView | None:
        """The model drawn on ``cell``, if any."""
        return self._models.get(cell)

    def objective_at(self, cell: Cell) -> str | None:
        """The objective marker drawn on ``cell``, if any."""
        return self._objectives.get(cell)

    def feature_at(self, cell: Cell) -> TerrainView | None:
        """The terrain the rules see on ``cell``, where the view names it."""
        return self._features.get(cell)

    # -- input ------------------------------------------------------------------------

    def action_move(self, dx: int, dy: int) -> None:
        """Move the cursor, stopping at the edges."""
        x = min(max(self.cursor.x + dx, 0), self.board.width - 1)
        y = min(max(self.cursor.y + dy, 0), self.board.height - 1)
        self.cursor = Cell(x, y)

    def action_pick(self) -> None:
        """Choose the cell under the cursor."""
        self.post_message(self.CellPicked(self.cursor))

    def on_click(self, event: events.Click) -> None:
        """A click moves the cursor there and chooses that cell; on an overview it only
        moves the cursor onto the cell the block shows (the model clicked on: a character
        is several cells, too coarse to choose one)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        column = (offset.x + round(self.scroll_x)) // self.cell_width
        row = (offset.y + round(self.scroll_y)) // self.cell_height
        if (
            0 <= column * self.across < self.board.width
            and 0 <= row * self.down < self.board.height
        ):
            event.stop()
            cells = block_cells(self.board, column, row, self.across, self.down)
            self.cursor = self._shown(cells, None)
            if len(cells) == 1:
                self.post_message(self.CellPicked(self.cursor))

    def watch_cursor(self, old: Cell, new: Cell) -> None:
        for row in self._drawn_rows((old, new)):
            self._rows.pop(row, None)
            self.refresh_lines(row * self.cell_height, self.cell_height)
        self.scroll_to_cursor()

    def on_resize(self) -> None:
        # The first layout (and every later one) may leave the cursor out of view.
        self.scroll_to_cursor()

    def scroll_to_cursor(self) -> None:
        """Bring the cursor into view (after a resize, a zoom, or `show_cell` elsewhere)."""
        self.show_cell(self.cursor)

    def show_cell(self, cell: Cell) -> None:
        """Scroll as little as it takes for ``cell`` to be in view; the cursor stays."""
        w, h = self.cell_width, self.cell_height
        row = (self.board.height - 1 - cell.y) // self.down
        margin = Spacing(2 * h, 4, 2 * h, 4)
        self.scroll_to_region(
            Region(cell.x // self.across * w, row * h, w, h), spacing=margin, animate=False
        )
