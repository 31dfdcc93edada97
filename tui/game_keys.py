"""The game screen's keys that act: option keys, Esc, undo, save, position, hand-over,
the computer's pace and leaving. They read and change the game through `GameScreen`
(`tui.game_screen`), which supplies how a pick is made and what is redrawn after a
change; the keys that only look are `LookingScreen`'s (`tui.game_looks`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType

from engine.decisions import Choice, Decision, Option
from engine.errors import UndoRefusedError
from engine.game import Game
from engine.save import autosave, write_save
from engine.wording import counted
from tui.computer import COMPUTER_DECIDING, SKIP_KEY, Autoplay, computer_turn
from tui.decision_panel import DecisionPanel
from tui.game_files import remember_handover, write_position
from tui.game_looks import LookingScreen
from tui.layout import each_log
from tui.log_panel import LogPanel
from tui.option_keys import (
    END_KEY,
    OPTION_KEYS,
    needs_confirmation,
    refusal,
)
from tui.placement import board_first, hop


class PlayingScreen(LookingScreen):
    """The acting keys over a game a subclass shows and changes."""

    UNDO_HINT = " (u undoes your last choice.)"
    """Said after Esc cancels: what a player pressing Esc to take a choice back wants."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,ctrl+z", "undo", "Undo"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("n", "next_option(1)", "Next option"),
        Binding("p", "next_option(-1)", "Previous option", show=False),
        Binding("s", "save", "Save"),
        Binding("w", "save_position", "Save position", show=False),
        Binding("o", "toggle_handover", "Hand-over", show=False),
        Binding("F", "skip_ahead", "Skip the computer's pauses", show=False),
        Binding("q", "leave", "Menu"),
        *(Binding(k, f"press_option('{k}')", show=False) for k in OPTION_KEYS + END_KEY),
    ]

    game: Game
    read_only: bool
    save_path: Path | None
    handover: bool
    """Show the hand-over screen when the deciding player changes (always for secrets)."""
    armed: tuple[int, str] | None
    """(Decision id, key) of an option key typed ahead after the game answered a
    prompt by itself: the same key again (or Enter) takes it (`action_press_option`)."""
    _autoplay: Autoplay
    _listener: Callable[[Game], None] | None
    """The autosave listening to the game (None when not saved)."""
    _shown_at: float
    """When the pending Decision was put on screen (the keys' clock, monotonic)."""
    _key_at: float
    """When the key being handled was pressed (read from the terminal)."""

    @property
    def decision_panel(self) -> DecisionPanel:
        return self.query_one(DecisionPanel)

    def _pick(self, option: Option) -> None:
        """Choose ``option`` (asking first where it ends a phase early)."""
        raise NotImplementedError

    def _after_change(self, previous: Decision | None, log: Callable[[Game], None]) -> None:
        """Redraw everything after the game changed, then hand over or end it."""
        raise NotImplementedError

    def _refuse(self, why: str) -> None:
        """Say why a key or Enter picked nothing, next to the prompt; nothing else changes."""
        self.decision_panel.show_notice(why)
        self._show_cursor_status(self.battlefield.cursor, why)

    def on_key(self, event: events.Key) -> None:
        """Note when the key was pressed (before its binding runs): a key typed before the
        prompt it lands on was shown is held (`action_press_option`)."""
        self._key_at = event.time

    def action_press_option(self, key: str) -> None:
        """Choose the option ``key`` names in the list (`tui.option_keys`), or say why not."""
        decision = None if self.read_only else self.game.pending
        if decision is None:
            return
        if computer_turn(self.game):
            # Played at 80x24: f (the skip key, unshifted) said "f picks nothing here: the
            # options' keys are 1, 2, 3, 4 or 5", the computer's own hidden list.
            if key == SKIP_KEY:
                self.action_skip_ahead()
            else:
                self._refuse(COMPUTER_DECIDING)
            return
        option = self.decision_panel.keys.option_for(decision, key)
        if option is None:
            self._refuse(refusal(decision, key, self.decision_panel.keys.rows(decision)))
        elif (
            decision.notes
            and self._key_at < self._shown_at
            and not needs_confirmation(decision, option)
            and (self.armed != (decision.id, key))
        ):
            # Typed ahead, for the prompt the game then answered by itself: the key only
            # points at what it means now, so a habitual press changes nothing. A key
            # pressed once this prompt is on screen answers it (holding every first key
            # after a note made players press each habitual key twice).
            self.armed = (decision.id, key)
            panel = self.decision_panel
            panel.highlight(option)
            panel.option_list.focus()
            panel.show_notice(
                f"{key} now picks {option.label}: press {key} again or Enter.", mark="→ "
            )
        else:
            self._pick(option)

    def action_cancel(self) -> None:
        """Esc: drop what is half done (a key pointing at its option, the list opened for
        a cell's several options, a refusal) and never take back a choice: players press
        Esc to close or cancel, and lost their last choice when it undid."""
        decision = None if self.read_only else self.game.pending
        busy = self.armed is not None or bool(self.decision_panel.refused)
        self.armed = None
        self.decision_panel.show_notice("")
        if decision is not None and board_first(decision) and not self.battlefield.has_focus:
            busy = True
            self.battlefield.focus()
        note = "Cancelled." if busy else "Nothing to cancel."
        self._show_cursor_status(self.battlefield.cursor, note + self.UNDO_HINT)

    def action_next_option(self, step: int) -> None:
        """Jump the cursor to the next (or previous) lit cell of the Decision; where no
        option is on the board (a list of answers), the list's highlight to the next
        (previous) row: there the key did nothing at all, and players took it for broken."""
        decision = self.game.pending
        cell = hop(decision, self.battlefield.cursor, step)
        if cell is not None:
            self.battlefield.cursor = cell
            self.battlefield.focus()
            return
        rows = self.decision_panel.option_list
        if decision is None or not rows.option_count:
            return
        rows.focus()
        if step > 0:
            rows.action_cursor_down()
        else:
            rows.action_cursor_up()

    def action_undo(self) -> None:
        """Take back the last choice (the engine refuses once dice were rolled after it)."""
        if self.read_only or not self._complete():  # the undone game is written at once
            return
        previous = self.game.pending
        made = len(self.game.choices)
        if self._autoplay.busy:
            self._refuse("Wait for the computer's move, then undo.")
            return
        try:
            game = self.game.undone()
            while computer_turn(game) and game.can_undo:  # back to the person's own choice
                game = game.undone()
        except UndoRefusedError as exc:
            reason = str(exc)
            self._refuse(reason[:1].upper() + reason[1:] + ".")
            return
        if computer_turn(game):  # it would only play the same move again
            why = ": dice were rolled during it." if game.choices else "."
            self._refuse("Cannot undo past the computer's move" + why)
            return
        undone = self.game.choices[len(game.choices)]  # the player's, at the Decision asked again
        self._swap(game)
        self._after_change(previous=previous, log=partial(each_log, self, LogPanel.show_game))
        self._back_on(undone)
        self._say_undone(made - len(game.choices) - 1)

    def _say_undone(self, theirs: int) -> None:
        """Say what the undo took back: played against the computer (Confrontation,
        80x24), u took back the Bogfen Slingers' run with the person's last choice, and the
        slingers went back to where they stood with nothing said."""
        moves = "" if theirs < 1 else f" and the computer's {counted(theirs, 'move')} after it"
        note = f"Undone: your last choice{moves}."
        self.decision_panel.show_notice(note, mark="↶ ")  # the status line keeps the cursor's

    def _back_on(self, choice: Choice) -> None:
        """After an undo, the cursor and the list's highlight on the option ``choice`` took
        at the Decision asked again: a player undoes to look at it again or to take its
        neighbour, and landing on option 1 (the Lexicar, when Warden Squad Beta had been
        picked) lost their place."""
        decision = self.game.pending
        if decision is None or decision.id != choice.decision_id:
            return
        option = decision.option(choice.key)
        if option is None:
            return
        if option.cell is not None:
            self.battlefield.cursor = option.cell  # the status line follows it
        self.decision_panel.highlight(option)
        shared = sum(1 for o in decision.options if o.cell is not None and o.cell == option.cell)
        if option.cell is None or shared > 1:  # Enter on the board would not take it
            self.decision_panel.option_list.focus()

    def _swap(self, game: Game) -> None:
        self._autoplay.cancel()
        self._stop_saving()
        self.game = game
        if self.save_path is not None and not self.read_only:
            self._listener = autosave(game, self.save_path)

    def action_save(self) -> None:
        """Write the save file now (it is also written after every choice)."""
        if self.save_path is None or self.read_only:
            self.notify("This game is not being saved.")
            return
        if not self._complete():
            return
        write_save(self.game, self.save_path)
        # The file's name on a line of its own: at 80x24 a whole path broke mid-name.
        name, folder = self.save_path.name, self.save_path.parent
        self.notify(f"Saved {name}\nin {folder}")
        self._show_cursor_status(self.battlefield.cursor, f"Saved {name} in {folder}")

    def action_save_position(self) -> None:
        """Write the start of the current phase as a position file: the whole game there."""
        message, severity = write_position(self.game, self.save_path)
        self.notify(message, severity=severity)

    def action_toggle_handover(self) -> None:
        """Turn the hand-over screens for open information on or off."""
        self.handover = not self.handover
        self._remember_handover()
        state = "on" if self.handover else "off (secrets still get one)"
        self.notify(f"Hand-over screens {state}.")

    def action_leave(self) -> None:
        """Back to the main menu; the autosave already holds every choice."""
        self.dismiss(None)

    def action_skip_ahead(self) -> None:
        """Play the computer's moves without pauses until a person must decide."""
        if computer_turn(self.game):
            self._autoplay.skip_ahead()

    def _stop_saving(self) -> None:
        if self._listener is not None and self._listener in self.game.listeners:
            self.game.listeners.remove(self._listener)

    def _remember_handover(self) -> None:
        """Keep the players' hand-over choice for Continue and the next new game."""
        if self.save_path is None or self.read_only:
            return
        trouble = remember_handover(self.save_path, self.handover)
        if trouble is not None:
            self.notify(trouble, severity="warning")
