"""The Ruleset interface and the context a ruleset runs in.

A ruleset is one tabletop system. An instance holds one game's state, built from a
scenario; its `play` procedure walks the game the way the rulebook reads, yielding
Decisions, rolling through ``ctx.dice`` and reporting through ``ctx.emit``. `Game` drives
it. The registry of rulesets lives in ``engine.rulesets``; a ruleset must import neither
that registry nor another ruleset, nor tui.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

import msgpack

from engine.board import Board, Cell
from engine.bot.evaluation import Evaluation
from engine.decisions import Procedure
from engine.dice import Dice
from engine.events import Event, Scalar
from engine.position import Position, PositionError
from engine.scenario import Scenario
from engine.statecodec import Memo, decode
from engine.stateencoder import encode, encode_packed
from engine.threat import Threat
from engine.view import GameView


@dataclass(frozen=True, slots=True)
class RulesetInfo:
    """What a ruleset is, as data (python-chess variant ClassVars)."""

    name: str
    """Registry name used in scenario files and saves ("killteam")."""
    title: str
    """Human title ("Kill Team (2018)")."""
    version: str
    """Bumped whenever a rule change would make old saves replay differently."""
    digest: str
    """The specification this ruleset implements (path under shared/rules)."""
    aliases: tuple[str, ...] = ()
    round_word: str = "Round"
    """What the specification calls one round of play ("Turn" in Apocalypse): headers,
    bookmarks and transcripts name it as the ruleset's own log does."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended."""

    winner: int | None
    """Winning seat, or None for a draw."""
    reason: str
    """Why, in one sentence."""
    scores: tuple[int, int] = (0, 0)
    cause: str = ""
    """What decided it, in words a rule case can expect (the GameEnded event's ``cause``):
    "wiped out", "victory points", "fewer losses", "points destroyed", "rout"."""


class RuleContext:
    """The services a ruleset procedure may use: dice and the event log."""

    def __init__(self, dice: Dice, sink: Callable[[Event], None]) -> None:
        self.dice = dice
        self._sink = sink
        self.round = 0
        self.phase = ""
        self.notes: list[tuple[int, str]] = []
        """Prompts answered by the game since the last Decision, with the seat each was
        for (see `answered`)."""
        self.on_boundary: Callable[[int, str], None] | None = None
        """Told of every `boundary` (the Game checkpoints there)."""

    def emit(self, kind: str, text: str, **fields: Scalar) -> None:
        """Report that something happened (kind is a past-tense name)."""
        self._sink(Event(kind, text, MappingProxyType(fields), -1, self.round, self.phase))

    def answered(self, text: str, player: int) -> None:
        """Note a prompt the game answered for ``player`` because one option was legal.

        Not an event (saves and checkups stay as they are): `Game` hands the notes to the
        next Decision, as ``notes`` if it is that player's (they see what was done before
        their keys mean something else: "B10 is the only model left to place.") and as
        ``told`` if it is the other player's."""
        self.notes.append((player, text))

    def boundary(self, round_number: int, phase: str) -> None:
        """The start of a phase the ruleset can `Ruleset.resume` at: checkpoint here."""
        if self.on_boundary is not None:
            self.on_boundary(round_number, phase)

    def enter(self, round_number: int, phase: str) -> None:
        """Set the round and phase that stamp the events that follow."""
        self.round = round_number
        self.phase = phase


_STATE = "state"
"""The attribute every ruleset keeps its whole game state in (a dataclass)."""


class Ruleset(ABC):
    """One tabletop system driving one game.

    Subclasses set `INFO`, build their state in ``__init__`` from a validated scenario
    (raising ScenarioError with file and key for anything wrong), and implement the rest.
    They must not import tui, textual, rich or another ruleset.
    """

    INFO: ClassVar[RulesetInfo]

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario

    @abstractmethod
    def play(self, ctx: RuleContext) -> Procedure[Outcome]:
        """The whole game from setup to result."""

    @abstractmethod
    def view(self) -> GameView:
        """The current moment, for UIs."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The full state as plain msgpack-ready data, hashed for replay checkups."""

    def packed_snapshot(self) -> bytes:
        """`snapshot` packed as the checkup hashes it (msgpack, binary type): a ruleset
        may put in parts it packed before, if the bytes are the same."""
        packed: bytes = msgpack.packb(self.snapshot(), use_bin_type=True)
        return packed

    EVALUATION: ClassVar[Evaluation] = Evaluation()
    """How the computer player values a view of this ruleset's game (engine.bot)."""

    EAGER_GAP: ClassVar[int | None] = None
    """Choices after which a game writes its next checkpoint at once (`engine.game.
    EAGER_GAP`, used when None): a ruleset whose choices cost much to re-run keeps undo
    cheap with a smaller gap."""

    STATIC: ClassVar[tuple[type, ...]] = ()
    """Types in the state that never change in play: checkpoints take them from the
    scenario instead of saving them (the board always is one)."""

    def fork(self) -> Ruleset:
        """A ruleset of the same game sharing its static data (catalogues, the board),
        whose state `restore_state` replaces next: building one from the scenario again
        costs more than restoring a checkpoint. Everything but the state is fixed once
        the game has begun."""
        return copy.copy(self)

    def conceal(self, viewer: int, seed: int) -> None:
        """Replace what ``viewer`` may not know (the other side's face-down cards, secret
        orders, hand) with a guess made from public facts and ``seed`` alone.

        Only ever called on a computer player's throwaway copy of the game, so its
        look-ahead cannot depend on the other side's secrets. Rulesets without secrets
        keep the default.
        """
        return None

    def state_data(self) -> dict[str, Any]:
        """The whole state as plain data, for checkpoints (engine.statecodec)."""
        return encode(getattr(self, _STATE), (Board, *self.STATIC))

    def packed_state(self) -> bytes:
        """`state_data` as a checkpoint keeps it (`engine.checkpoints.packed_state`), byte
        for byte, without packing again what is packed already (deployment zones)."""
        return encode_packed(getattr(self, _STATE), (Board, *self.STATIC))

    def restore_state(self, data: Mapping[str, Any], memo: Memo | None = None) -> None:
        """Set the state to ``state_data``'s output, checked against the state's types
        (``memo``: see `engine.statecodec.decode`).

        Raises:
            StateCodecError: naming the first key that does not fit.
        """
        fresh = getattr(self, _STATE)
        setattr(self, _STATE, decode(data, type(fresh), fresh, (Board, *self.STATIC), memo))

    def resume(self, ctx: RuleContext, round_number: int, phase: str) -> Procedure[Outcome]:
        """The game from a `RuleContext.boundary` on, the state restored to it."""
        raise PositionError(f"the {self.INFO.title} ruleset cannot resume at a phase yet")

    def load_position(self, position: Position) -> None:
        """Set the state to ``position``; `play` then starts at its phase.

        Raises:
            PositionError: naming the file and key, for anything the ruleset refuses.
        """
        raise position.error(
            self.INFO.name, f"the {self.INFO.title} ruleset cannot start from positions yet"
        )

    def threat(self, model_id: str) -> Threat | None:
        """Where the model can go and which enemies can see or reach it, from the rules'
        own move, charge and sight functions (`engine.threat`); None when it is not on the
        table (or the ruleset cannot say)."""
        return None

    @staticmethod
    def distance_text(board: Board, a: Cell, b: Cell) -> str:
        """How far ``b`` is from ``a``, measured and worded as the ruleset's own prompts and
        log say it (the status line shows it; a replay has no ruleset state, hence static):
        inches between centres unless the rules say otherwise."""
        return f'{board.range_to(a, b)}"'

    @classmethod
    def measure(cls, scenario: Scenario) -> Callable[[Board, Cell, Cell], str]:
        """`distance_text` as ``scenario`` measures: a scenario may switch a ruleset's
        metric (fatigue's Chebyshev module), and a replay, with no ruleset state, has
        its scenario."""
        return cls.distance_text

    def quick_reference(self) -> str:
        """Markdown quick reference (phases, actions, tables) built from the ruleset's data."""
        return f"# {self.INFO.title}\n\nNo quick reference yet."
