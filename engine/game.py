"""Game: runs a ruleset's procedure between Decisions and keeps the logs.

A game is fully defined by its scenario, seed and choices; everything else (rolls,
events, state) follows by re-running them. `Game` is the only place a Choice enters the
engine: it validates the Choice against the pending Decision before the ruleset sees it,
so a rejected Choice changes nothing.

Must not import tui, textual, rich, or any ruleset directly (it asks the registry).
"""

from __future__ import annotations

import copy
import hashlib
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from engine.board import Board
from engine.checkpoints import Checkpoint, last_at, nearest_written, packed_state, position_toml
from engine.collector import tune_collector
from engine.decisions import Choice, Decision, Procedure
from engine.dice import Dice, Roll
from engine.errors import (
    ChoiceRejection,
    EngineBugError,
    IllegalChoiceError,
    StaleChoiceError,
    UndoRefusedError,
    WargridError,
)
from engine.events import Event
from engine.position import Position, PositionError
from engine.ruleset import Outcome, RuleContext, Ruleset
from engine.rulesets import find_ruleset
from engine.scenario import Scenario
from engine.view import GameView
from engine.wording import says


@dataclass(frozen=True, slots=True)
class Checkup:
    """What a choice led to, recorded so a replay can name the first divergence."""

    rolls: int
    """Length of the roll log after the choice was resolved."""
    events: int
    """Length of the event log after the choice was resolved."""
    state_hash: str
    """Hash of the ruleset's snapshot after the choice was resolved."""


@dataclass(frozen=True, slots=True)
class Resume:
    """Where a restored game starts: a checkpoint, and the logs of the game before it."""

    checkpoint: Checkpoint
    choices: tuple[Choice, ...] = ()
    answered: tuple[Decision, ...] = ()
    checkups: tuple[Checkup, ...] = ()
    events: tuple[Event, ...] = ()
    rolls: tuple[Roll, ...] = ()
    checkpoints: tuple[Checkpoint, ...] = ()
    """The checkpoints taken before this one."""
    start: Checkup | None = None
    ruleset: Ruleset | None = None
    """A ruleset of this game to fork (its static data is shared, not rebuilt)."""


EAGER_GAP = 12
"""A checkpoint's state is written when it is taken only if the last written one is at
least this many choices back (or `EAGER_SECONDS` of play); the others are written when
first read, by re-running the choices since that one (`Checkpoint.later`). Undo and a
computer player's look-ahead start from the last written checkpoint, so they re-run at
most this many more choices, taking at most about that long."""

EAGER_SECONDS = 0.004
"""CPU time since the last written checkpoint after which the next one is written at
once whatever `EAGER_GAP` says: where choices are slow (wh40k6 movement), re-running a
dozen of them would make undo slow."""


REPLAY_GAP = 64
"""While a replay is more than `REPLAY_TAIL` choices from its end (`Game.quiet_until`),
a checkpoint is written when taken only if the last written one is this many choices
back: nobody is about to undo there, and one read later re-runs at most this many."""

REPLAY_TAIL = 32
"""The last choices of a replay, whose checkpoints are written as in play (undo, the
save's last checkpoints and a computer player's look-ahead start there)."""


class Game:
    """One game in progress: ruleset state, pending Decision, and the logs."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        *,
        dice: Dice | None = None,
        players: tuple[str, str] = ("Player 1", "Player 2"),
        position: Position | None = None,
        resume: Resume | None = None,
        computer: tuple[str, str] = ("", ""),
        eager_gap: int | None = None,
        hashes: bool = True,
    ) -> None:
        """Start a game on ``scenario``, or at ``position`` (whose scenario then wins).

        ``resume`` restores a checkpoint of this game (undo, saves with checkpoints).
        ``eager_gap``: see `EAGER_GAP` (0: every checkpoint written when taken; None:
        the ruleset's own, `Ruleset.EAGER_GAP`, or the engine's).
        ``hashes``: False for a throwaway game nobody saves or checks (a computer
        player's look-ahead): its checkups then carry no state hash (""), which saves
        packing and hashing the whole state at every choice; unless ``eager_gap`` is
        given, it also writes no checkpoint when taking it (`Checkpoint.later` writes
        one if it is ever read: a look-ahead never reads its own).
        """
        tune_collector()
        self.hashes = hashes
        self._written_at = time.process_time()
        """When this game last wrote (or restored) a checkpoint's state, in CPU time."""
        if position is not None:
            scenario = position.scenario
            if position.state is not None and position.seed is not None and resume is None:
                seed = position.seed
                start = Checkpoint(
                    0,
                    0,
                    0,
                    position.draws,
                    position.round,
                    position.phase,
                    packed_state(position.state),
                )
                resume = Resume(start)
        self.scenario = scenario
        self.position = position
        self.seed = seed
        self.players = players
        self.computer = computer
        """Per seat, the computer player's level ("easy", "normal") or "" for a person:
        saved, so Continue lets the computer play on; replays need only the choices."""
        self.dice = dice if dice is not None else Dice(seed)
        self._fresh_dice = copy.deepcopy(self.dice)
        """The dice as they were before any roll, to rebuild the game after an engine bug."""
        if resume is not None and resume.ruleset is not None:
            self.ruleset: Ruleset = resume.ruleset.fork()
        else:
            self.ruleset = find_ruleset(scenario.ruleset)(scenario)
        self._lazy = not hashes and eager_gap is None
        """Throwaway: no checkpoint is written when taken (see ``hashes``)."""
        if eager_gap is None:
            eager_gap = EAGER_GAP if self.ruleset.EAGER_GAP is None else self.ruleset.EAGER_GAP
        self.eager_gap = eager_gap
        self.quiet_until = 0
        """Checkpoints taken before this step follow `REPLAY_GAP` (a replay sets it)."""
        if resume is not None:
            self.ruleset.restore_state(*resume.checkpoint.shared_state())
            self.dice.rolls = list(resume.rolls)
            self.dice.draws = resume.checkpoint.draws
        elif position is not None:
            self.ruleset.load_position(position)
        history = resume if resume is not None else Resume(Checkpoint(0, 0, 0, 0, 0, "", b""))
        self.events: list[Event] = list(history.events)
        self.choices: list[Choice] = list(history.choices)
        self.answered: list[Decision] = list(history.answered)
        """The Decision each choice answered, for text replays and the viewer."""
        self.checkups: list[Checkup] = list(history.checkups)
        self.checkpoints: list[Checkpoint] = list(history.checkpoints)
        """The game at the start of each phase so far (undo and saves restore them)."""
        self.pending: Decision | None = None
        self.outcome: Outcome | None = None
        self.listeners: list[Callable[[Game], None]] = []
        """Called after every accepted choice (autosave, network seats)."""
        self._rolls_before_last = 0
        self.ctx = RuleContext(self.dice, self._record)
        self.ctx.on_boundary = self._checkpoint
        if resume is not None:
            self.ctx.notes = list(resume.checkpoint.notes)
        self._reached: Checkpoint | None = None if resume is None else resume.checkpoint
        """The checkpoint this game resumes at: its procedure reports it again first."""
        if resume is None:
            self._procedure: Procedure[Outcome] = self.ruleset.play(self.ctx)
        else:
            at = resume.checkpoint
            self._procedure = self.ruleset.resume(self.ctx, at.round, at.phase)
        self._resume(None)
        self.start_checkup = history.start or Checkup(
            len(self.dice.rolls), len(self.events), self.state_hash()
        )
        if self.checkups:
            before = self.checkups[-2] if len(self.checkups) > 1 else self.start_checkup
            self._rolls_before_last = before.rolls

    # -- reading -------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The battlefield."""
        return self.scenario.board

    @property
    def rolls(self) -> Sequence[Roll]:
        """Every roll so far, in order."""
        return tuple(self.dice.rolls)

    @property
    def is_over(self) -> bool:
        """True once the ruleset returned an Outcome."""
        return self.outcome is not None

    def view(self) -> GameView:
        """The current moment, for UIs."""
        return self.ruleset.view()

    def state_hash(self) -> str:
        """Short hash of the full ruleset state (replay checkups, save verification)."""
        packed = self.ruleset.packed_snapshot()
        return hashlib.blake2b(packed, digest_size=8).hexdigest()

    # -- acting --------------------------------------------------------------------

    def choose(self, choice: Choice) -> None:
        """Answer the pending Decision.

        Atomic: if the ruleset fails while resolving the choice, the game is rebuilt as it
        was before it (the procedure is a generator, which an exception kills).

        Raises:
            StaleChoiceError: the Choice answers another Decision than the pending one.
            IllegalChoiceError: no Decision is pending, or the key is not an option.
            EngineBugError: the ruleset raised while resolving a legal choice.
        """
        pending = self.pending
        if pending is None:
            raise IllegalChoiceError(
                "the game is over: no decision is pending", ChoiceRejection.NO_DECISION
            )
        if choice.decision_id != pending.id:
            raise StaleChoiceError(
                f"choice answers decision #{choice.decision_id}, but #{pending.id} is pending"
            )
        if pending.option(choice.key) is None:
            raise IllegalChoiceError(
                f"{choice.key!r} is not an option of decision #{pending.id} "
                f"({pending.prompt}); options: {', '.join(pending.keys()[:12])}"
                + (" ..." if len(pending.options) > 12 else ""),
                ChoiceRejection.UNKNOWN_OPTION,
            )
        rolls_before = self._rolls_before_last
        self._rolls_before_last = len(self.dice.rolls)
        self.choices.append(choice)
        self.answered.append(pending)
        try:
            self._resume(choice)
        except Exception as exc:
            self._restore(self.choices[:-1], rolls_before)
            if isinstance(exc, WargridError):
                raise
            raise EngineBugError(
                f"the rules engine failed on choice {choice.key!r} "
                f"(decision #{pending.id}: {pending.prompt}): {type(exc).__name__}: {exc}",
                traceback.format_exc(),
            ) from exc
        digest = self.state_hash() if self.hashes else ""
        self.checkups.append(Checkup(len(self.dice.rolls), len(self.events), digest))
        for listener in self.listeners:
            listener(self)

    def choose_key(self, key: str) -> None:
        """Answer the pending Decision with the option ``key``."""
        if self.pending is None:
            raise IllegalChoiceError(
                "the game is over: no decision is pending", ChoiceRejection.NO_DECISION
            )
        self.choose(Choice(self.pending.id, key))

    @property
    def can_undo(self) -> bool:
        """True if the last choice may be taken back: no dice were rolled after it."""
        return bool(self.choices) and len(self.dice.rolls) == self._rolls_before_last

    def undone(self) -> Game:
        """A new Game with every choice but the last (Wesnoth's undo: replay minus one).

        Raises:
            UndoRefusedError: nothing to undo, or dice were rolled after the last choice.
        """
        if not self.choices:
            raise UndoRefusedError("nothing to undo")
        if not self.can_undo:
            raise UndoRefusedError("cannot undo: dice were rolled after that choice")
        return self.replayed(self.choices[:-1])

    def replayed(self, choices: Sequence[Choice]) -> Game:
        """A Game from the same scenario and seed with ``choices`` applied.

        It starts from this game's last checkpoint that ``choices`` lead to as well (one
        taken before they part from this game's own) and replays only the choices after.
        """
        same = 0
        for mine, theirs in zip(self.choices, choices, strict=False):
            if mine != theirs:
                break
            same += 1
        index = last_at(self.checkpoints, same)
        if index is None:
            dice = copy.deepcopy(self._fresh_dice)
            game = Game(
                self.scenario,
                self.seed,
                dice=dice,
                players=self.players,
                position=self.position,
                computer=self.computer,
            )
            for choice in choices:
                game.choose(choice)
            return game
        return self.restored(index, choices)

    def restored(self, index: int, choices: Sequence[Choice], *, hashes: bool = True) -> Game:
        """A Game from checkpoint ``index`` of this game, then the ``choices`` after it
        (from the last written checkpoint up to it, if that one was not written)."""
        while index > 0 and not self.checkpoints[index].written:
            index -= 1
        at = self.checkpoints[index]
        game = self._sibling(self._resume_at(at, tuple(self.checkpoints[:index])), hashes=hashes)
        for choice in choices[at.step :]:
            game.choose(choice)
        return game

    def _resume_at(self, at: Checkpoint, before: tuple[Checkpoint, ...]) -> Resume:
        """How to restore this game's checkpoint ``at``: its logs up to it, and the
        checkpoints ``before`` it to keep."""
        return Resume(
            at,
            tuple(self.choices[: at.step]),
            tuple(self.answered[: at.step]),
            tuple(self.checkups[: at.step]),
            tuple(self.events[: at.events]),
            tuple(self.dice.rolls[: at.rolls]),
            before,
            self.start_checkup,
            self.ruleset,
        )

    def _sibling(self, resume: Resume, eager_gap: int | None = None, hashes: bool = True) -> Game:
        """A Game of the same scenario, seed and players, restored as ``resume`` says."""
        return Game(
            self.scenario,
            self.seed,
            dice=copy.deepcopy(self._fresh_dice),
            players=self.players,
            position=self.position,
            resume=resume,
            computer=self.computer,
            eager_gap=eager_gap,
            hashes=hashes,
        )

    def position_text(self) -> str:
        """The start of the current phase or set-up step as a position file (the `w` key).

        Raises:
            PositionError: no checkpoint has been taken yet.
        """
        if not self.checkpoints:
            raise PositionError("no phase has begun yet: a position starts at a phase")
        return self.position_text_at(self.checkpoints[-1])

    def position_text_at(self, checkpoint: Checkpoint) -> str:
        """``checkpoint`` (one of this game's) as a position file."""
        return position_toml(checkpoint, self.scenario, self.seed, self.ruleset.INFO.title)

    def _checkpoint(self, round_number: int, phase: str) -> None:
        """The ruleset reached the start of a phase: keep the whole state here, or what
        it takes to write it later (`EAGER_GAP`)."""
        reached, self._reached = self._reached, None
        if reached is not None and (reached.round, reached.phase) == (round_number, phase):
            self.checkpoints.append(reached)  # restored from it: nothing changed since
            self._written_at = time.process_time()
            return
        step, now = len(self.choices), time.process_time()
        base = next((c for c in reversed(self.checkpoints) if c.written), None)
        later = None
        gap, recent = self.eager_gap, now - self._written_at < EAGER_SECONDS
        if step < self.quiet_until:
            gap, recent = REPLAY_GAP, True
        if base is not None and (self._lazy or (step - base.step < gap and recent)):
            where = (step, len(self.dice.rolls), len(self.events), self.dice.draws)
            later = partial(self._state_at, base, (*where, round_number, phase))
        self.checkpoints.append(
            Checkpoint(
                step,
                len(self.dice.rolls),
                len(self.events),
                self.dice.draws,
                round_number,
                phase,
                None if later else self.ruleset.packed_state(),
                later,
                tuple(self.ctx.notes),
            )
        )
        if later is None:
            self._written_at = now

    def _state_at(self, base: Checkpoint, where: tuple[int, int, int, int, int, str]) -> bytes:
        """The state of a checkpoint not written when it was taken: this game's choices
        re-run from ``base`` (an earlier written one) to it, in a throwaway game that
        writes every checkpoint. The logs are this game's: they only ever grow (undo and
        the rest build new games), so their start is still the one the checkpoint had.
        ``where``: the checkpoint's step, log lengths, draws, round and phase (a phase
        may begin and end at the same step)."""
        step = where[0]
        base = nearest_written(self.checkpoints, base, where)  # one read since is closer
        game = self._sibling(self._resume_at(base, ()), eager_gap=0, hashes=False)
        for choice in self.choices[base.step : step]:
            game.choose(choice)
        for at in game.checkpoints:
            if (
                at is not base
                and (at.step, at.rolls, at.events, at.draws, at.round, at.phase) == where
            ):
                return at.state
        raise EngineBugError(
            f"re-running choices {base.step} to {step} reached no checkpoint at step {step}",
            "",
        )

    # -- running the procedure -------------------------------------------------------

    def _restore(self, choices: Sequence[Choice], rolls_before_last: int) -> None:
        """Become the game that ``choices`` lead to: restored from the last checkpoint
        before them into a fresh Game, whose state (procedure, ruleset, dice, logs) this
        one takes over; listeners stay.

        The fresh game's context still records into the fresh game's event list, which is
        the very list this game now holds.
        """
        fresh = self.replayed(choices)
        listeners = self.listeners
        self.__dict__.update(fresh.__dict__)
        self.listeners = listeners
        self._rolls_before_last = rolls_before_last

    def _resume(self, choice: Choice | None) -> None:
        try:
            decision = next(self._procedure) if choice is None else self._procedure.send(choice)
        except StopIteration as stop:
            self.pending = None
            self.outcome = stop.value
            self._emit_end(stop.value)
            return
        notes = tuple(text for player, text in self.ctx.notes if player == decision.player)
        told = tuple(text for player, text in self.ctx.notes if player != decision.player)
        self.ctx.notes.clear()
        self.pending = decision.stamped(len(self.choices), notes, told)

    def _emit_end(self, outcome: Outcome) -> None:
        """GameEnded names the result in fields a rule case can expect: ``winner`` is the
        player number (1 or 2) or 0 for a draw, as ``next_player`` counts."""
        seat = outcome.winner
        # The side, as every other line names it ("Game over: Bot 1." said nothing); once
        # (not "Game over: Horde wins. Horde wins on VP").
        result = "a draw" if seat is None else says(self.scenario.sides[seat], "wins")
        said = result.removeprefix("a ") in outcome.reason
        self.ctx.emit(
            "GameEnded",
            f"Game over. {outcome.reason}" if said else f"Game over: {result}. {outcome.reason}",
            result="draw" if seat is None else "win",
            winner=0 if seat is None else seat + 1,
            cause=outcome.cause,
            reason=outcome.reason,
            score1=outcome.scores[0],
            score2=outcome.scores[1],
        )

    def _record(self, event: Event) -> None:
        self.events.append(
            Event(
                event.kind,
                event.text,
                event.fields,
                len(self.events),
                event.round,
                event.phase,
                len(self.dice.rolls),
            )
        )
