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
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import msgpack

from engine.board import Board
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
from engine.position import Position
from engine.ruleset import Outcome, RuleContext, Ruleset
from engine.rulesets import find_ruleset
from engine.scenario import Scenario
from engine.view import GameView


@dataclass(frozen=True, slots=True)
class Checkup:
    """What a choice led to, recorded so a replay can name the first divergence."""

    rolls: int
    """Length of the roll log after the choice was resolved."""
    events: int
    """Length of the event log after the choice was resolved."""
    state_hash: str
    """Hash of the ruleset's snapshot after the choice was resolved."""


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
    ) -> None:
        """Start a game on ``scenario``, or at ``position`` (whose scenario then wins)."""
        if position is not None:
            scenario = position.scenario
        self.scenario = scenario
        self.position = position
        self.seed = seed
        self.players = players
        self.dice = dice if dice is not None else Dice(seed)
        self._fresh_dice = copy.deepcopy(self.dice)
        """The dice as they were before any roll, to rebuild the game after an engine bug."""
        self.ruleset: Ruleset = find_ruleset(scenario.ruleset)(scenario)
        if position is not None:
            self.ruleset.load_position(position)
        self.events: list[Event] = []
        self.choices: list[Choice] = []
        self.answered: list[Decision] = []
        """The Decision each choice answered, for text replays and the viewer."""
        self.checkups: list[Checkup] = []
        self.pending: Decision | None = None
        self.outcome: Outcome | None = None
        self.listeners: list[Callable[[Game], None]] = []
        """Called after every accepted choice (autosave, network seats)."""
        self._rolls_before_last = 0
        self.ctx = RuleContext(self.dice, self._record)
        self._procedure: Procedure[Outcome] = self.ruleset.play(self.ctx)
        self._resume(None)
        self.start_checkup = Checkup(len(self.dice.rolls), len(self.events), self.state_hash())

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
        packed = msgpack.packb(self.ruleset.snapshot(), use_bin_type=True)
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
        self.checkups.append(Checkup(len(self.dice.rolls), len(self.events), self.state_hash()))
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
        """A fresh Game from the same scenario and seed with ``choices`` applied."""
        game = Game(self.scenario, self.seed, players=self.players, position=self.position)
        for choice in choices:
            game.choose(choice)
        return game

    # -- running the procedure -------------------------------------------------------

    def _restore(self, choices: Sequence[Choice], rolls_before_last: int) -> None:
        """Become the game that ``choices`` lead to: replayed into a fresh Game, whose state
        (procedure, ruleset, dice, logs) this one takes over; listeners stay.

        The fresh game's context still records into the fresh game's event list, which is
        the very list this game now holds.
        """
        fresh = Game(
            self.scenario,
            self.seed,
            dice=copy.deepcopy(self._fresh_dice),
            players=self.players,
            position=self.position,
        )
        for choice in choices:
            fresh.choose(choice)
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
            winner = "draw" if stop.value.winner is None else self.players[stop.value.winner]
            self.ctx.emit("GameEnded", f"Game over: {winner}. {stop.value.reason}")
            return
        notes = tuple(self.ctx.notes)
        self.ctx.notes.clear()
        self.pending = replace(decision, id=len(self.choices), notes=decision.notes + notes)

    def _record(self, event: Event) -> None:
        self.events.append(replace(event, seq=len(self.events), rolls=len(self.dice.rolls)))
