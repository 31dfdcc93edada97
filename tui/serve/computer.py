"""The computer's seats of hosted games: it thinks in worker processes, the hub plays.

A host may open a game against the computer (the lobby's new-game flow); the hub then
owns that seat. Whenever such a seat must decide, the game's save and choices go to a
worker process (`ask`, `decide`), which plays the choices since its last move on the copy
it kept (or rebuilds the game from the save's last checkpoint) and asks the engine's
player (`engine.bot`) for a Choice (benchmarks/hosted_computer.py: what that adds). The
answer comes back to the hub's event loop and enters the game through the hub's own
choice path, like a person's pick: checked, sent to every seat and spectator, saved.
Thinking in another process keeps the hub (every other game, every keypress) answering
while one bot takes its time, and a bot that crashes takes only its worker down.

Moves are shown at a pace a person can follow: a computer move waits until ``pace``
seconds after its previous one, unless its opponent pressed F (`skip`), which plays the
computer's moves at once until a person must decide.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from time import monotonic

from engine.bot.players import Player, make_bot
from engine.decisions import Choice
from engine.dice import face
from engine.errors import WargridError
from engine.game import Game
from engine.resumption import open_save
from engine.save import decode, to_bytes
from tui.serve.games import HostedGame

log = logging.getLogger("wargrid.serve")

WORKERS = 2
"""Worker processes thinking at once (more games' bots wait their turn, people do not)."""


KEPT = 4
"""Games a worker keeps between the computer's moves, the most recent ones."""

_kept: OrderedDict[str, Game] = OrderedDict()
"""This worker process's copies of the games it decided in lately, by game id."""


@dataclass(frozen=True, slots=True)
class Ask:
    """What the hub sends a worker: the game's save, and its choices and latest state
    hash, with which a worker that kept the game only plays the choices since."""

    game_id: str
    save: bytes
    choices: tuple[tuple[int, str], ...]
    state_hash: str
    level: str


def ask(game_id: str, game: Game, level: str) -> Ask:
    """The question for the computer's worker about ``game``'s pending Decision."""
    last = game.checkups[-1] if game.checkups else game.start_checkup
    choices = tuple((c.decision_id, c.key) for c in game.choices)
    return Ask(game_id, to_bytes(game), choices, last.state_hash, level)


def _caught_up(game: Game, asked: Ask) -> bool:
    """Play the choices ``game`` lacks; False unless it then is the hub's game."""
    mine = [(c.decision_id, c.key) for c in game.choices]
    if len(mine) > len(asked.choices) or tuple(mine) != asked.choices[: len(mine)]:
        return False
    try:
        for decision_id, key in asked.choices[len(mine) :]:
            game.choose(Choice(decision_id, key))
    except WargridError:
        return False
    return game.state_hash() == asked.state_hash


def decide(asked: Ask) -> tuple[int, str]:
    """The computer's (decision id, option key) for the pending Decision of the game.

    Runs in a worker process, on its kept copy of the game brought up to date, else on
    the game rebuilt from the save (at its last checkpoint). The player is seeded per
    Decision from the game's secret seed, so a restart of the server (or of a worker)
    decides the same.
    """
    game = _kept.pop(asked.game_id, None)
    if game is None or not _caught_up(game, asked):
        game = open_save(decode(asked.save, "hosted game")).game
    _kept[asked.game_id] = game
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    choice = player_for(game, asked.level).decide(game)
    return choice.decision_id, choice.key


def player_for(game: Game, level: str) -> Player:
    """The computer player for ``game``'s pending Decision, seeded by the game's secret
    seed, its seat and the Decision (so the same game decides the same anywhere)."""
    pending = game.pending
    if pending is None:
        raise ValueError("the game is over: nothing to decide")
    return make_bot(level, face(game.seed * 2 + pending.player, pending.id, 1 << 62))


def worker_pool() -> Executor:
    """The default workers: fresh interpreters (a fork would copy the server's sockets)."""
    workers = min(WORKERS, os.cpu_count() or 1)
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


class ComputerSeats:
    """Asks the workers for the computer's moves and hands them to the hub at the pace."""

    def __init__(
        self,
        play: Callable[[HostedGame, Choice], None],
        notice: Callable[[HostedGame, str], None],
        *,
        pace: float,
        executor: Callable[[], Executor] = worker_pool,
    ) -> None:
        self.play = play
        """Enters a Choice through the hub's choice path (it checks it is still due)."""
        self.notice = notice
        """Tells every session of a game something (the computer failed)."""
        self.pace = pace
        self._make_executor = executor
        self._executor: Executor | None = None
        self.asked: dict[str, int] = {}
        """Per game id, the Decision id a worker is thinking about (or whose move waits)."""
        self.last_move: dict[str, float] = {}
        self.skipping: dict[str, asyncio.Event] = {}
        """Games whose opponent pressed F: the computer plays without pauses."""
        self.tasks: set[asyncio.Task[None]] = set()

    def wake(self, hosted: HostedGame) -> None:
        """Start thinking if the computer must decide in ``hosted`` now (once per Decision).

        Needs the running event loop (the server's).
        """
        game = hosted.game
        pending = game.pending
        level = "" if pending is None else game.computer[pending.player]
        if pending is None or not level:
            self.skipping.pop(hosted.id, None)  # a person decides: pauses again
            return
        if self.asked.get(hosted.id) == pending.id:
            return
        loop = asyncio.get_running_loop()
        try:
            executor = self.prepare()
            thinking = loop.run_in_executor(executor, decide, ask(hosted.id, game, level))
        except Exception:  # no workers to be had: this game waits, the hub goes on
            log.exception("%s: cannot start the computer's workers", hosted.id)
            self.notice(hosted, "The computer cannot think on this server (logged).")
            return
        self.asked[hosted.id] = pending.id
        task = loop.create_task(self._move(hosted, pending.id, thinking))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def prepare(self) -> Executor:
        """The workers, started if need be (the server starts them before any session).

        Raises:
            OSError, ValueError: processes cannot be started here.
        """
        if self._executor is None:
            self._executor = self._make_executor()
        return self._executor

    def skip(self, hosted: HostedGame) -> None:
        """Play the computer's moves in ``hosted`` without pauses until a person decides."""
        self.skipping.setdefault(hosted.id, asyncio.Event()).set()

    async def _move(
        self, hosted: HostedGame, decision_id: int, thinking: asyncio.Future[tuple[int, str]]
    ) -> None:
        try:
            answer_id, key = await thinking
        except Exception as exc:  # a bot bug or a lost worker: this game waits, others go on
            log.exception("%s: the computer could not decide", hosted.id)
            self._forget(hosted, decision_id)
            if isinstance(exc, BrokenProcessPool):
                self._executor = None  # the next move starts fresh workers
            self.notice(hosted, "The computer could not decide (logged on the server).")
            return
        delay = self.pace - (monotonic() - self.last_move.get(hosted.id, 0.0))
        skipping = self.skipping.setdefault(hosted.id, asyncio.Event())
        if delay > 0 and not skipping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(skipping.wait(), delay)
        self._forget(hosted, decision_id)
        pending = hosted.game.pending
        if pending is None or pending.id != answer_id or answer_id != decision_id:
            return  # the game moved on (cannot happen while the computer holds the turn)
        self.play(hosted, Choice(answer_id, key))
        self.last_move[hosted.id] = monotonic()  # once sent: the pace counts from there

    def _forget(self, hosted: HostedGame, decision_id: int) -> None:
        if self.asked.get(hosted.id) == decision_id:
            del self.asked[hosted.id]

    def close(self) -> None:
        """Stop thinking (the server is stopping; every game is saved already)."""
        for task in self.tasks:
            task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
