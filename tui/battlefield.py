"""The battlefield widget: the grid, the models, a cursor and the pending Decision's cells.

Drawn with Textual's line API (`ScrollView.render_line` returning cached `Strip` rows), so
a Decision offering hundreds of cells costs one pass over the rows, and moving the cursor
repaints two lines. The widget is dumb: the game screen hands it the board, the current
`GameView` and the pending `Decision` (attributes down); it reports the cell the player
picked (messages up) and never decides what a pick means.

North is at the top: board row ``y`` is drawn on line ``height - 1 - y``.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine.board import Board, Cell
from engine.decisions import Decision
from engine.view import GameView, ModelView, TerrainView
from tui.cells import (
    Layers,
    cell_text,
    feature_marks,
    models_by_cell,
    objective_marks,
    terrain_class,
)

_StyleKey = tuple[str, int | None, Layers]


class Battlefield(ScrollView, can_focus=True):
    """The map, scrolled when it is larger than its space on screen."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "battlefield--open",
        "battlefield--cover",
        "battlefield--blocking",
        "battlefield--difficult",
        "battlefield--impassable",
        "battlefield--raised",
        "battlefield--objective",
        "battlefield--side-0",
        "battlefield--side-1",
        "battlefield--zone",
        "battlefield--sight",
        "battlefield--subject",
        "battlefield--option",
        "battlefield--cursor",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(0, 1)", "North", show=False),
        Binding("down,j", "move(0, -1)", "South", show=False),
        Binding("left,h", "move(-1, 0)", "West", show=False),
        Binding("right,l", "move(1, 0)", "East", show=False),
        Binding("shift+up,K", "move(0, 5)", "North x5", show=False),
        Binding("shift+down,J", "move(0, -5)", "South x5", show=False),
        Binding("shift+left,H", "move(-5, 0)", "West x5", show=False),
        Binding("shift+right,L", "move(5, 0)", "East x5", show=False),
        Binding("enter,space", "pick", "Choose", show=False),
    ]

    class CellPicked(Message):
        """The player chose a cell (Enter on the cursor, or a click)."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    cursor: reactive[Cell] = reactive(Cell(0, 0), init=False, repaint=False)
    """The cell under the cursor (UI state only). The game screen watches it rather than
    waiting for a message, so the status line is drawn in the same frame as the cursor."""

    def __init__(self, board: Board, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.board = board
        self.cell_width = 1
        """Characters per cell: 2 when there is room (square-looking cells), else 1."""
        self._models: dict[Cell, ModelView] = {}
        self._options: frozenset[Cell] = frozenset()
        self._subject: Cell | None = None
        self._zones: frozenset[Cell] = frozenset()
        self._sight: frozenset[Cell] = frozenset()
        self._objectives = objective_marks(board)
        self._features: dict[Cell, TerrainView] = {}
        self._table: tuple[object, ...] = ((), ())
        """The view's terrain and objectives the bases were computed for."""
        self._bases = self._base_styles()
        """Each cell's base style name (terrain or objective), looked up once."""
        self._rows: dict[int, Strip] = {}
        self._plain: dict[int, list[Segment]] = {}
        self._special: set[Cell] = set()
        self._signature: tuple[object, ...] = ()
        self._style_check = True
        self._style_signature: tuple[Style, ...] = ()
        self._styles: dict[_StyleKey, Style] = {}
        self.virtual_size = Size(board.width, board.height)

    def _base_styles(self) -> tuple[tuple[str, ...], ...]:
        board = self.board
        return tuple(
            tuple(
                "objective"
                if Cell(x, y) in self._objectives
                else terrain_class(board, Cell(x, y), self._features.get(Cell(x, y)))
                for x in range(board.width)
            )
            for y in range(board.height)
        )

    # -- attributes down -------------------------------------------------------------

    def show(self, view: GameView, decision: Decision | None) -> None:
        """Draw this moment: models from ``view``, highlights from ``decision``'s options."""
        table = (view.terrain, view.objectives)
        if table != self._table:  # terrain placed, a wreck, a crater, an objective
            self._table = table
            self._objectives = objective_marks(self.board, view)
            self._features = feature_marks(view)
            self._bases = self._base_styles()
            self._plain.clear()
            self._rows.clear()
            self.refresh()
        self._models = models_by_cell(view.models)
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

    def set_cell_width(self, width: int) -> None:
        """Use ``width`` characters per cell (1 or 2)."""
        if width != self.cell_width:
            self.cell_width = width
            self.virtual_size = Size(self.board.width * width, self.board.height)
            self._plain.clear()
            self._rows.clear()
            self.refresh()
            self.refresh(layout=True)
            self.call_after_refresh(self._scroll_to_cursor)

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
        """A click moves the cursor there and chooses that cell."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        x = (offset.x + round(self.scroll_x)) // self.cell_width
        row = offset.y + round(self.scroll_y)
        if 0 <= x < self.board.width and 0 <= row < self.board.height:
            event.stop()
            self.cursor = Cell(x, self.board.height - 1 - row)
            self.post_message(self.CellPicked(self.cursor))

    def watch_cursor(self, old: Cell, new: Cell) -> None:
        for cell in (old, new):
            row = self.board.height - 1 - cell.y
            self._rows.pop(row, None)
            self.refresh_line(row)
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        w = self.cell_width
        row = self.board.height - 1 - self.cursor.y
        self.scroll_to_region(
            Region(self.cursor.x * w, row, w, 1), spacing=Spacing(2, 4, 2, 4), animate=False
        )

    # -- drawing ----------------------------------------------------------------------

    def _redraw(self) -> None:
        """Repaint the rows whose models or overlays changed (only those are re-rendered)."""
        special = (
            self._models.keys()
            | self._options
            | self._zones
            | self._sight
            | ({self._subject} if self._subject else set())
        )
        signature = (
            tuple(sorted((c, m.glyph, m.player) for c, m in self._models.items())),
            self._options,
            self._zones,
            self._sight,
            self._subject,
        )
        if signature == self._signature:
            return
        self._signature = signature
        top = self.board.height - 1
        for cell in special | self._special:
            self._rows.pop(top - cell.y, None)
        self._special = special
        self.refresh()

    def notify_style_update(self) -> None:
        # Focus changes restyle the widget too; keep the caches unless colours changed.
        self._style_check = True
        super().notify_style_update()

    def _check_styles(self) -> None:
        self._style_check = False
        signature = (self.rich_style, *(self._part(n[13:]) for n in sorted(self.COMPONENT_CLASSES)))
        if signature != self._style_signature:
            self._style_signature = signature
            self._styles.clear()
            self._plain.clear()
            self._rows.clear()

    def render_line(self, y: int) -> Strip:
        if self._style_check:
            self._check_styles()
        width = self.scrollable_content_region.width
        row = y + round(self.scroll_y)
        if not 0 <= row < self.board.height:
            return Strip.blank(width, self.rich_style)
        strip = self._rows.get(row)
        if strip is None:
            strip = self._rows[row] = self._render_row(row)
        start = round(self.scroll_x)
        return strip.crop_extend(start, start + width, self.rich_style)

    def _render_row(self, row: int) -> Strip:
        board = self.board
        y = board.height - 1 - row
        w = self.cell_width
        plain = self._plain_row(row)
        special = self._special
        cursor = self.cursor
        segments = []
        for x in range(board.width):
            cell = Cell(x, y)
            if cell not in special and cell != cursor:
                segments.append(plain[x])
                continue
            model = self._models.get(cell)
            objective = self._objectives.get(cell)
            option = cell in self._options
            layers = Layers(
                zone=cell in self._zones,
                sight=cell in self._sight,
                subject=cell == self._subject,
                option=option,
                cursor=cell == cursor,
            )
            text = cell_text(
                board,
                cell,
                w,
                model=model,
                objective=objective,
                option=option,
                feature=self._features.get(cell),
            )
            base = self._bases[cell.y][cell.x]
            side = None if model is None else model.player % 2
            segments.append(Segment(text, self._style(base, side, layers)))
        return Strip(segments, board.width * w).simplify()

    def _plain_row(self, row: int) -> list[Segment]:
        """The row's cells with no model and no overlay (cached until the styles change)."""
        plain = self._plain.get(row)
        if plain is None:
            board = self.board
            y = board.height - 1 - row
            plain = []
            for x in range(board.width):
                cell = Cell(x, y)
                objective = self._objectives.get(cell)
                feature = self._features.get(cell)
                text = cell_text(board, cell, self.cell_width, objective=objective, feature=feature)
                base = self._bases[cell.y][cell.x]
                plain.append(Segment(text, self._style(base, None, Layers())))
            self._plain[row] = plain
        return plain

    def _style(self, base: str, side: int | None, layers: Layers) -> Style:
        key = (base, side, layers)
        style = self._styles.get(key)
        if style is None:
            part = self._part
            style = self.rich_style + part(base)
            if side is not None:
                style += part(f"side-{side}")
            for name, on in zip(Layers._fields, layers, strict=True):
                if on:
                    style += part(name)
            self._styles[key] = style
        return style

    def _part(self, name: str) -> Style:
        return self.get_component_rich_style(f"battlefield--{name}", partial=True)
