"""The game screen of one seat, or of a spectator, of a game the server hosts.

It is the stock `GameScreen` drawing the session's copy of the game
(`tui.serve.replica`), with four differences: a pick is sent to the hub instead of
entering the game (the hub answers with the accepted choice, which every session then
applies, or with a refusal shown on the status line); a Decision that is not this
seat's shows who is deciding instead of its options; and there are no hand-over
screens, undo or save, since each player has their own terminal and the server saves
after every choice; and a seat the computer holds is played by the hub
(`tui.serve.computer`), so this screen only says it is thinking, and F asks the hub to
skip its pauses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from textual.worker import Worker, WorkerState

from engine.decisions import Choice, Decision, Option
from engine.errors import IllegalChoiceError, ReplayMismatchError, WargridError
from engine.game import Game
from engine.save import SaveData
from engine.wording import agrees, says
from tui.computer import Autoplay, thinking_note
from tui.first_frame import after_first_frame
from tui.game_screen import GameScreen
from tui.log_panel import LogPanel
from tui.serve.games import OPEN_SEAT
from tui.serve.protocol import Message
from tui.serve.replica import ReplicaGame
from tui.text import seat_name

HISTORY = "history"
"""The worker that reads the whole of the hub's file after the first frame."""


def _whole_file(replica: ReplicaGame, read: Callable[[], SaveData]) -> tuple[ReplicaGame, SaveData]:
    """The whole file, read in a worker thread, with the copy it is for."""
    return replica, read()


class HubComputer(Autoplay):
    """The computer of a hosted game thinks on the server: nothing to start here."""

    def __init__(self, screen: GameScreen, send: Callable[[Message], None]) -> None:
        super().__init__(screen, lambda _game, _choice: None)
        self.send = send

    def start(self, game: Game) -> None:
        """The hub moves for the computer; its choice arrives like any other."""

    def skip_ahead(self) -> None:
        """Ask the hub to play the computer's moves at once until a person decides."""
        self.send({"t": "skip"})


class SeatScreen(GameScreen):
    """A hosted game seen from one seat (``seat`` None: watching)."""

    def __init__(self, game: ReplicaGame, *, game_id: str, send: Callable[[Message], None]) -> None:
        super().__init__(game, handover=False)
        self.replica = game
        self.game_id = game_id
        self.seat = game.viewer
        self._send_hub = send
        self._autoplay = HubComputer(self, send)
        self.online = [False, False]
        self.watchers = 0
        self._presence_known = False
        self._presence_shown: tuple[str, str, bool, bool] | None = None
        """The names and who is online, as last shown."""
        self.replaced = False
        """Set when the app swaps this screen out itself (no "leave" to send then)."""

    # -- what the seat sees ------------------------------------------------------------

    def _panel_decision(self, decision: Decision | None) -> tuple[Decision | None, str]:
        """Another seat's Decision is not listed (not even built: spectators would pay
        for lists they never see at every choice), only who decides."""
        watching = self.seat is None  # only notes, and a lit cell's detail: see there
        self.decision_panel.prompt.keep_height = self.decision_panel.detail.keep_height = watching
        if decision is not None and decision.player != self.seat:
            return None, self._waiting_note(decision)
        return super()._panel_decision(decision)

    def _answers(self, decision: Decision) -> bool:
        return decision.player == self.seat

    def _waiting_note(self, decision: Decision) -> str:
        who = seat_name(self.game.players, self.game.scenario.sides, decision.player)
        role = "You are watching." if self.seat is None else "Waiting for the other seat."
        if self.game.computer[decision.player]:
            thinking = (
                f"{says(who, 'is')} thinking…" if self.seat is None else thinking_note(self.game)
            )
            return f"{role}\n{thinking}"
        if self.replica.secret_pending:
            return f"{role}\n{says(who, 'is')} deciding in secret."
        # a seat nobody has taken yet waits for whoever joins: nobody disconnected
        open_seat = self.game.players[decision.player] == OPEN_SEAT
        away = (
            "" if self.online[decision.player] or open_seat else " (disconnected: the seat waits)"
        )
        return f"{role}\n{who}{away} {agrees(who, 'decides')}: {decision.prompt}"

    def seats_sentence(self) -> str:
        """Each seat of a hosted game has its own terminal: nobody shares a keyboard."""
        if self.seat is None:
            return "You are watching a hosted game."
        if self.game.computer[1 - self.seat]:
            return "You play against the computer in a hosted game."
        return "You play one side of a hosted game; the other player has a terminal of their own."

    def _hand_over(self, pending: Decision, *, previous_hidden: bool, force: bool = False) -> None:
        """No hand-over screens: each seat has its own terminal. A bell on my turn."""
        if pending.player == self.seat and pending.player != self._hand.shown_player:
            self.app.bell()
        self._hand.shown_player = pending.player

    # -- the rest of the file ----------------------------------------------------------

    def on_mount(self) -> None:
        """Read the rest of the hub's file once the first frame is out (a thread competes
        with the drawing for the interpreter)."""
        if self.replica.unread != (0, 0):
            after_first_frame(self, self._read_rest)

    def _read_rest(self) -> None:
        replica = self.replica
        if replica.unread != (0, 0) and replica.whole is not None:
            work = partial(_whole_file, replica, replica.whole)
            self.run_worker(work, name=HISTORY, thread=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """The whole file is read: its events and rolls go in place of the stand-ins (if
        this copy was not replaced meanwhile)."""
        worker = event.worker
        if worker.name != HISTORY or not worker.is_finished:
            return
        if event.state is not WorkerState.SUCCESS:
            error = worker.error
            self._cannot_show(error if isinstance(error, WargridError) else WargridError(error))
            return
        result: tuple[ReplicaGame, SaveData] | None = worker.result
        if result is None:
            return
        replica, whole = result
        if replica is self.replica and replica.unread != (0, 0):
            self._take_whole(replica, whole)

    def _complete(self) -> bool:
        """Read the rest of the file now, if it is still to read (the whole log or the
        summary is about to be shown); False if it cannot be shown."""
        replica = self.replica
        if replica.unread == (0, 0) or replica.whole is None:
            return True
        try:
            whole = replica.whole()
        except WargridError as exc:
            self._cannot_show(exc)
            return False
        return self._take_whole(replica, whole)

    def _take_whole(self, replica: ReplicaGame, whole: SaveData) -> bool:
        """Put the whole file's events and rolls in ``replica``; False if it cannot be
        shown. A checkpoint whose dice counter is not what its rolls threw costs a copy
        rebuilt from the choices, as when the whole file is read at once."""
        try:
            replica.fill(whole)
        except ReplayMismatchError:
            try:
                self.resync(ReplicaGame(whole, viewer=self.seat))
            except WargridError as exc:
                self._cannot_show(exc)
                return False
        return True

    def _cannot_show(self, exc: WargridError) -> None:
        """The hub's file is damaged: say so and go back to the lobby (as on joining)."""
        self.app.notify(f"Cannot show game {self.game_id}: {exc}", severity="error", timeout=10)
        stack = self.app.screen_stack
        if self not in stack:
            return
        while stack[-1] is not self:  # the whole log, the summary: off with the game
            self.app.pop_screen()
            stack = self.app.screen_stack
        self.dismiss(None)

    def _game_over(self) -> None:
        replica = self.replica
        if self._complete() and self.replica is replica:  # the summary counts every roll
            super()._game_over()  # (a copy rebuilt from the choices showed its own)

    def action_show_log(self) -> None:
        """The whole log: the whole file read first."""
        if self._complete():
            super().action_show_log()

    # -- talking to the hub ------------------------------------------------------------

    def _choose(self, option: Option) -> None:
        decision = self.game.pending
        if decision is None:
            return
        self._send_hub({"t": "choose", "choice": [decision.id, option.key]})

    def apply_remote(self, choice: Choice) -> bool:
        """Show a choice the hub accepted; False if this copy cannot apply it (resync)."""
        previous = self.game.pending
        try:
            self.replica.apply(choice)
        except IllegalChoiceError:
            return False
        if not self.is_mounted:  # mounting draws the game as it is by then
            return True
        self._after_change(previous, log=self.query_one(LogPanel).follow)
        return True

    def resync(self, game: ReplicaGame) -> None:
        """Replace the copy by a fresh one from the hub (after a divergence)."""
        self.replica = game
        if not self.is_mounted:
            self.game = game
            return
        self._swap(game)
        self._after_change(None, log=self.query_one(LogPanel).show_game)
        self._read_rest()  # not mounted: its mount starts the read

    def refused(self, message: str) -> None:
        """The hub turned a pick down: say why; the game is unchanged."""
        if not self.is_mounted:
            return
        self._show_cursor_status(self.battlefield.cursor, f"Refused: {message}")

    def show_players(self, players: Sequence[str], online: Sequence[bool], watchers: int) -> None:
        """Seats taken, players connecting and leaving, spectators coming and going."""
        for seat in (0, 1):
            if self._presence_known and seat != self.seat and online[seat] != self.online[seat]:
                state = "is back" if online[seat] else "disconnected (the seat waits)"
                self.notify(f"{players[seat]} {state}.", timeout=4)
        self._presence_known = True
        shown = (players[0], players[1], online[0], online[1])
        # Spectators coming and going change nothing on screen: a redraw for each, in
        # every session of the game, was most of a crowd's joining.
        changed = shown != self._presence_shown
        self._presence_shown = shown
        self.online = list(online)
        self.watchers = watchers
        self.game.players = (players[0], players[1])
        if self.is_mounted and changed:
            self._refresh(new_decision=False)

    # -- actions the local game screen has and a hosted game does not ---------------------

    UNDO_HINT = ""

    def action_undo(self) -> None:
        """No undo: the other seat has seen the choice."""
        self._show_cursor_status(self.battlefield.cursor, "No undo in a hosted game.")

    def action_save(self) -> None:
        """The server saves after every choice."""
        self.notify("The server saves this game after every choice.")

    def action_save_position(self) -> None:
        """No position files: they would land in the server's working folder."""
        self.notify("Positions are not written on the server: open the replay when it ends.")

    def action_toggle_handover(self) -> None:
        """Nothing to hand over: each player has their own terminal."""
        self.notify("Each player has their own terminal here: no hand-over screens.")
