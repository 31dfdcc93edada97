"""The game screen's keys that only look at the game: help, the map legend, the model
card, both sides' sheet, the whole log, zoom, and the map tints (sight, command range,
threat). None of them changes the game, so they work whoever is deciding, read-only or
over the network alike.

`GameScreen` (`tui.game_screen`) builds on this screen and supplies the game, its current
view, the selected model and the status line these keys redraw.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.screen import Screen

from engine.board import Cell
from engine.game import Game
from engine.view import GameView
from tui.battlefield import Battlefield
from tui.info import InfoScreen
from tui.layout import lay_out, zoom_by
from tui.legend import legend_text
from tui.text import SIDES_KEY, model_text, sides_sheet, threat_text
from tui.tints import Tint, Tints


class LookingScreen(Screen[None]):
    """The looking keys and the sheets they open, over a game drawn by a subclass."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help"),
        Binding("v", "sight", "Sight"),
        Binding("L", "show_log", "Whole log", priority=True),
        Binding("C", "range", "Command range", show=False, priority=True),
        Binding("plus,equals_sign", "zoom(1)", "Zoom in", show=False),
        Binding("minus", "zoom(-1)", "Zoom out", show=False),
        Binding("M", "legend", "Map legend", show=False),
        Binding("I", "card", "Model card", show=False),
        Binding(SIDES_KEY, "sides", "Both sides", show=False),
        Binding("T", "threat", "Threat and sight", show=False, priority=True),
    ]

    game: Game
    _view: GameView
    """The game's view as last drawn."""
    _anchor: str | None
    """The selected model: under the cursor, or the one the Decision is about."""
    _tints: Tints

    @property
    def battlefield(self) -> Battlefield:
        return self.query_one(Battlefield)

    def _show_cursor_status(self, cell: Cell, note: str = "") -> None:
        """Redraw the status line, the model panel and the tint for ``cell``."""
        raise NotImplementedError

    _told_overview = False
    """Whether the players were told that ``-`` shows the whole table (once a game)."""

    def on_resize(self, event: Resize) -> None:
        """The biggest map that fits; the panels take the rest. Where even the smallest
        cells leave part of the table off screen (a 72x48 wh40k6 table at 80x24), say
        once that ``-`` shows all of it: only the help named the key, and a new player
        scrolled about looking for the enemy."""
        whole = lay_out(self, event.size)
        if not whole and not self._told_overview and self.battlefield.zoom is None:
            self._told_overview = True
            self.notify("The table is bigger than the screen:\n- shows all of it, + zooms in.")

    def action_zoom(self, step: int) -> None:
        """Zoom the map in or out (``+`` / ``-``)."""
        zoom_by(self, step)

    def action_legend(self) -> None:
        """What every letter and mark on this map means."""
        sides = self.game.scenario.sides
        field = self.battlefield
        block = (field.across, field.down)
        text = legend_text(self.game.board, self._view, sides, field.cell_width, block)
        self.app.push_screen(InfoScreen("Map legend", text, key="M"))

    def action_card(self) -> None:
        """The selected model's whole card (every weapon), however small the panel."""
        view = self._view
        model = view.model(self._anchor) if self._anchor else None
        card = model_text(model)
        if self._tints.on == "threat":  # the panel may have cut the threat's words short
            card = threat_text(self._tints.threat.threat(self.game, view, model), view) + card
        self.app.push_screen(InfoScreen("Model card", card, key="I"))

    def action_sides(self) -> None:
        """Both sides' every resource: a narrow panel shows what fits on one line each."""
        self.app.push_screen(InfoScreen("Both sides", sides_sheet(self._view), key=SIDES_KEY))

    def action_help(self) -> None:
        """Key map and the ruleset's quick reference."""
        from tui.help import HelpScreen  # Markdown loads only when help is opened

        reference = self.game.ruleset.quick_reference()
        self.app.push_screen(HelpScreen([reference], self.seats_sentence()))

    def seats_sentence(self) -> str:
        """Who plays this game at this keyboard, for the help's first line."""
        from tui.help import seats_sentence

        return seats_sentence(self.game.computer)

    def _complete(self) -> bool:
        """Read the rest of the file the game was opened from into its logs, if only
        their end was read (before the whole log is shown, or the game written); False
        if it cannot be. Here the logs are always whole."""
        return True

    def action_show_log(self) -> None:
        """The whole game's log, scrollable and searchable (the panel shows the end)."""
        from tui.log_screen import LogScreen
        from tui.text import log_lines

        if not self._complete():
            return

        game = self.game
        lines = list(log_lines(game.rolls, game.events, game.scenario.sides))
        self.app.push_screen(LogScreen(lines, f"{game.scenario.name}: the whole log"))

    def action_threat(self) -> None:
        """Where the selected model can move and charge, and which enemies see or can
        reach it, with its cover from each (press again to clear)."""
        self._tint("threat")

    def action_sight(self) -> None:
        """Tint what the selected model can see (press again to clear)."""
        self._tint("sight")

    def action_range(self) -> None:
        """Tint the selected model's command range, where the rules have one (again: clear)."""
        if not self._view.ranges:
            self.notify("No command range in this game.")
            return
        self._tint("range")

    def _tint(self, tint: Tint) -> None:
        self._tints.toggle(tint, self.battlefield)
        self._show_cursor_status(self.battlefield.cursor)
