"""The computer's seats on the game screen: it thinks in a worker, then plays at a pace.

The game screen asks `Autoplay.start` after every change; when the pending Decision
belongs to a seat the computer plays (`Game.computer`), the player from `engine.bot`
decides in a thread worker so the screen keeps answering keys ("Computer is thinking…").
Its Choice goes through the screen's own `choose` like a person's (logged, autosaved,
replayable without a bot), but not before its pace (the Settings screen's, in seconds)
has passed since its last move, so a person can follow; the skip key plays the
computer's moves at once until a person must decide.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from time import monotonic

from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from engine.bot.players import Player, make_bot
from engine.decisions import Choice
from engine.game import Game
from tui.settings import Settings, load_settings

WORKER = "computer"
"""Name of the thinking worker (the screen routes its state changes here)."""
SKIP_KEY = "f"
"""Besides F: while the computer decides no option key answers, so the unshifted f
(what players typed, reading "F: skip ahead") skips its pauses too."""
COMPUTER_DECIDING = "The computer is deciding: wait, or press F to skip its pauses."
"""Why a key or Enter a person presses during the computer's Decision picks nothing."""


def computer_pace(save_path: Path | None) -> float:
    """The pace the players chose (settings beside the save), in seconds."""
    folder = None if save_path is None else save_path.parent
    return (Settings() if folder is None else load_settings(folder)).pace_seconds


def computer_turn(game: Game) -> bool:
    """True when the computer plays the seat that must decide now."""
    pending = game.pending
    return pending is not None and bool(game.computer[pending.player])


def thinking_note(game: Game) -> str:
    """What the decision panel says while the computer decides."""
    pending = game.pending
    level = game.computer[pending.player] if pending is not None else ""
    return f"Computer ({level}) is thinking… (F: skip ahead)"


class Autoplay:
    """Drives the computer's seats of one game screen."""

    def __init__(
        self, screen: Screen[None], choose: Callable[[Game, Choice], None], pace: float = 0.0
    ) -> None:
        self.screen = screen
        self.pace = pace
        """Seconds each computer move stays on screen before its next one."""
        self.choose = choose
        """Plays a Choice on the screen's game, as a person's pick would."""
        self.players: dict[tuple[int, str], Player] = {}
        self.asked: tuple[Game, int] | None = None
        """The game and Decision id the worker is thinking about, or whose answer waits."""
        self.skip = False
        """Play the computer's moves without a pause, until a person must decide."""
        self.last_move = 0.0
        self.timer: Timer | None = None
        self.waiting: Choice | None = None

    @property
    def busy(self) -> bool:
        """The computer is thinking, or its answer waits for its turn to be shown."""
        return self.asked is not None

    def start(self, game: Game) -> None:
        """Let the computer think if it must decide now (and is not already at it)."""
        pending = game.pending
        if pending is None or not computer_turn(game):
            self.skip = False
            return
        if self.asked is not None and self.asked == (game, pending.id):
            return
        self.cancel()
        self.asked = (game, pending.id)
        level = game.computer[pending.player]
        player = self.players.get((pending.player, level))
        if player is None:
            player = self.players[(pending.player, level)] = make_bot(
                level, game.seed * 2 + pending.player
            )
        self.screen.run_worker(
            partial(player.decide, game), name=WORKER, thread=True, exit_on_error=False
        )

    def finished(self, worker: Worker[Choice], state: WorkerState) -> None:
        """The worker is done: play its Choice at the pace (a stale answer is dropped)."""
        if self.asked is None:
            return
        decision_id = self.asked[1]
        if state is not WorkerState.SUCCESS or worker.result is None:
            self.asked = None
            self.screen.notify(
                f"The computer could not decide: {worker.error}", severity="error", timeout=15
            )
            return
        choice = worker.result
        if choice.decision_id != decision_id:
            self.asked = None
            return
        self.waiting = choice
        self._play()

    def person_decides(self) -> None:
        """Skipping ahead ends where a person must decide: `start` sees only the computer's
        turns, so one F once played every later computer turn without its pace."""
        self.skip = False

    def skip_ahead(self) -> None:
        """Play the computer's moves at once until a person must decide."""
        self.skip = True
        if self.waiting is not None:
            self._play()

    def cancel(self) -> None:
        """Forget the pending thought (the game was swapped or the screen left)."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.asked = None
        self.waiting = None

    def _play(self) -> None:
        """Play the waiting Choice once its pace has passed (a timer may fire early)."""
        choice, asked = self.waiting, self.asked
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        delay = 0.0 if self.skip else self.pace - (monotonic() - self.last_move)
        if delay > 0 and choice is not None:
            self.timer = self.screen.set_timer(delay, self._play)
            return
        self.waiting = None
        self.asked = None
        if choice is None or asked is None:
            return
        game = asked[0]
        if game.pending is None or game.pending.id != choice.decision_id:
            return
        self.choose(game, choice)
        self.last_move = monotonic()  # once shown: the pace counts from there
