"""The game screen: owns the `Game`, and is the only place a Choice enters it.

Attributes down: after every change it hands the battlefield, the panels and the log the
engine's current view and pending Decision. Messages up: the battlefield reports picked
cells, the decision panel picked options; this screen turns a pick into a `Choice` only
when the Decision offers it (the engine validates again). Keys go through `BINDINGS` to
``action_*``. No game rule is computed here: highlights are the Decision's options, and
ranges and sight lines are the engine `Board`'s own measurements. The keys that act (option
keys, Esc, undo, save) are `PlayingScreen`'s (`tui.game_keys`); those that only look (help,
legend, card, log, zoom, tints) are `LookingScreen`'s (`tui.game_looks`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from time import monotonic

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import ScreenResume
from textual.message import Message
from textual.reactive import Reactive
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from engine.board import Cell
from engine.decisions import Choice, Decision, Option
from engine.errors import EngineBugError, IllegalChoiceError, SaveError
from engine.game import Game
from engine.save import autosave, has_unread
from tui.battlefield import Battlefield
from tui.cells import not_an_option
from tui.computer import (
    COMPUTER_DECIDING,
    WORKER,
    Autoplay,
    computer_pace,
    computer_turn,
    thinking_note,
)
from tui.decision_panel import DecisionPanel
from tui.first_frame import after_first_frame
from tui.game_files import report_engine_bug
from tui.game_keys import PlayingScreen
from tui.hand_over import HandOver
from tui.layout import each_log
from tui.log_panel import LogPanel
from tui.modals import GameOverScreen, HandOverScreen
from tui.option_keys import (
    is_cell_pick,
    needs_confirmation,
    why_asked,
)
from tui.panels import KeyBar, ModelPanel, PhasePanel, StatusLine
from tui.placement import board_first, last_placement, start_cell, stays_listed
from tui.save_check import SaveCheck
from tui.styled_once import at_breakpoints, first_resume
from tui.text import SHORTER, cursor_text, seat_name, side_style
from tui.tints import Tints


class GameScreen(PlayingScreen):
    """Battlefield on the left; phase, decision, model and log panels on the right."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """Textual's, without a repaint of the whole screen when the focus moves: the widget
    focused and the one blurred restyle and repaint themselves (``:focus``), and nothing
    else here looks at the focus. Each Decision moving it between the board and the
    option list drew the screen twice, the second time whole (a third of a seat's CPU
    per choice in a hosted game)."""

    class ReplayWanted(Message):
        """The players asked for the finished game's replay (the app opens the viewer)."""

        def __init__(self, game: Game, save_path: Path | None) -> None:
            super().__init__()
            self.game = game
            self.save_path = save_path

    def __init__(
        self,
        game: Game,
        *,
        save_path: Path | None = None,
        handover: bool = True,
        read_only: bool = False,
        check: SaveCheck | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.check = check
        """The re-run of the save this game was opened from at its checkpoint, if due."""
        self._placing_cursor = False
        """True while `_refresh` puts the cursor on a new Decision's cell: it shows the
        status line itself after (twice was a tenth of a spectator's frame)."""
        self.save_path = save_path
        self.handover = handover
        self._hand = HandOver(None if game.pending is None else game.pending.player)
        self.read_only = read_only
        self._listener: Callable[[Game], None] | None = None
        self._anchor: str | None = None
        self._tints = Tints()
        """The map tint on for the selected model (sight, command range or threat)."""
        self._view = game.view()
        self._measure = type(game.ruleset).measure(game.ruleset.scenario)
        """How the status line words a range (the scenario's: fatigue counts steps)."""
        self._by_cell: dict[Cell, list[Option]] = {}
        """The pending Decision's options by the cell they light."""
        self._missed: tuple[str, ...] = ()
        """Prompts the game answered for the person while the computer played on (its
        Decisions' ``told``): shown at the person's next Decision as earlier, or never
        seen ("No unit can charge" ended their assault phase unseen)."""
        self._missed_at: int | None = None
        """The person's Decision that shows `_missed` (they stay while it is pending)."""
        self._autoplay = Autoplay(self, self._play_computer, computer_pace(save_path))
        """Plays the seats the computer holds (`Game.computer`), at the players' pace."""
        self.armed = None
        self._shown_at = 0.0
        self._key_at = 0.0

    def compose(self) -> ComposeResult:
        at_breakpoints(self)
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

    def on_screen_resume(self, event: ScreenResume) -> None:
        first_resume(self, event)

    def on_mount(self) -> None:
        if self.save_path is not None and not self.read_only:
            # The file appears with the first choice: opening a game and leaving writes nothing.
            # A save being checked already holds the game: it is written at the next choice.
            now = bool(self.game.choices) and self.check is None
            self._listener = autosave(self.game, self.save_path, now=now)
        for log in self.query(LogPanel):  # none while a resize moves it: it fills itself
            log.show_game(self.game)
        self.watch(self.battlefield, "cursor", self._cursor_moved, init=False)
        if self.check is not None:  # the re-run competes for the GIL: after the first frame
            after_first_frame(self, self._start_check)
        self._refresh(new_decision=True)
        pending = self.game.pending
        if pending is not None and pending.hidden and not any(self.game.computer):
            self._hand_over(pending, previous_hidden=False, force=True)
        elif self.game.is_over and not self.read_only:
            self._game_over()

    def on_unmount(self) -> None:
        self._autoplay.cancel()
        self._stop_saving()

    def _start_check(self) -> None:
        """Once the first frame is out: the whole file in the game's logs (if Continue
        read only their end), then its re-run in a worker thread."""
        check = self.check
        if check is not None and self._complete():
            self.run_worker(check.run, name="check", thread=True, exit_on_error=False)

    def _complete(self) -> bool:
        """Read the rest of the file into the game's logs if Continue read only their end
        (`tui.save_check`): before the game is written or its whole log shown. False if
        that part of the file is damaged: the game is then shown read-only."""
        check = self.check
        if check is None or not has_unread(self.game):
            return True
        try:
            check.fill(self.game)
        except SaveError as exc:
            check.note = "not verified (the file is damaged)"
            self.read_only = True
            self._stop_saving()
            self.notify(f"{exc}. It is shown read-only.", severity="error", timeout=15)
            self._refresh(new_decision=False)
            return False
        return True

    # -- showing the game ---------------------------------------------------------------

    def _refresh(self, *, new_decision: bool) -> None:
        game = self.game
        view = self._view = game.view()
        decision = game.pending
        self._by_cell = {}  # the last Decision's lit cells offer nothing now
        if decision is not None and not self.read_only and computer_turn(game):
            if new_decision:
                if self._missed_at is not None:  # shown at the person's last Decision
                    self._missed, self._missed_at = (), None
                self._missed += decision.told
            self.query_one(PhasePanel).show(view, decision, game.players)
            self.battlefield.show(view, None)  # its options (secret or not) stay its own
            self.decision_panel.show(None, thinking_note(game))
            self._show_cursor_status(self.battlefield.cursor)
            self._autoplay.start(game)
            return
        self._autoplay.person_decides()
        for option in () if decision is None or self.read_only else decision.options:
            if option.cell is not None:
                self._by_cell.setdefault(option.cell, []).append(option)
        self.query_one(PhasePanel).show(view, decision, game.players)
        self.battlefield.show(view, decision)
        listed, note = self._panel_decision(decision)
        earlier: tuple[str, ...] = ()
        if listed is not None and self._missed:
            if self._missed_at is None:
                self._missed_at = listed.id
            if self._missed_at == listed.id:
                earlier = self._missed
            else:
                self._missed, self._missed_at = (), None
        self.decision_panel.show(listed, note, earlier)
        if new_decision and decision is not None:
            self.armed = None
            self._shown_at = monotonic()
            if decision.subject is not None:
                self._anchor = decision.subject
            cell = start_cell(decision, view, last_placement(game))
            if cell is not None:
                self._placing_cursor = True  # the status line is shown once, below
                try:
                    self.battlefield.cursor = cell
                finally:
                    self._placing_cursor = False
            # Where the computer's last move was shown, the view comes back to the
            # person's cursor, also when it stays where it was (a list question: after
            # the Horde deployed, "Which unit do you deploy next?" left it off screen).
            self.battlefield.scroll_to_cursor()
            # Nothing listed (another seat's Decision, a read-only game): the board keeps
            # the focus; moving it would restyle both widgets (a third of a spectator's frame).
            listed_first = listed is not None and not board_first(decision)
            target = self.decision_panel.option_list if listed_first else self.battlefield
            if not target.has_focus:
                target.focus()
        self._show_cursor_status(self.battlefield.cursor)

    def _panel_decision(self, decision: Decision | None) -> tuple[Decision | None, str]:
        """What the decision panel lists (None: nothing), and its note when nothing."""
        if self.read_only:
            return None, "Read-only: this game is shown as saved."
        return decision, "Game over. Enter shows the result; q returns to the menu."

    def _answers(self, decision: Decision) -> bool:
        """Whether a pick on this screen may answer ``decision``: at one keyboard, whoever
        decides sits at it (a hosted game's seat answers its own only)."""
        return True

    def _cursor_moved(self, cell: Cell) -> None:
        if not self._placing_cursor:
            self._show_cursor_status(cell)

    def _show_cursor_status(self, cell: Cell, note: str = "") -> None:
        here = self.battlefield.model_at(cell)
        if here is not None:
            self._anchor = here.id
        view = self._view
        anchor = view.model(self._anchor) if self._anchor else None
        decision = None if self.read_only else self.game.pending
        # Measure from the model the Decision is about (the shooter, the mover), if any.
        subject = decision.subject if decision is not None else None
        origin = view.model(subject) if subject else anchor
        # What Enter would choose, only where a pick here may answer the Decision: a
        # hosted game's other seat and its spectators read "Enter: Objective at (35,38)"
        # on the other player's marker, and Enter was refused.
        mine = decision is not None and self._answers(decision)
        lit = self._by_cell.get(cell) if mine else None
        option = lit[0] if lit else None
        stays = stays_listed(decision, view) if mine and decision is not None else None
        if option is None and stays is not None and stays[0] == cell:
            option = stays[1]  # "Enter: Stay where it is", on the model's own cell
        if option is not None:
            self.decision_panel.highlight(option)
        texts = (
            [Text(note, "bold")]
            if note
            else [
                cursor_text(
                    self.game.board,
                    cell,
                    objective=self.battlefield.objective_at(cell),
                    here=here,
                    origin=origin,
                    option=option,
                    feature=self.battlefield.feature_at(cell),
                    measure=self._measure,
                    short=short,
                )
                for short in range(SHORTER + 1)
            ]
        )
        if self.check is not None:
            texts = [Text.assemble(self.check.text(), text) for text in texts]
        self.query_one(StatusLine).show(*texts)
        lead = self._tints.apply(self.battlefield, self.game, view, anchor)
        self.query_one(ModelPanel).show(anchor, lead)

    # -- messages up -----------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The save's check is done: say so, and take the game the choices lead to. (Or
        the computer has decided.)"""
        worker, check = event.worker, self.check
        if worker.name == WORKER and worker.is_finished:
            self._autoplay.finished(worker, event.state)
            return
        if worker.name != "check" or check is None or not worker.is_finished:
            return
        done = event.state is WorkerState.SUCCESS
        settled = check.settle(self.game, worker.result if done else None, worker.error)
        changed = settled.game is not self.game
        if settled.read_only:  # nothing more is written over a file we cannot reproduce
            self.read_only = True
            self._stop_saving()
        elif changed:
            self._swap(settled.game)
        if settled.message:
            self.notify(settled.message, severity="error" if settled.read_only else "warning",
                        timeout=15)  # fmt: skip
        self._refresh(new_decision=changed)

    def on_battlefield_cell_picked(self, event: Battlefield.CellPicked) -> None:
        self._pick_cell(event.cell)

    def _pick_cell(self, cell: Cell) -> None:
        """Enter or a click on ``cell``: its option, a list of its options, or why not."""
        decision = self.game.pending
        if decision is not None and computer_turn(self.game):
            self._refuse(COMPUTER_DECIDING)
            return
        if decision is None and not self.read_only:
            self._game_over()  # Enter after looking at the board brings the result back
        if decision is None or self.read_only:
            return
        here = self._by_cell.get(cell, [])
        if len(here) == 1:
            self._choose(here[0])
        elif here:
            self.decision_panel.highlight(here[0])
            self.decision_panel.option_list.focus()
            self._show_cursor_status(cell, "Several options here: pick one from the list.")
        elif (listed := stays_listed(decision, self._view)) is not None and cell == listed[0]:
            # The model's own cell, where staying is a listed option: the status line said
            # "Enter: Stay where it is", as the other rulesets' lit cell under a model does.
            self._choose(listed[1])
        elif any(o.cell is not None for o in decision.options):
            why = "" if decision.why_not is None else decision.why_not(cell)
            model = self.battlefield.model_at(cell)
            moving = model is not None and model.id == decision.subject
            self._refuse(not_an_option(self.game.board, cell, model, why, moving=moving))
        else:
            self.decision_panel.option_list.focus()

    def on_decision_panel_option_picked(self, event: DecisionPanel.OptionPicked) -> None:
        decision = self.game.pending
        cursor = self.battlefield.cursor
        option = event.option
        if decision is not None and is_cell_pick(decision, option) and option.cell != cursor:
            # A cell comes from the cursor: a row the player never browsed to (the first
            # of a long list that does not follow the cursor) places nothing there.
            self._pick_cell(cursor)
            return
        self._pick(option)

    def on_decision_panel_crowded(self, event: DecisionPanel.Crowded) -> None:
        """The card gives its rows to a list that needs them (set on it: not all restyled)."""
        self.query_one(ModelPanel).set_class(event.crowded, "-crowded")

    def on_decision_panel_option_browsed(self, event: DecisionPanel.OptionBrowsed) -> None:
        if event.option.cell is not None:
            self.battlefield.cursor = event.option.cell

    # -- choosing ----------------------------------------------------------------------

    def _pick(self, option: Option) -> None:
        """Choose ``option``, asking first if it ends a phase or turn while units could act,
        or spends a card or a point its odds say cannot help (`needs_confirmation`)."""
        decision = self.game.pending
        if decision is None or self.read_only:
            return
        if computer_turn(self.game):
            self._refuse(COMPUTER_DECIDING)
            return
        if not needs_confirmation(decision, option):
            self._choose(option)
            return
        from tui.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes and self.game.pending is decision:
                self._choose(option)

        question = f"{option.label}?"
        again = self.decision_panel.keys.key_for(decision, option.key)
        self.app.push_screen(ConfirmScreen(question, why_asked(decision, option), again), answered)

    def _choose(self, option: Option) -> None:
        decision = self.game.pending
        if decision is None or self.read_only or not self._complete():  # written at once
            return
        try:
            self.game.choose(Choice(decision.id, option.key))
        except IllegalChoiceError as exc:
            self._refuse(f"Refused: {exc}")
            return
        except EngineBugError as exc:
            self._engine_bug(option.key, exc)
            return
        except OSError as exc:  # the choice stands; only the autosave failed
            self.notify(f"Could not save the game: {exc}", severity="error")
        self._after_change(previous=decision, log=partial(each_log, self, LogPanel.follow))

    def _play_computer(self, game: Game, choice: Choice) -> None:
        """The computer's Choice, played like a person's (unless the game was swapped).
        If it hits a rules bug (reported), the computer would choose it again: it plays
        its next option instead, so the game goes on."""
        decision = game.pending
        option = None if decision is None else decision.option(choice.key)
        if game is not self.game or decision is None or option is None or self.read_only:
            return
        others = [o for o in decision.options if o is not option]
        for pick in [option, *others[:3]]:
            where = self._acted_on(decision, pick)
            self._choose(pick)
            if game.pending is None or game.pending.id != decision.id:
                if where is not None and computer_turn(game):
                    self.battlefield.show_cell(where)
                return

    def _acted_on(self, decision: Decision, option: Option) -> Cell | None:
        """Where the computer's ``option`` happens on the board: the cell it moves, deploys
        or shoots to, else the model it picks, else the model it is about. Played at 80x24,
        a 72x48 wh40k6 table shows 39x21 cells and the Horde moved, ran and shot out of
        sight ("Horde Mob Red moves 6\" south")."""
        if option.cell is not None:
            return option.cell
        for model_id in (option.model, decision.subject):
            model = None if model_id is None else self._view.model(model_id)
            if model is not None and model.cell is not None:
                return model.cell
        return None

    def _engine_bug(self, key: str, exc: EngineBugError) -> None:
        """A rules bug, not the player's doing: the game stays at this decision (the
        engine undid the choice), and a report beside the saves lets it be reproduced."""
        notice, status = report_engine_bug(self.game, key, exc, self.save_path)
        self.notify(notice, title="Rules engine bug", severity="error", timeout=30)
        self._show_cursor_status(self.battlefield.cursor, status)

    def _after_change(self, previous: Decision | None, log: Callable[[Game], None]) -> None:
        with self.app.batch_update():  # one layout and one repaint for all the panels
            log(self.game)
            self._refresh(new_decision=True)
        pending = self.game.pending
        if pending is None:
            self._game_over()
        else:
            self._hand_over(pending, previous_hidden=bool(previous and previous.hidden))

    def _hand_over(self, pending: Decision, *, previous_hidden: bool, force: bool = False) -> None:
        hidden = self._hand.cover(
            pending,
            previous_hidden=previous_hidden,
            force=force,
            wanted=self.handover,
            alone=any(self.game.computer),  # one person at the keyboard (or none)
        )
        if hidden is None:
            return
        who = seat_name(self.game.players, self.game.scenario.sides, pending.player)
        screen = HandOverScreen(who, hidden=hidden, style=side_style(pending.player))
        self.app.push_screen(screen, self._handed_over)

    def _handed_over(self, result: str | None) -> None:
        if result == "off":
            self.handover = False
            self._remember_handover()
            self.notify("Hand-over screens off (o turns them on; secrets always get one).")

    def _game_over(self) -> None:
        from tui.summary import headline, summary  # luck tables load at the game's end

        self._complete()  # the summary counts every roll
        screen = GameOverScreen(headline(self.game), summary(self.game))
        self.app.push_screen(screen, self._after_game_over)

    def _after_game_over(self, result: str | None) -> None:
        if result == "menu":
            self.dismiss(None)
        elif result == "quit":
            self.app.exit()
        elif result == "replay":
            self.post_message(self.ReplayWanted(self.game, self.save_path))
