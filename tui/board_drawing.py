"""How the battlefield is drawn: Textual's line API over cached rows and cells.

`ScrollView.render_line` returns cached `Strip` rows, so a Decision offering hundreds of
cells costs one pass over the rows, and moving the cursor repaints two board rows (one to
three lines each, by zoom level). `BoardDrawing` holds what is drawn (the models, the lit
cells, the tints) and its caches; `tui.battlefield.Battlefield` adds the keys, the clicks
and what the game screen hands down.

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
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine.board import Board, Cell
from engine.view import ModelView, TerrainView
from tui.cells import Layers, cell_lines, objective_marks, terrain_class
from tui.kept_style import KeptStyle
from tui.overview import CONTACT, block_cells, both_sides, shown_cell

_StyleKey = tuple[str, int | None, Layers]


class BoardDrawing(KeptStyle, ScrollView):
    """The map's drawing state and caches, and the drawing itself."""

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
        self.set_reactive(BoardDrawing.cursor, Cell(board.width // 2, board.height // 2))

    def _base_styles(self) -> list[list[str]]:
        bases = [list(row) for row in self._terrain]
        for cell, feature in self._features.items():
            bases[cell.y][cell.x] = terrain_class(self.board, cell, feature)
        for cell in self._objectives:
            bases[cell.y][cell.x] = "objective"
        return bases

    def _drawn_rows(self, cells: Iterable[Cell]) -> set[int]:
        """The drawn rows (`_rows`' keys) showing ``cells``."""
        top, down = self.board.height - 1, self.down
        return {(top - cell.y) // down for cell in cells}

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
