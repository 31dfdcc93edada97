"""A save opened at its last checkpoint at once, and the whole file re-run after.

Replaying every choice costs time in proportion to the game's length (1.5 s per 1,000
wh40k6 choices); restoring the save's last checkpoint and replaying the few choices
since costs the same at any length. The choices stay the truth: the game opened from a
checkpoint is checked against the file's checkups as it is built (a checkpoint that
does not lead to them is dropped, and the whole game replayed instead), and `check_save`
re-runs the whole file from its first choice (a UI runs it in the background) and
compares every checkup and every checkpoint the file holds.

Only a file this engine and ruleset version wrote is opened from a checkpoint: another
version's state may mean something else.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgpack

from engine.checkpoints import Checkpoint
from engine.decisions import Choice, Decision, answered_as
from engine.errors import IllegalChoiceError, ReplayMismatchError, ScenarioError, WargridError
from engine.game import Checkup, Game, Resume
from engine.save import SaveData, replay
from engine.save_reading import UNREAD_EVENT, UNREAD_ROLL


@dataclass(frozen=True, slots=True)
class Opened:
    """A save opened as a live game."""

    game: Game
    checked: bool
    """True if the game was built by re-running (and, same versions, verifying) every
    choice; False if it starts at a checkpoint and `check_save` is still to run."""
    note: str = ""
    """Why the file's checkpoint was not used, when it was there but could not be."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What re-running the whole file found."""

    game: Game | None
    """The game the choices lead to (None if they did not replay)."""
    diverged_at: int | None = None
    """The first step where this engine and the file disagree."""
    problem: str = ""
    """What differed: a checkup (``diverged_at`` is set) or a checkpoint (it is not)."""

    @property
    def verified(self) -> bool:
        """True if every step and every checkpoint of the file matched."""
        return not self.problem


def open_save(data: SaveData, whole: Callable[[], SaveData] | None = None) -> Opened:
    """The game of ``data``: from its last checkpoint if it has a usable one, else every
    choice re-run (verified when this engine wrote the file).

    ``data`` may be a partial read (`SaveData.unread`, `opens_at_checkpoint`): the game
    then holds the same stand-ins at the start of its logs until `fill_unread`, and
    ``whole`` reads the whole file if the game must be replayed from the first choice
    after all (a checkpoint that does not restore).

    Raises:
        SaveError: the embedded scenario or position is refused, or the whole file is.
        ReplayMismatchError: re-running the choices does not reproduce the file.
    """
    if data.unread != (0, 0) and not opens_at_checkpoint(data):
        raise ValueError("a partial read opens only at a checkpoint before what it left out")
    if not data.same_version:
        return Opened(replay(data, verify=False), True)
    note = data.checkpoint_problem
    if data.checkpoints and data.start is not None and not note:
        try:
            return Opened(from_checkpoint(data), False)
        except (ScenarioError, ReplayMismatchError, IllegalChoiceError) as exc:
            note = str(exc)
    if note:
        note = f"The save's checkpoint was not used ({note}); the whole game was replayed."
    if data.unread != (0, 0):
        if whole is None:
            raise ValueError("a partial read replayed from the first choice needs the whole file")
        data = whole()
    return Opened(replay(data, verify=True), True, note)


def opens_at_checkpoint(data: SaveData) -> bool:
    """True if `open_save` may open ``data`` at its last checkpoint with no event or roll
    that a partial read left out (`SaveData.unread`) after that checkpoint."""
    if not usable_checkpoint(data):
        return False
    at = data.checkpoints[-1]
    return data.unread[0] <= at.events and data.unread[1] <= at.rolls


def fill_unread(game: Game, whole: SaveData) -> None:
    """Put the events and rolls of ``whole`` (the file ``game`` was opened from, read
    whole) in place of the stand-ins a partial read left at the start of its logs.

    Raises:
        ReplayMismatchError: ``whole`` has fewer events or rolls than the stand-ins.
    """
    events = _leading(game.events, UNREAD_EVENT)
    rolls = _leading(game.dice.rolls, UNREAD_ROLL)
    if events > len(whole.events) or rolls > len(whole.rolls):
        raise ReplayMismatchError("the file is not the one read before", 0)
    game.events[:events] = whole.events[:events]
    game.dice.rolls[:rolls] = whole.rolls[:rolls]


def _leading(log: Sequence[object], stand_in: object) -> int:
    """How many entries at the start of ``log`` are ``stand_in`` (they are a prefix)."""
    count = 0
    for entry in log:
        if entry is not stand_in:
            break
        count += 1
    return count


def from_checkpoint(data: SaveData, on_step: Callable[[Game], None] | None = None) -> Game:
    """The game at ``data``'s last checkpoint, then its choices since, each step checked
    against the file's checkups (``on_step`` sees it there and after every step).

    Raises:
        ScenarioError: the checkpoint's state does not fit the ruleset (StateCodecError).
        ReplayMismatchError: the checkpoint does not lead to the file's checkups.
        IllegalChoiceError: a choice since the checkpoint is refused.
    """
    resume = resume_of(data)
    assert resume is not None  # callers check that the file has a checkpoint
    at = resume.checkpoint
    game = Game(
        data.scenario,
        data.seed,
        players=data.players,
        position=data.position,
        resume=resume,
        computer=data.computer,
    )
    expect(data, game, at.step)
    expect_counters(data)
    if on_step is not None:
        on_step(game)
    for step in range(at.step + 1, len(data.choices) + 1):
        game.choose(data.choices[step - 1])
        expect(data, game, step)
        if on_step is not None:
            on_step(game)
    if tuple(game.dice.rolls[at.rolls :]) != data.rolls[at.rolls :]:
        raise ReplayMismatchError(
            "end: the rolls since the checkpoint differ from the file", len(data.choices)
        )
    return game


def resume_of(data: SaveData) -> Resume | None:
    """Where a game of ``data`` resumes: its last checkpoint, with the file's logs up to
    it (None: no checkpoint this engine may use)."""
    if not usable_checkpoint(data):
        return None
    at = data.checkpoints[-1]
    return Resume(
        at,
        data.choices[: at.step],
        tuple(_unknown(c) for c in data.choices[: at.step]),
        data.checkups[: at.step],
        data.events[: at.events],
        data.rolls[: at.rolls],
        data.checkpoints[:-1],
        data.start,
    )


def usable_checkpoint(data: SaveData) -> bool:
    """True if ``data`` has a last checkpoint this engine may restore (`resume_of`)."""
    return bool(
        data.checkpoints
        and data.start is not None
        and data.same_version
        and not data.checkpoint_problem
    )


def expect(data: SaveData, game: Game, step: int) -> None:
    """``game`` after ``step`` choices agrees with the file's checkup there.

    Raises:
        ReplayMismatchError: it does not.
    """
    if step == 0:
        want: Checkup | None = data.start
    else:
        want = data.checkups[step - 1] if step <= len(data.checkups) else None
    got = Checkup(len(game.dice.rolls), len(game.events), game.state_hash())
    if want != got:
        raise ReplayMismatchError(
            f"step {step}: the game from the checkpoint differs from the file", step
        )


def expect_counters(data: SaveData) -> None:
    """The dice counter of each of ``data``'s checkpoints is the dice its rolls before it
    threw. A counter is in no checkup: a damaged one would show only at the next roll
    (not at all when none follows), with the rolls from it already shown; every die
    drawn is in a roll of the file, so counting them is the cheap check at open.

    Raises:
        ReplayMismatchError: a counter differs (named at its checkpoint's step).
    """
    position = data.position
    drawn = position.draws if position is not None and position.state is not None else 0
    unread = data.unread[1]  # rolls a partial read left out: their dice counted in the file
    faces = [*data.unread_faces, *(len(roll.faces) for roll in data.rolls[unread:])]
    counted = 0
    for at in data.checkpoints:
        drawn += sum(faces[counted : at.rolls])
        counted = at.rolls
        if at.draws != drawn:
            raise ReplayMismatchError(
                f"step {at.step}: the dice counter of the checkpoint is {at.draws}, but "
                f"the rolls before it threw {drawn} dice",
                at.step,
            )


def _unknown(choice: Choice) -> Decision:
    """What a choice before the checkpoint answered, until `adopt` knows it."""
    return answered_as(choice.decision_id, choice.key, "(made before the save's checkpoint)")


def check_save(data: SaveData) -> Verdict:
    """Re-run every choice of ``data`` and compare each step and each checkpoint with
    the file. Touches no game but its own, so a UI may run it in a worker thread."""
    try:
        game = replay(data, verify=True)
    except ReplayMismatchError as exc:
        return Verdict(None, exc.step, str(exc))
    except WargridError as exc:  # the embedded scenario refused, a rules engine bug
        return Verdict(None, None, str(exc))
    for kept in data.checkpoints:
        if _twin(game.checkpoints, kept) is None:
            return Verdict(
                game,
                None,
                f"the save's checkpoint at step {kept.step} ({kept.phase}) does not match "
                "its choices; the game was rebuilt from the choices",
            )
    return Verdict(game)


def _twin(checkpoints: Sequence[Checkpoint], kept: Checkpoint) -> int | None:
    """Index of the checkpoint equal to ``kept`` (from a file: compared as stored). A
    file written before checkpoints kept their notes has none, and matches without."""
    packed = _packed(kept)
    for i, at in enumerate(checkpoints):
        same_place = (at.step, at.round, at.phase) == (kept.step, kept.round, kept.phase)
        if same_place and _packed(at, notes=bool(kept.notes)) == packed:
            return i
    return None


def _packed(at: Checkpoint, *, notes: bool = True) -> bytes:
    record = at.to_record() if notes else at.to_record()[:7]
    raw: bytes = msgpack.packb(record, use_bin_type=True)
    return raw


def adopt(game: Game, verdict: Verdict) -> Game:
    """``game`` (opened from a checkpoint, maybe played on since) once ``verdict`` is in:
    the Decisions and checkpoints before the checkpoint filled in when the file was
    verified; the game the choices lead to, played on to the same choices, when the
    file's checkpoint did not match them. Call it where the game is played (not in the
    worker thread)."""
    full = verdict.game
    if full is None:
        return game
    n = min(len(game.choices), len(full.choices))
    if game.choices[:n] != full.choices[:n]:
        return game  # undone past the file's end and played differently: nothing to fill
    if not verdict.verified:
        return full.replayed(game.choices)
    game.answered[:n] = full.answered[:n]
    if game.checkpoints:
        first = _twin(full.checkpoints, game.checkpoints[0])
        if first is not None:
            game.checkpoints[:0] = full.checkpoints[:first]
    return game
