"""The map tints the game screen's keys toggle, one at a time: what the selected model
sees (``v``), its command range (``C``), or its threat (``T``: where it moves and
charges, and the enemies that see or reach it).

The screen re-applies the tint on every cursor move and choice, because the selected
model and the game's moment decide what is tinted; this holds only which tint is on.
"""

from __future__ import annotations

from typing import Literal

from rich.text import Text

from engine.game import Game
from engine.view import GameView, ModelView
from tui.battlefield import Battlefield
from tui.cells import visible_cells
from tui.text import threat_text
from tui.threat_key import ThreatKey

Tint = Literal["sight", "range", "threat"]


class Tints:
    """Which tint is on (None: no tint), with the threat key's kept answer."""

    def __init__(self) -> None:
        self.on: Tint | None = None
        self.threat = ThreatKey()

    def toggle(self, tint: Tint, field: Battlefield) -> None:
        """Turn ``tint`` on (any other off), or off if it was on; clears the map's tints
        (`apply` draws the one now on)."""
        self.on = None if self.on == tint else tint
        self.threat.on = self.on == "threat"
        field.show_sight(frozenset())
        field.show_threat(None)

    def apply(
        self, field: Battlefield, game: Game, view: GameView, model: ModelView | None
    ) -> Text | None:
        """Tint the map for ``model``; the threat's words for the model panel, if on."""
        if self.on == "threat":
            threat = self.threat.threat(game, view, model)
            field.show_threat(threat)
            return threat_text(threat, view)
        if self.on == "sight":
            cell = None if model is None else model.cell
            field.show_sight(frozenset() if cell is None else visible_cells(game.board, cell))
        elif self.on == "range":
            ranges = [r for r in view.ranges if model is not None and model.id in r.models]
            field.show_sight(ranges[0].cells if ranges else frozenset())
        return None
