"""What each battlefield cell looks like: characters and style layers, as pure functions.

The battlefield widget asks these helpers for the text of one cell and the names of the
style layers that apply to it; it owns no drawing rules of its own, and these helpers own
no game rules (terrain kinds and heights come from the engine's `Board`, models from its
`GameView`). Kept free of Textual so they can be tested by plain string comparison.

Readable without colour (NO_COLOR, colour-blind players): the two sides differ in text
style as well as colour (seat 2 is drawn in reverse video) and, where a cell is two or more
characters wide, by a mark after the model's letter (``SIDE_MARKS``: ``S'`` and ``s"``, so a
Sergeant and a scrapling are not told apart by case alone), and at one character a cell by
seat 2's letter underlined with a combining mark (``NARROW_MARKS``); cells you may pick show a
``+`` when empty, and the cursor is underlined. Wider zoom levels draw each cell as a block
of ``width`` x ``height`` characters with the same text centred in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from engine.board import Board, Cell, Terrain
from engine.view import GameView, ModelView, TerrainView

TERRAIN_CHAR: dict[Terrain, str] = {
    Terrain.OPEN: ".",
    Terrain.COVER: "o",
    Terrain.BLOCKING: "#",
    Terrain.DIFFICULT: "~",
    Terrain.IMPASSABLE: "X",
}
"""One character per terrain kind, the same as the scenario files' default legend."""

RAISED_CHAR = "^"
"""Floors above ground (ruin platforms); the height follows in wide cells."""

OPTION_CHAR = "+"
"""Marks an empty cell that is an option of the pending Decision."""

TERRAIN_NAME: dict[Terrain, str] = {
    Terrain.OPEN: "open ground",
    Terrain.COVER: "cover",
    Terrain.BLOCKING: "wall",
    Terrain.DIFFICULT: "difficult ground",
    Terrain.IMPASSABLE: "impassable",
}

SIDE_MARKS = ("'", '"')
NARROW_MARKS = ("", "\u0332")
"""At the smallest zoom (one character a cell, no room for a mark) seat 2's letter carries
a combining low line (K̲): a character, so the sides differ without colour or text style
(both drew K). Only on the battlefield: plain-text rows keep one character per cell."""
"""Drawn after a model's letter in cells two or more characters wide: one tick for the
first seat, two for the second (readable without colour, and unlike any terrain mark)."""


class Zoom(NamedTuple):
    """One zoom level: how big a cell is drawn, or how many cells one character shows."""

    width: int
    """Characters a cell takes across."""
    height: int
    """Lines a cell takes down."""
    across: int = 1
    """Cells one character shows across: above 1 on the overview levels, which draw each
    block of ``across`` x ``down`` cells as one character (`tui.overview`)."""
    down: int = 1
    """Cells one character shows down."""

    def size(self, board: Board) -> tuple[int, int]:
        """The whole map's size in characters (columns, lines) at this level."""
        columns = -(-board.width // self.across)  # a partial block still takes a character
        lines = -(-board.height // self.down)
        return columns * self.width, lines * self.height


ZOOMS: tuple[Zoom, ...] = (
    Zoom(1, 1, 2, 3),
    Zoom(1, 1, 2, 2),
    Zoom(1, 1),
    Zoom(2, 1),
    Zoom(4, 2),
    Zoom(6, 3),
)
"""The zoom levels, smallest first: two overviews, a character for 2x3 cells (the whole
72x48 wh40k6 table in 36x16 at 80x24, and nearer its true shape, a character being about
twice as tall as it is wide) and for 2x2 (shaped as at 1x1), then cells of 1x1 to 6x3
characters: from 2x1 on the cells look square."""

ONE_TO_ONE = ZOOMS.index(Zoom(1, 1))
"""The smallest level that draws every cell: fitting the screen never goes below it (an
overview shows a block's most important cell only; the players choose it with ``-``)."""

LEGEND = (
    '. open   o cover   # wall   ~ difficult   X impassable   ^3 floor 3" high   '
    "O1 objective   + a cell you may pick   S' a model of seat 1   S\" of seat 2"
)
"""Shown on the help screen, next to the key map."""


class Layers(NamedTuple):
    """The overlays that apply to one cell, from least to most important."""

    zone: bool = False
    sight: bool = False
    reach: bool = False
    charge: bool = False
    threat: bool = False
    subject: bool = False
    option: bool = False
    cursor: bool = False


def objective_marks(board: Board, view: GameView | None = None) -> dict[Cell, str]:
    """Cell -> objective name: the map's markers and those the game placed."""
    marks = {objective.cell: objective.name for objective in board.objectives}
    if view is not None:
        marks.update((o.cell, o.name) for o in view.objectives)
    return marks


def feature_marks(view: GameView | None) -> dict[Cell, TerrainView]:
    """Cell -> the terrain the rules see there, where the view names it."""
    if view is None:
        return {}
    return {cell: feature for feature in view.terrain for cell in feature.cells}


def models_by_cell(models: Iterable[ModelView]) -> dict[Cell, ModelView]:
    """Cell -> the model standing there (models off the table are left out)."""
    return {m.cell: m for m in models if m.cell is not None and not m.removed}


def cell_text(
    board: Board,
    cell: Cell,
    width: int,
    *,
    model: ModelView | None = None,
    objective: str | None = None,
    option: bool = False,
    feature: TerrainView | None = None,
    narrow_marks: bool = False,
) -> str:
    """The ``width`` (1 or 2) characters drawn for ``cell`` (``feature``: the rules' terrain;
    ``narrow_marks``: one-character cells mark seat 2, `NARROW_MARKS`)."""
    if model is not None:
        glyph = model.glyph[:1] or "?"
        if width == 1:
            return glyph + (NARROW_MARKS[model.player % 2] if narrow_marks else "")
        return glyph + SIDE_MARKS[model.player % 2]
    if objective is not None:
        if width == 1:
            return objective[-1:] or "*"
        return objective[:2].ljust(2)
    z = board.z(cell)
    kind = board.kind(cell)
    if option:
        # Wide cells keep the terrain's mark beside the "+": woods you may move into
        # still read as woods ("&+").
        under = "" if width == 1 else terrain_mark(kind, z, feature)
        return (under + OPTION_CHAR) if under else OPTION_CHAR.ljust(width)
    if feature is not None:
        glyph = feature.glyph[:1] or "?"
        wall = feature.kind in (Terrain.BLOCKING, Terrain.IMPASSABLE)
        return glyph if width == 1 else glyph * 2 if wall else glyph + " "
    if z > 0 and kind is not Terrain.BLOCKING:
        return RAISED_CHAR if width == 1 else RAISED_CHAR + (str(z) if z < 10 else "+")
    char = TERRAIN_CHAR[kind]
    if width == 1:
        return char
    return char * 2 if kind in (Terrain.BLOCKING, Terrain.IMPASSABLE) else char + " "


def terrain_mark(kind: Terrain, z: int, feature: TerrainView | None) -> str:
    """The one character naming a cell's terrain, "" for open ground."""
    if feature is not None:
        return feature.glyph[:1] or "?"
    if z > 0 and kind is not Terrain.BLOCKING:
        return RAISED_CHAR
    return "" if kind is Terrain.OPEN else TERRAIN_CHAR[kind]


def cell_lines(
    board: Board,
    cell: Cell,
    width: int,
    height: int,
    *,
    model: ModelView | None = None,
    objective: str | None = None,
    option: bool = False,
    feature: TerrainView | None = None,
    narrow_marks: bool = False,
) -> tuple[str, ...]:
    """The ``height`` lines of ``width`` characters drawn for ``cell`` at any zoom level:
    the two-character text centred on the middle line, walls filled solid, and under a
    model its id when there is a line for it (so "A3" in the log can be found on the map)."""
    core = cell_text(
        board,
        cell,
        min(width, 2),
        model=model,
        objective=objective,
        option=option,
        feature=feature,
        narrow_marks=narrow_marks,
    )
    if width == len(core) and height == 1:
        return (core,)
    solid = model is None and objective is None and not option
    kind = board.kind(cell)
    if solid and kind in (Terrain.BLOCKING, Terrain.IMPASSABLE):
        return (TERRAIN_CHAR[kind] * width,) * height
    blank = " " * width
    lines = [blank] * height
    middle = (height - 1) // 2
    lines[middle] = core.strip().center(width) if model is None else core.center(width)
    if model is not None and height > 1:
        lines[middle + 1] = model.id[:width].center(width)
    return tuple(lines)


def terrain_class(board: Board, cell: Cell, feature: TerrainView | None = None) -> str:
    """The component class naming the cell's terrain style."""
    if feature is not None:
        return feature.kind.value
    if board.z(cell) > 0 and board.kind(cell) is not Terrain.BLOCKING:
        return "raised"
    return board.kind(cell).value


def not_an_option(
    board: Board, cell: Cell, model: ModelView | None, why: str = "", *, moving: bool = False
) -> str:
    """Why Enter on an unlit ``cell`` picked nothing, naming what is there when that is
    the reason: a model, a wall ("(14,16) is not an option" alone left the player to
    guess), else the rules' reason ``why`` (`Decision.why_not`: a formation move names
    the model that could not go). ``moving``: the model there is the one moving, which
    may not stay (a run: the cursor starts on the runner)."""
    kind = board.kind(cell)
    there = (
        f": {model.name} may not stay where it is" if model is not None and moving
        else f": {model.name} stands there" if model is not None and not model.removed
        else f": {TERRAIN_NAME[kind]}" if kind in (Terrain.BLOCKING, Terrain.IMPASSABLE)
        else f": {why}" if why
        else ""
    )  # fmt: skip
    return f"{cell} is not an option{there}. Move the cursor to a lit (+) cell."


def describe_cell(
    board: Board,
    cell: Cell,
    objective: str | None = None,
    feature: TerrainView | None = None,
    *,
    details: bool = True,
) -> str:
    """Plain words for the status line: "(12,4) cover, 3\" high, objective O1", or with the
    rules' terrain "(42,30) woods (difficult, 5+ cover)" ("(42,30) woods" without
    ``details``, for a narrow line)."""
    if feature is None:
        name = TERRAIN_NAME[board.kind(cell)]
    else:
        name = f"{feature.name} ({feature.detail})" if details else feature.name
    parts = [str(cell), name]
    z = board.z(cell)
    if z:
        parts.append(f'{z}" high')
    if objective:
        parts.append(f"objective {objective}")
    return " ".join(parts[:2]) + "".join(f", {p}" for p in parts[2:])


def render_rows(
    board: Board,
    models: Iterable[ModelView],
    width: int = 1,
    highlight: frozenset[Cell] = frozenset(),
    view: GameView | None = None,
    height: int = 1,
) -> list[str]:
    """The battlefield as plain text rows, north first (tests and the text replay)."""
    by_cell = models_by_cell(models)
    marks = objective_marks(board, view)
    features = feature_marks(view)
    rows: list[str] = []
    for y in range(board.height - 1, -1, -1):
        cells = [
            cell_lines(
                board,
                Cell(x, y),
                width,
                height,
                model=by_cell.get(Cell(x, y)),
                objective=marks.get(Cell(x, y)),
                option=Cell(x, y) in highlight,
                feature=features.get(Cell(x, y)),
            )
            for x in range(board.width)
        ]
        rows.extend("".join(lines[line] for lines in cells) for line in range(height))
    return rows


def visible_cells(board: Board, origin: Cell) -> frozenset[Cell]:
    """Cells with a line of sight from ``origin`` (the engine Board's own test)."""
    return frozenset(c for c in board.cells() if board.has_line_of_sight(origin, c))
