"""What each mark on the battlefield means, for this map and these forces.

Built from the engine's `Board` and `GameView` (which letters the models use, which
terrain the map has), so the legend names only what the players can see; the words for
terrain are `tui.cells`' own. No Textual here: `tui.info.InfoScreen` shows the result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text

from engine.board import Board, Terrain
from engine.view import GameView
from tui.cells import (
    NARROW_MARKS,
    OPTION_CHAR,
    RAISED_CHAR,
    SIDE_MARKS,
    TERRAIN_CHAR,
    TERRAIN_NAME,
)
from tui.text import side_style

_MODEL_ID = re.compile(r"\s*\b[A-Z]\d+(?:\.\d+)*\b\s*")
"""A model's id inside its name ("A1 Militia Sergeant", "Bogfen Cutthroat B2.1")."""

_NUMBERED = re.compile(r" \d+$")
"""A terrain piece's number ("ruins 2"): the legend names the kind once."""


def model_kind(name: str) -> str:
    """A model's name without its id: the same for every model of a kind."""
    return " ".join(_MODEL_ID.sub(" ", name).split()) or name


def legend_text(
    board: Board,
    view: GameView,
    sides: Sequence[str],
    width: int = 2,
    block: tuple[int, int] = (1, 1),
) -> Text:
    """Every letter and mark on this map: each side's models, then terrain and overlays.
    Models are shown as cells ``width`` characters wide draw them: a one-character cell
    has no room for the mark after the letter, and underlines seat 2's instead. On an
    overview (``block``: cells a character shows across and down) it says what a character
    stands for."""
    text = Text("Models", "bold underline")
    for seat, side in enumerate(sides):
        mark = SIDE_MARKS[seat % 2] if width > 1 else NARROW_MARKS[seat % 2]
        how = "bold" if seat % 2 == 0 else "bold, reverse video"
        style = side_style(seat) + ("" if seat % 2 == 0 else " reverse")
        text.append(f"\n\n{side}", side_style(seat))
        said = (
            "letter" if not mark else "letter underlined" if width == 1 else f"letter then {mark}"
        )
        text.append(f" (seat {seat + 1}): {said}")
        text.append(f" ({how})")
        kinds: dict[str, list[str]] = {}
        for model in view.models:
            if model.player == seat:
                names = kinds.setdefault(model.glyph[:1] or "?", [])
                name = model_kind(model.name)
                if name not in names:
                    names.append(name)
        if not kinds:
            text.append("\n  no models on the table yet", "dim")
        for glyph in sorted(kinds, key=lambda g: (g.lower(), g)):
            text.append("\n  ")
            text.append(f"{glyph}{mark}", style)
            text.append(" " * (3 - cell_len(mark)) + ", ".join(kinds[glyph]))
    text.append(
        "\n\nZoomed in (+), a mark follows the letter: "
        + " for seat 1, ".join(SIDE_MARKS)
        + " for seat 2."
        if width == 1
        else "\n\nAt the smallest zoom a cell is one character: seat 2's letter is underlined.",
        "dim",
    )
    if block != (1, 1):
        text.append(
            f"\n\nZoomed out (-), a character shows {block[0]}x{block[1]} cells: a model there,"
            " else an objective, a cell you may pick, a wall, other terrain, open ground;"
            " × where models of both sides stand (a fight). The"
            " cursor still moves cell by cell, its block highlighted and showing the cell under"
            " it (the status line names it). + zooms back in.",
            "dim",
        )
    text.append("\n\nMap", "bold underline")
    cells = list(board.cells())
    named = {c for feature in view.terrain for c in feature.cells}
    kinds_here = {board.kind(c) for c in cells if c not in named}
    for terrain in Terrain:
        if terrain in kinds_here:
            text.append(f"\n  {TERRAIN_CHAR[terrain]}   {TERRAIN_NAME[terrain]}")
    lines: list[str] = []
    for feature in view.terrain:
        line = f"{feature.glyph[:1] or '?'}   {_NUMBERED.sub('', feature.name)} ({feature.detail})"
        if line not in lines:
            lines.append(line)
            text.append(f"\n  {line}")
    if any(board.z(c) > 0 and board.kind(c) is not Terrain.BLOCKING for c in cells):
        text.append(f'\n  {RAISED_CHAR}3  a floor 3" high (the digit is its height)')
    for objective in board.objectives:
        text.append(f"\n  {objective.name}  objective {objective.name} at {objective.cell}")
    for placed in view.objectives:
        text.append(f"\n  {placed.name}  {placed.label} at {placed.cell}")
    text.append(
        f"\n  {OPTION_CHAR}   a cell you may pick now (lit); &{OPTION_CHAR} one in woods, and so on"
    )
    text.append("\n      the cursor: underlined, highlighted")
    text.append("\n      tinted cells: deployment zones, or what a model sees (v)")
    return text
