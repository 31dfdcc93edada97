"""Fitting the game and replay screens to the terminal: the map's zoom and the panels'
share of the width, recomputed on every resize and zoom key.

The map takes the largest zoom level at which it fits whole beside the panels (or the
level the players chose with ``+`` / ``-``), and the panels take every column left over,
so a big terminal shows a big board and wide, unwrapped panel text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.geometry import Size
from textual.screen import Screen

from engine.game import Game
from tui.battlefield import Battlefield
from tui.cells import ZOOMS, Zoom
from tui.log_panel import LogPanel
from tui.panels import ModelPanel, PhasePanel
from tui.placement import auto_zoom, map_columns

LOG_BELOW = 8
"""Rows left free under a whole map from which the log moves there (the map's width,
the rest of the screen's height): a 36x36 Confrontation map at 200x60 leaves 22, the
72x48 wh40k6 map 10 (they stayed empty while the model card was cut)."""

LOG_COLUMNS = 40
"""The narrowest map the log moves under: an overview of a small table (a 48x32
Apocalypse table in 24x11 at 80x24) left 10 rows under it, and a log 24 columns wide."""

CARD_SHARE = 3
"""With the log under the map, the model card may take this fraction of the height
(one third: 19 rows at 60) instead of its 8 rows beside the log."""


def lay_out(screen: Screen[Any], size: Size) -> bool:
    """Zoom the screen's battlefield and size its left column for ``size``; True when the
    whole table is on screen (False: the map scrolls)."""
    field = screen.query_one(Battlefield)
    width, height = size
    zoom = field.zoom if field.zoom is not None else auto_zoom(field.board, width, height)
    field.set_zoom(ZOOMS[zoom])
    left = map_columns(field.board, width, height, zoom)
    screen.query_one("#game-left").styles.width = left
    screen.query_one(PhasePanel).fit(width - left - 2)  # the border and padding
    columns, rows = ZOOMS[zoom].size(field.board)
    under = height - 2 - rows if columns <= left else 0
    below = under >= LOG_BELOW and columns >= LOG_COLUMNS
    field.styles.height = rows if below else "1fr"
    logs = screen.query(LogPanel)
    if logs:
        place_log(logs.first(), "#game-left" if below else "#game-right")
    for card in screen.query(ModelPanel):
        # The right column's rows the log no longer takes go to the card (else the CSS's).
        card.styles.max_height = max(8, (height - 2) // CARD_SHARE) if below else None
    return columns <= left and rows <= height - 2


def each_log(screen: Screen[Any], update: Callable[[LogPanel, Game], None], game: Game) -> None:
    """``update`` the screen's log with ``game``: there is none for a moment while a resize
    moves it (`place_log`), and the one it mounts fills itself from the game. A game
    opened where the log moves at once (fatigue's table at 80x24) crashed looking it up."""
    for log in screen.query(LogPanel):
        update(log, game)


def place_log(log: LogPanel, column: str) -> None:
    """Move the game's log under the map (``#game-left``) or back to the panels: a new
    panel, filled from the game, takes the old one's place (a widget cannot be moved to
    another parent)."""
    if log.parent is None or f"#{log.parent.id}" == column:
        return
    screen = log.screen
    target = screen.query_one(column)
    if target.query_children(LogPanel):
        return  # moved there already: ``log`` is the old panel, still being removed
    game = getattr(screen, "game", None)
    log.remove()
    fresh = LogPanel(id=log.id)  # found by its id wherever it stands
    target.mount(fresh)
    if game is not None:
        fresh.show_game(game)


def zoom_by(screen: Screen[Any], step: int) -> None:
    """One zoom level in (``step`` 1) or out (-1); the map scrolls if it no longer fits."""
    field = screen.query_one(Battlefield)
    width, height = screen.size
    current = field.zoom if field.zoom is not None else auto_zoom(field.board, width, height)
    level = min(max(current + step, 0), len(ZOOMS) - 1)
    field.zoom = level
    lay_out(screen, screen.size)
    screen.notify(f"Zoom {level + 1} of {len(ZOOMS)}: {zoom_words(ZOOMS[level])}", timeout=2)


def zoom_words(zoom: Zoom) -> str:
    """What a zoom level draws, for the notice after ``+`` / ``-``."""
    if (zoom.across, zoom.down) != (1, 1):
        return f"overview, a character for {zoom.across}x{zoom.down} cells (+ zooms in)."
    return f"cells {zoom.width}x{zoom.height} characters."
