"""The game screen: owns the `Game`, and is the only place a Choice enters it.

Attributes down: after every change it hands the battlefield, the panels and the log the
engine's current view and pending Decision. Messages up: the battlefield reports picked
cells, the decision panel picked options; this screen turns a pick into a `Choice` only
when the Decision offers it (the engine validates again). Keys go through `BINDINGS` to
``action_*``. No game rule is computed here: highlights are the Decision's options, and
ranges and sight lines are the engine `Board`'s own measurements.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen

from engine.board import Cell
from engine.decisions import Choice, Decision, Option
from engine.errors import IllegalChoiceError, UndoRefusedError
from engine.game import Game
from engine.save import autosave, write_save
from tui.battlefield import Battlefield
from tui.cells import describe_cell, objective_marks
from tui.modals import GameOverScreen, HandOverScreen
from tui.panels import DecisionPanel, KeyBar, LogPanel, ModelPanel, PhasePanel, StatusLine
from tui.summary import headline, summary
from tui.text import DIGIT_KEYS, log_lines, seat_name, side_style

RIGHT_PANEL_MIN = 40
"""Columns kept for the panels before the battlefield may use two characters per cell."""


class GameScreen(Screen[None]):
    """Battlefield on the left; phase, decision, model and log panels on the right."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("u", "undo", "Undo"),
        Binding("escape", "undo", "Undo", show=False),
        Binding("n", "next_option(1)", "Next option"),
        Binding("p", "next_option(-1)", "Previous option", show=False),
        Binding("v", "sight", "Sight"),
        Binding("s", "save", "Save"),
        Binding("o", "toggle_handover", "Hand-over", show=False),
        Binding("q", "leave", "Menu"),
        *(Binding(d, f"pick_index({i})", show=False) for i, d in enumerate(DIGIT_KEYS)),
    ]

    def __init__(
        self,
        game: Game,
        *,
        save_path: Path | None = None,
        handover: bool = True,
        read_only: bool = False,
    ) -> None:
        super().__init__()
        self.game = game
        self.save_path = save_path
        self.handover = handover
        """Show the hand-over screen when the deciding player changes (always for secrets)."""
        self.read_only = read_only
        self._listener: Callable[[Game], None] | None = None
        self._shown_player = None if game.pending is None else game.pending.player
        self._anchor: str | None = None
        self._sight_on = False
        self._objectives = objective_marks(game.board)
        self._logged = (0, 0)
        self._view = game.view()

    def compose(self) -> ComposeResult:
        with Horizontal(id="game-main"):
            with Vertical(id="game-left"):
                yield Battlefield(self.game.board, id="battlefield")
            with Vertical(id="game-right"):
                yield PhasePanel(id="phase")
                yield DecisionPanel(id="decision")
                yield ModelPanel(id="model")
                yield LogPanel(id="log")
        yield StatusLine(id="status")
        yield KeyBar(id="keys")

    @property
    def battlefield(self) -> Battlefield:
        return self.query_one(Battlefield)

    @property
    def decision_panel(self) -> DecisionPanel:
        return self.query_one(DecisionPanel)

    def on_mount(self) -> None:
        if self.save_path is not None and not self.read_only:
            self._listener = autosave(self.game, self.save_path)
        self._rebuild_log()
        self.watch(self.battlefield, "cursor", self._cursor_moved, init=False)
        self._refresh(new_decision=True)
        if self.game.pending is not None and self.game.pending.hidden:
            self._hand_over(self.game.pending, previous_hidden=False, force=True)
        elif self.game.is_over and not self.read_only:
            self._game_over()

    def on_unmount(self) -> None:
        if self._listener is not None and self._listener in self.game.listeners:
            self.game.listeners.remove(self._listener)

    def on_resize(self, event: Resize) -> None:
        """Two characters per cell when there is room; scroll when the map does not fit."""
        board = self.game.board
        width, height = event.size
        cell_width = 2 if width >= 2 * board.width + RIGHT_PANEL_MIN else 1
        self.battlefield.set_cell_width(cell_width)
        rows = height - 2  # the status line and the footer
        needed = board.width * cell_width + (1 if board.height > rows else 0)
        left_width = max(12, min(needed, width - RIGHT_PANEL_MIN))
        self.query_one("#game-left").styles.width = left_width
        self.query_one(PhasePanel).fit(width - left_width - 2)  # the border and padding

    # -- showing the game ---------------------------------------------------------------

    def _refresh(self, *, new_decision: bool) -> None:
        game = self.game
        view = self._view = game.view()
        decision = game.pending
        self.query_one(PhasePanel).show(view, decision, game.players)
        self.battlefield.show(view, decision)
        note = ("Read-only: this game is shown as saved." if self.read_only
                else "Game over. Enter shows the result; q returns to the menu.")
        self.decision_panel.show(None if self.read_only else decision, note)
        if new_decision and decision is not None:
            if decision.subject is not None:
                self._anchor = decision.subject
            self._place_cursor(decision)
            cells = any(o.cell is not None for o in decision.options)
            target = self.battlefield if cells else self.decision_panel.option_list
            if not target.has_focus:
                target.focus()
        self._show_cursor_status(self.battlefield.cursor)

    def _place_cursor(self, decision: Decision) -> None:
        """Start on the Decision's model if it is an option, else on the first lit cell."""
        view = self._view
        subject = view.model(decision.subject) if decision.subject else None
        cells = [o.cell for o in decision.options if o.cell is not None]
        if subject is not None and subject.cell is not None and subject.cell in cells:
            self.battlefield.cursor = subject.cell
        elif cells:
            self.battlefield.cursor = cells[0]
        elif subject is not None and subject.cell is not None:
            self.battlefield.cursor = subject.cell

    def _cursor_moved(self, cell: Cell) -> None:
        self._show_cursor_status(cell)

    def _show_cursor_status(self, cell: Cell, note: str = "") -> None:
        board = self.game.board
        text = Text(describe_cell(board, cell, self._objectives.get(cell)))
        here = self.battlefield.model_at(cell)
        if here is not None:
            text.append(" · ")
            text.append(here.name, side_style(here.player))
            self._anchor = here.id
        anchor = self._view.model(self._anchor) if self._anchor else None
        decision = self.game.pending
        # Measure from the model the Decision is about (the shooter, the mover), if any.
        subject = decision.subject if decision is not None else None
        origin = self._view.model(subject) if subject else anchor
        if origin is not None and origin.cell is not None and origin.cell != cell:
            sight = "in sight" if board.has_line_of_sight(origin.cell, cell) else "no sight"
            text.append(f' · {board.range_to(origin.cell, cell)}" from {origin.id}, {sight}')
        if decision is not None and not self.read_only:
            for option in decision.options:
                if option.cell == cell:
                    text.append(f" · Enter: {option.label}", "bold")
                    self.decision_panel.highlight(option.key)
                    break
        if note:
            text = Text(note, "bold")
        self.query_one(StatusLine).show(text)
        self.query_one(ModelPanel).show(anchor)
        if self._sight_on:
            self._update_sight(anchor.cell if anchor else None)

    def _update_sight(self, origin: Cell | None) -> None:
        board = self.game.board
        if origin is None:
            self.battlefield.show_sight(frozenset())
            return
        self.battlefield.show_sight(
            frozenset(c for c in board.cells() if board.has_line_of_sight(origin, c))
        )

    def _rebuild_log(self) -> None:
        game = self.game
        marks = [(game.start_checkup.rolls, game.start_checkup.events)]
        marks += [(c.rolls, c.events) for c in game.checkups]
        lines = list(log_lines(game.rolls, game.events, marks, game.players))
        log = self.query_one(LogPanel)
        log.clear()
        log.add(lines[-400:])
        self._logged = (len(game.rolls), len(game.events))

    def _log_new(self) -> None:
        game = self.game
        r0, e0 = self._logged
        self.query_one(LogPanel).add(
            log_lines(game.rolls[r0:], game.events[e0:], [], game.players)
        )
        self._logged = (len(game.rolls), len(game.events))

    # -- messages up -----------------------------------------------------------------

    def on_battlefield_cell_picked(self, event: Battlefield.CellPicked) -> None:
        decision = self.game.pending
        if decision is None and not self.read_only:
            self._game_over()  # Enter after looking at the board brings the result back
        if decision is None or self.read_only:
            return
        here = [o for o in decision.options if o.cell == event.cell]
        if len(here) == 1:
            self._choose(here[0])
        elif here:
            self.decision_panel.highlight(here[0].key)
            self.decision_panel.option_list.focus()
            self._show_cursor_status(event.cell, "Several options here: pick one from the list.")
        elif any(o.cell is not None for o in decision.options):
            self._show_cursor_status(event.cell, "Not an option: choose a lit (+) cell.")
        else:
            self.decision_panel.option_list.focus()

    def on_decision_panel_option_picked(self, event: DecisionPanel.OptionPicked) -> None:
        self._choose(event.option)

    def on_decision_panel_option_browsed(self, event: DecisionPanel.OptionBrowsed) -> None:
        if event.option.cell is not None:
            self.battlefield.cursor = event.option.cell

    # -- choosing ----------------------------------------------------------------------

    def _choose(self, option: Option) -> None:
        decision = self.game.pending
        if decision is None or self.read_only:
            return
        try:
            self.game.choose(Choice(decision.id, option.key))
        except IllegalChoiceError as exc:
            self._show_cursor_status(self.battlefield.cursor, f"Refused: {exc}")
            return
        except OSError as exc:  # the choice stands; only the autosave failed
            self.notify(f"Could not save the game: {exc}", severity="error")
        self._after_change(previous=decision, log=self._log_new)

    def _after_change(self, previous: Decision | None, log: Callable[[], None]) -> None:
        with self.app.batch_update():  # one layout and one repaint for all the panels
            log()
            self._refresh(new_decision=True)
        pending = self.game.pending
        if pending is None:
            self._game_over()
        else:
            self._hand_over(pending, previous_hidden=bool(previous and previous.hidden))

    def _hand_over(self, pending: Decision, *, previous_hidden: bool, force: bool = False) -> None:
        changed = pending.player != self._shown_player
        self._shown_player = pending.player
        hidden = pending.hidden or previous_hidden
        if not force and not (changed and (hidden or self.handover)):
            return
        who = seat_name(self.game.players, self.game.scenario.sides, pending.player)
        screen = HandOverScreen(who, hidden=hidden, style=side_style(pending.player))
        self.app.push_screen(screen, self._handed_over)

    def _handed_over(self, result: str | None) -> None:
        if result == "off":
            self.handover = False
            self.notify("Hand-over screens off (o turns them on; secrets always get one).")

    def _game_over(self) -> None:
        screen = GameOverScreen(headline(self.game), summary(self.game))
        self.app.push_screen(screen, self._after_game_over)

    def _after_game_over(self, result: str | None) -> None:
        if result == "menu":
            self.dismiss(None)
        elif result == "quit":
            self.app.exit()
        elif result == "replay":
            self.notify("The replay viewer is not there yet (issue 4): showing the final "
                        "position.", timeout=6)

    # -- actions -------------------------------------------------------------------------

    def action_pick_index(self, index: int) -> None:
        """Choose option ``index`` of the list (digit keys)."""
        decision = self.game.pending
        if decision is not None and index < len(decision.options):
            self._choose(decision.options[index])

    def action_next_option(self, step: int) -> None:
        """Jump the cursor to the next (or previous) lit cell of the Decision."""
        decision = self.game.pending
        cells = [] if decision is None else [o.cell for o in decision.options if o.cell]
        if not cells:
            return
        cursor = self.battlefield.cursor
        at = cells.index(cursor) if cursor in cells else -1 if step > 0 else 0
        self.battlefield.cursor = cells[(at + step) % len(cells)]
        self.battlefield.focus()

    def action_undo(self) -> None:
        """Take back the last choice (the engine refuses once dice were rolled after it)."""
        if self.read_only:
            return
        previous = self.game.pending
        try:
            game = self.game.undone()
        except UndoRefusedError as exc:
            reason = str(exc)
            self._show_cursor_status(self.battlefield.cursor, reason[:1].upper() + reason[1:] + ".")
            return
        self._swap(game)
        self._after_change(previous=previous, log=self._rebuild_log)

    def _swap(self, game: Game) -> None:
        if self._listener is not None and self._listener in self.game.listeners:
            self.game.listeners.remove(self._listener)
        self.game = game
        if self.save_path is not None and not self.read_only:
            self._listener = autosave(game, self.save_path)

    def action_save(self) -> None:
        """Write the save file now (it is also written after every choice)."""
        if self.save_path is None or self.read_only:
            self.notify("This game is not being saved.")
            return
        write_save(self.game, self.save_path)
        self.notify(f"Saved to {self.save_path}.")
        self._show_cursor_status(self.battlefield.cursor, f"Saved to {self.save_path}.")

    def action_help(self) -> None:
        """Key map and the ruleset's quick reference."""
        from tui.help import HelpScreen  # Markdown loads only when help is opened

        self.app.push_screen(HelpScreen([self.game.ruleset.quick_reference()]))

    def action_sight(self) -> None:
        """Tint what the selected model can see (press again to clear)."""
        self._sight_on = not self._sight_on
        self._show_cursor_status(self.battlefield.cursor)
        if not self._sight_on:
            self.battlefield.show_sight(frozenset())

    def action_toggle_handover(self) -> None:
        """Turn the hand-over screens for open information on or off."""
        self.handover = not self.handover
        state = "on" if self.handover else "off (secrets still get one)"
        self.notify(f"Hand-over screens {state}.")

    def action_leave(self) -> None:
        """Back to the main menu; the autosave already holds every choice."""
        self.dismiss(None)
