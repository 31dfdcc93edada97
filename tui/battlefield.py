"""The battlefield widget: the grid, the models, a cursor and the pending Decision's cells.

Drawn with Textual's line API (`ScrollView.render_line` returning cached `Strip` rows), so
a Decision offering hundreds of cells costs one pass over the rows, and moving the cursor
repaints two board rows (one to three lines each, by zoom level). The widget is dumb: the
game screen hands it the board, the current `GameView` and the pending `Decision`
(attributes down); it reports the cell the player picked (messages up) and never decides
what a pick means.

North is at the top: board row ``y`` is drawn from line ``(height - 1 - y) * cell_height``.
On the overview levels (`tui.overview`) one character stands for a block of ``across`` x
``down`` cells: board row ``y`` is then drawn on line ``(height - 1 - y) // down``, and the
cursor still moves cell by cell (its block is highlighted; the status line names its cell).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
from engine.threat import Threat
from engine.view import GameView, ModelView, TerrainView
from tui.cells import (
    Layers,
    Zoom,
    cell_lines,
    feature_marks,
    models_by_cell,
    objective_marks,
    terrain_class,
)
from tui.kept_style import KeptStyle
from tui.overview import CONTACT, block_cells, both_sides, shown_cell

_StyleKey = tuple[str, int | None, Layers]


class Battlefield(KeptStyle, ScrollView, can_focus=True):
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
        "battlefield--reach",
        "battlefield--charge",
        "battlefield--threat",
        "battlefield--subject",
        "battlefield--option",
        "battlefield--cursor",
    }

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

    cursor: reactive[Cell] = reactive(Cell(0, 0), init=False, repaint=False)
    """The cell under the cursor (UI state only). The game screen watches it rather than
    waiting for a message, so the status line is drawn in the same frame as the cursor."""

    def __init__(self, board: Board, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.board = board
        self.cell_width = 1
        """Characters per cell across (1, 2, 4 or 6: see `tui.cells.ZOOMS`)."""
        self.cell_height = 1
        """Lines per cell (1, 2 or 3)."""
        self.across = 1
        """Cells one character shows across (above 1: an overview level)."""
        self.down = 1
        """Cells one character shows down."""
        self.zoom: int | None = None
        """The zoom level the players chose (an index of `ZOOMS`); None: fit the screen."""
        self._models: dict[Cell, ModelView] = {}
        self._sides: dict[Cell, int] = {}
        """Each model's cell and its side (0 or 1): which overview blocks hold both."""
        self._options: frozenset[Cell] = frozenset()
        self._subject: Cell | None = None
        self._zones: frozenset[Cell] = frozenset()
        self._sight: frozenset[Cell] = frozenset()
        self._threat: tuple[frozenset[Cell], frozenset[Cell], frozenset[Cell]] = (
            frozenset(),
            frozenset(),
            frozenset(),
        )
        """Cells the selected model moves to, charges to, and the enemies menacing it (T)."""
        self._objectives = objective_marks(board)
        self._features: dict[Cell, TerrainView] = {}
        self._table: tuple[object, ...] = ((), ())
        """The view's terrain and objectives the bases were computed for."""
        self._terrain = tuple(
            tuple(terrain_class(board, Cell(x, y)) for x in range(board.width))
            for y in range(board.height)
        )
        """Each cell's style name from the board alone (the view's terrain goes over it)."""
        self._bases = self._base_styles()
        """Each cell's base style name (terrain or objective), [y][x]."""
        self._rows: dict[int, tuple[Strip, ...]] = {}
        """Drawn row (a board row north first, or a line of blocks) -> its drawn lines."""
        self._plain: dict[int, list[tuple[Segment, ...]]] = {}
        self._special: set[Cell] = set()
        self._special_blocks: dict[int, set[int]] | None = None
        """Overview line -> the columns of its blocks holding a special cell (built when
        first drawn)."""
        self._looks: dict[Cell, tuple[object, ...]] = {}
        """Cell -> `_look` of every cell drawn other than plain, as last drawn."""
        self._drawn: dict[tuple[object, ...], tuple[Segment, ...]] = {}
        """(cell, look, under the cursor) -> its drawn lines: a row redrawn after a choice
        mostly holds cells that look as they did (lit cells, a deployment zone)."""
        self._style_check = True
        self._style_signature: tuple[Style, ...] = ()
        self._styles: dict[_StyleKey, Style] = {}
        self.virtual_size = Size(board.width, board.height)
        # Until a Decision lights a cell, the cursor waits in the middle of the map.
        self.set_reactive(Battlefield.cursor, Cell(board.width // 2, board.height // 2))

    def _base_styles(self) -> list[list[str]]:
        bases = [list(row) for row in self._terrain]
        for cell, feature in self._features.items():
            bases[cell.y][cell.x] = terrain_class(self.board, cell, feature)
        for cell in self._objectives:
            bases[cell.y][cell.x] = "objective"
        return bases

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

    def _drawn_rows(self, cells: Iterable[Cell]) -> set[int]:
        """The drawn rows (`_rows`' keys) showing ``cells``."""
        top, down = self.board.height - 1, self.down
        return {(top - cell.y) // down for cell in cells}

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

    # -- drawing ----------------------------------------------------------------------

    def _redraw(self) -> None:
        """Repaint only the rows where a cell now looks different (a model placed, an
        option lit or put out): after a choice that is a few rows, not the whole map."""
        special = (
            self._models.keys()
            | self._options
            | self._zones
            | self._sight
            | self._threat[0]
            | self._threat[1]
            | self._threat[2]
            | ({self._subject} if self._subject else set())
        )
        looks = {cell: self._look(cell) for cell in special}
        old = self._looks
        if looks == old:
            return
        self._looks = looks
        self._special = special
        self._special_blocks = None
        for row in self._drawn_rows(changed(old, looks)):
            if self._rows.pop(row, None) is not None:
                self.refresh_lines(row * self.cell_height, self.cell_height)

    def _look(self, cell: Cell) -> tuple[object, ...]:
        """What decides how a cell with a model or an overlay is drawn (cursor aside)."""
        model = self._models.get(cell)
        threat = self._threat
        return (
            None if model is None else (model.glyph, model.player, model.id),
            cell in self._options,
            cell in self._zones,
            cell in self._sight,
            cell in threat[0],
            cell in threat[1],
            cell in threat[2],
            cell == self._subject,
        )

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
            self._drawn.clear()
            self._rows.clear()

    def render_line(self, y: int) -> Strip:
        if self._style_check:
            self._check_styles()
        width = self.scrollable_content_region.width
        row, line = divmod(y + round(self.scroll_y), self.cell_height)
        if not 0 <= row * self.down < self.board.height:
            return Strip.blank(width, self.rich_style)
        strips = self._rows.get(row)
        if strips is None:
            strips = self._rows[row] = self._render_row(row)
        start = round(self.scroll_x)
        return strips[line].crop_extend(start, start + width, self.rich_style)

    def _render_row(self, row: int) -> tuple[Strip, ...]:
        """A drawn row's lines: a board row's cells, or on an overview a line of blocks."""
        board, across, down, cursor = self.board, self.across, self.down, self.cursor
        top = board.height - 1
        blocks = self._special_blocks
        if blocks is None:
            blocks = self._special_blocks = {}
            for cell in self._special:
                blocks.setdefault((top - cell.y) // down, set()).add(cell.x // across)
        special = blocks.get(row, set())
        if (top - cursor.y) // down == row:
            special = special | {cursor.x // across}
        plain = self._plain_row(row)
        looks = self._looks
        drawn_cells: list[tuple[Segment, ...]] = []
        for column, lines in enumerate(plain):
            if column not in special:
                drawn_cells.append(lines)
                continue
            cells = block_cells(board, column, row, across, down)
            here = cursor if cursor in cells else None
            key = (column, row, tuple(looks.get(c) for c in cells), here)
            drawn = self._drawn.get(key)
            if drawn is None:
                if len(self._drawn) > self.DRAWN_KEPT:
                    self._drawn.clear()
                drawn = self._drawn[key] = self._draw_cell(cells, here)
            drawn_cells.append(drawn)
        width = len(plain) * self.cell_width
        return tuple(
            Strip([c[line] for c in drawn_cells], width).simplify()
            for line in range(self.cell_height)
        )

    DRAWN_KEPT = 20_000
    """Drawn cells kept (a 72x48 map's cells in a few looks each)."""

    def _draw_cell(self, cells: list[Cell], cursor: Cell | None) -> tuple[Segment, ...]:
        """The lines of a cell with a model or an overlay (or the ``cursor``) on it; on an
        overview, of a block of ``cells``: its most important cell with every overlay any
        of them has."""
        models, options, threat = self._models, self._options, self._threat
        shown = self._shown(cells, cursor)
        layers = Layers(
            zone=any(c in self._zones for c in cells),
            sight=any(c in self._sight for c in cells),
            reach=any(c in threat[0] for c in cells),
            charge=any(c in threat[1] for c in cells),
            threat=any(c in threat[2] for c in cells),
            subject=self._subject in cells,
            option=any(c in options for c in cells),
            cursor=cursor is not None,
        )
        model = models.get(shown)
        lines = cell_lines(
            self.board,
            shown,
            self.cell_width,
            self.cell_height,
            model=model,
            objective=self._objectives.get(shown),
            option=shown in options,
            feature=self._features.get(shown),
            narrow_marks=True,
        )
        side = None if model is None else model.player % 2
        if cursor is None and len(cells) > 1 and both_sides(cells, self._sides):
            lines, side = (CONTACT * self.cell_width,) * len(lines), None  # no underline
        style = self._style(self._bases[shown.y][shown.x], side, layers)
        return tuple(Segment(text, style) for text in lines)

    def _shown(self, cells: list[Cell], cursor: Cell | None) -> Cell:
        """The cell a block of ``cells`` is drawn as (`tui.overview.shown_cell`): the
        ``cursor``'s own where it is in the block, so what is drawn under the cursor is what
        the status line describes and Enter picks (a lit "+" beside it is not), and each
        step inside a block shows."""
        if cursor is not None or len(cells) == 1:
            return cells[0] if cursor is None else cursor
        return shown_cell(
            self.board,
            cells,
            models=self._models,
            objectives=self._objectives,
            options=self._options,
            features=self._features,
            first=(self._subject,),
        )

    def _plain_row(self, row: int) -> list[tuple[Segment, ...]]:
        """The drawn row's cells (or blocks) with no model and no overlay (cached until the
        styles change)."""
        plain = self._plain.get(row)
        if plain is None:
            board, across, down = self.board, self.across, self.down
            w, h = self.cell_width, self.cell_height
            plain = []
            for column in range(-(-board.width // across)):
                cells = block_cells(board, column, row, across, down)
                shown = cells[0]
                if len(cells) > 1:
                    shown = shown_cell(
                        board, cells, models=(), objectives=self._objectives, options=(),
                        features=self._features,
                    )  # fmt: skip
                objective = self._objectives.get(shown)
                feature = self._features.get(shown)
                lines = cell_lines(board, shown, w, h, objective=objective, feature=feature)
                style = self._style(self._bases[shown.y][shown.x], None, Layers())
                plain.append(tuple(Segment(text, style) for text in lines))
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


def changed(old: Mapping[Cell, object], new: Mapping[Cell, object]) -> set[Cell]:
    """The cells where ``old`` and ``new`` differ (in one only, or with another value)."""
    cells = set(old.keys() ^ new.keys())
    cells.update(c for c, value in new.items() if c in old and old[c] != value)
    return cells
