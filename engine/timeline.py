"""The replay timeline: a save re-run once, with every step kept for instant seeking.

A running ruleset procedure is a generator and cannot be copied, so a game cannot be
rewound. The replay viewer therefore re-runs the save once when it opens and keeps, for
every step, the engine's immutable `GameView` and how far the roll and event logs had got
(PRIOR-ART §7.1 keeps snapshots for the same reason). Seeking, stepping and jumping to a
phase or round are then lookups.

Three verdicts (PRIOR-ART §7.1, "two replay modes"):

- verified: this engine and ruleset version wrote the file, and re-running it matched
  every roll, event, checkup and the result (the logs shown are then the re-run's own);
- unverified: another version wrote it. The log (rolls, events, who chose what) is the
  file's own record, which is what the players saw; the board is this engine re-running
  the recorded choices without checking, as far as it accepts them, because the file
  stores no board. A board drawn from the events alone would need every ruleset to
  describe every change of state in its events, which none does;
- diverged: same versions, but a step did not match (an edited file, or an engine that
  changed without a new version number). The message names the step and what differed;
  the log stays the file's, the board this engine's re-run past that step.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import enum
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace
from pathlib import Path

from engine.decisions import Choice, Decision, Option
from engine.dice import Roll
from engine.errors import IllegalChoiceError, ReplayMismatchError, ScenarioError
from engine.events import Event
from engine.game import Game
from engine.luck import Luck, luck_table
from engine.replay_steps import (
    Bookmark,
    Moment,
    Recorder,
    answered_of,
    bookmarks_of,
    moments_of,
    phase_starts_of,
    without_step,
)
from engine.resumption import from_checkpoint
from engine.save import ENGINE_VERSION, SaveData, decode, read_save, replay, to_bytes
from engine.view import GameView

__all__ = [
    "Bookmark",
    "Moment",
    "Timeline",
    "Verdict",
    "build_timeline",
    "opening_timeline",
    "timeline_of_file",
    "timeline_of_game",
]


class Verdict(enum.Enum):
    """How far the file can be trusted."""

    VERIFIED = "verified"
    """This engine re-ran every step and matched every roll and checkup of the file."""
    UNVERIFIED = "unverified"
    """Another engine or ruleset version wrote the file: shown from its records, unchecked."""
    DIVERGED = "diverged"
    """Same versions, but re-running the file did not reproduce it from some step on."""
    VERIFYING = "verifying…"
    """Shown from the file's last checkpoint while the whole file is re-run (boards
    before the checkpoint come with the verdict: `build_timeline`)."""


@dataclass(frozen=True)
class Timeline:
    """Every step of a saved game, ready to show in any order."""

    data: SaveData
    moments: tuple[Moment, ...]
    """One per step, ``moments[s].step == s``; ``len(data.choices) + 1`` of them."""
    answered: tuple[Decision | None, ...]
    """The Decision each choice answered (None past the step this engine could follow)."""
    final_pending: Decision | None
    """The Decision the file stops at (None when the game is over, or not reached)."""
    verdict: Verdict
    problem: str = ""
    """What differed (diverged), or where the re-run stopped (unverified)."""
    diverged_at: int | None = None
    reach: int = 0
    """Views exist for steps 0 to ``reach``; beyond, the board stays as it was there."""
    phase_starts: tuple[int, ...] = ()
    bookmarks: tuple[Bookmark, ...] = ()
    first: int = 0
    """Views exist from this step on (the checkpoint's, while verifying)."""

    # -- reading a step -------------------------------------------------------------------

    @property
    def last(self) -> int:
        """The last step (the number of choices)."""
        return len(self.moments) - 1

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The roll log shown: the file's record (with what each roll needed, once verified)."""
        return self.data.rolls

    @property
    def events(self) -> tuple[Event, ...]:
        """The event log shown: the file's record."""
        return self.data.events

    def at(self, step: int) -> Moment:
        """The moment after ``step`` choices (clamped to the game)."""
        return self.moments[min(max(step, 0), self.last)]

    def view(self, step: int) -> GameView | None:
        """The board at ``step``, or at the last step this engine reached before it (at
        the first step with a board, before that)."""
        return self.moments[min(max(step, self.first), self.reach)].view

    def choice(self, step: int) -> Choice | None:
        """The choice made at ``step`` (1-based; None for step 0)."""
        return self.data.choices[step - 1] if 1 <= step <= self.last else None

    def decision(self, step: int) -> Decision | None:
        """The Decision the choice of ``step`` answered, if known."""
        return self.answered[step - 1] if 1 <= step <= self.last else None

    def chosen(self, step: int) -> Option | None:
        """The option picked at ``step``, if the Decision is known."""
        decision, choice = self.decision(step), self.choice(step)
        return None if decision is None or choice is None else decision.option(choice.key)

    def pending(self, step: int) -> Decision | None:
        """The Decision waiting at ``step`` (None once the game is over, or unknown)."""
        return self.answered[step] if step < self.last else self.final_pending

    def span(self, step: int) -> tuple[int, int, int, int]:
        """Roll and event log slices caused by ``step``: (roll from, to, event from, to)."""
        now = self.at(step)
        before = self.at(step - 1) if step > 0 else Moment(0, None, 0, 0, 0, "")
        return before.rolls, now.rolls, before.events, now.events

    def luck(self, step: int | None = None) -> tuple[Luck, ...]:
        """Luck statistics up to ``step`` (None: the whole game)."""
        if step is None:
            return luck_table(self.data.events, self.data.rolls)
        moment = self.at(step)
        return luck_table(self.data.events[: moment.events], self.data.rolls[: moment.rolls])

    # -- moving -------------------------------------------------------------------------

    def next_phase(self, step: int) -> int:
        """The first step of the next phase (or the last step)."""
        i = bisect_right(self.phase_starts, step)
        return self.phase_starts[i] if i < len(self.phase_starts) else self.last

    def previous_phase(self, step: int) -> int:
        """The start of this phase, or of the one before when already at its start."""
        i = bisect_left(self.phase_starts, step)
        return self.phase_starts[i - 1] if i > 0 else 0

    def next_round(self, step: int) -> int:
        """The first step of the next round (or the last step)."""
        later = [b.step for b in self.bookmarks if b.step > step]
        return later[0] if later else self.last

    def previous_round(self, step: int) -> int:
        """The start of this round, or of the one before when already at its start."""
        earlier = [b.step for b in self.bookmarks if b.step < step]
        return earlier[-1] if earlier else 0

    def round_start(self, number: int) -> int | None:
        """The first step of round ``number`` (None if the game never got there)."""
        for mark in self.bookmarks:
            if mark.round >= number:
                return mark.step if mark.round == number else None
        return None

    # -- describing and forking ---------------------------------------------------------

    def status(self) -> str:
        """The verdict in one plain-English line."""
        data = self.data
        if self.verdict is Verdict.VERIFIED:
            return "verified: every roll and state matches this engine"
        if self.verdict is Verdict.VERIFYING:
            return (
                f"verifying…: shown from the save's checkpoint at step {self.first}; the "
                "boards before it come once the whole file is re-run"
            )
        if self.verdict is Verdict.DIVERGED:
            return f"diverged at step {self.diverged_at}: {self.problem}"
        text = (
            f"unverified: written by engine {data.engine_version} with {data.ruleset} "
            f"{data.ruleset_version} (this is engine {ENGINE_VERSION}); the log is the "
            "file's record, the board this engine's re-run"
        )
        return text + (f"; {self.problem}" if self.problem else "")

    def fork(self, step: int) -> Game:
        """A live game at ``step``: the file's first ``step`` choices re-run (the file is
        not touched; saving the new game is the caller's business).

        Raises:
            ReplayMismatchError: this engine cannot follow the file that far.
        """
        if step > self.reach:
            raise ReplayMismatchError(
                f"cannot continue from step {step}: this engine only follows the file to "
                f"step {self.reach}",
                self.reach + 1,
            )
        return replay(self.data, verify=False, upto=step)


def timeline_of_file(path: str | Path) -> Timeline:
    """Read and re-run a save (the replay viewer's "open").

    Raises:
        SaveError: the file is damaged, foreign or from a newer format.
    """
    return build_timeline(read_save(path))


def opening_timeline(data: SaveData) -> Timeline:
    """The timeline to show at once: from the file's last checkpoint to its end, when it
    has one this engine can use (the viewer then builds the whole one, verified, in the
    background); else the whole file re-run now (`build_timeline`).

    Raises:
        SaveError: the embedded scenario or position is refused by this engine.
    """
    usable = data.same_version and data.start is not None and not data.checkpoint_problem
    if not usable or not data.checkpoints:
        return build_timeline(data)
    at = data.checkpoints[-1]
    recorder = Recorder(True)
    try:
        game = from_checkpoint(data, recorder.record)
    except (ScenarioError, ReplayMismatchError, IllegalChoiceError):
        return build_timeline(data)  # the choices decide: the whole re-run says how
    shown: list[GameView | None] = [None] * at.step
    moments = moments_of(data, game.start_checkup, shown + recorder.shown)
    answered = (None,) * at.step + tuple(game.answered[at.step :])
    return Timeline(
        data,
        moments,
        answered,
        game.pending,
        Verdict.VERIFYING,
        reach=len(data.choices),
        phase_starts=phase_starts_of(moments),
        bookmarks=bookmarks_of(moments, game.ruleset.INFO.round_word),
        first=at.step,
    )


def timeline_of_game(game: Game, source: str = "this game") -> Timeline:
    """The timeline of a game in memory, exactly as its save file would give it (the
    game-over screen's "Open the replay")."""
    return build_timeline(decode(to_bytes(game), source))


def build_timeline(data: SaveData, *, views: bool = True) -> Timeline:
    """Re-run ``data`` once (verified when this engine wrote it) and keep every step.

    ``views=False`` skips the boards (for text output). Divergence is not an error
    here: it is the timeline's verdict.

    Raises:
        SaveError: the embedded scenario or position is refused by this engine.
    """
    recorder = Recorder(views)
    verify = data.same_version
    problem, diverged_at = "", None
    try:
        replay(data, verify=verify, on_step=recorder.record)
    except ReplayMismatchError as exc:
        problem, diverged_at = str(exc), exc.step if verify else None
        recorder.follow(data)
    game = recorder.game
    assert game is not None
    reach = len(recorder.shown) - 1
    if not verify and reach < len(data.choices):
        problem = f"this engine refuses the recorded choice of step {reach + 1}"
    moments = moments_of(data, game.start_checkup, recorder.shown)
    n = len(data.choices)
    verdict = (
        Verdict.UNVERIFIED if not verify else Verdict.DIVERGED if problem else Verdict.VERIFIED
    )
    if verdict is Verdict.VERIFIED:  # what is shown as verified is the replay's own record
        # (its rolls carry what each needed, its events their roll stamps)
        data = replace(data, rolls=tuple(game.dice.rolls), events=tuple(game.events))
    return Timeline(
        data,
        moments,
        answered_of(game, reach, n),
        game.pending if reach == n else None,
        verdict,
        without_step(problem, diverged_at),
        diverged_at,
        reach,
        phase_starts_of(moments),
        bookmarks_of(moments, game.ruleset.INFO.round_word),
    )
