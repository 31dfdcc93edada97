"""Checkpoints: a game's whole state at the start of a phase, to go on from there.

A ruleset marks the moments it can resume at (``ctx.boundary``, the start of a phase);
`Game` writes the ruleset's state there (engine.statecodec) with the dice counter and the
log lengths. Undo, continuing a save and joining a hosted game then restore the last
checkpoint and replay only the choices since, so they cost the same at any game length.

A checkpoint is also a position: `position_toml` writes one as a TOML file that
``wargrid play --position`` starts from, and that continues exactly as the game would.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack

from engine.errors import SaveError
from engine.position import PositionError
from engine.scenario import Scenario
from engine.statecodec import Memo, StateCodecError
from engine.tomlwrite import dumps, string


@dataclass(frozen=True, slots=True, eq=False)
class Checkpoint:
    """The game at the start of a phase."""

    step: int
    """Choices made before it (it was taken while resolving choice ``step``)."""
    rolls: int
    """Length of the roll log at it."""
    events: int
    """Length of the event log at it."""
    draws: int
    """The dice counter at it."""
    round: int
    phase: str
    packed: bytes | None
    """The ruleset's state (see `state`), or None until `later` wrote it."""
    later: Callable[[], bytes] | None = field(default=None, repr=False)
    """Writes the state when it is first asked for: a game writes it at once only every
    few choices (`engine.game.EAGER_GAP`) and re-runs the choices since such a one for
    the others (writing a state costs as much as a few choices, and most are never
    read: undo, saves and positions want the last ones)."""
    notes: tuple[tuple[int, str], ...] = ()
    """The "done for you" notes (`RuleContext.notes`) made since the last choice and not
    yet shown: a game resumed here hands them to its next Decision as the original did."""

    @property
    def state(self) -> bytes:
        """The ruleset's state as plain data (engine.statecodec), msgpack-packed: a long
        game keeps hundreds of checkpoints, and packed they take a tenth of the memory
        (33 KB against 320 KB for a wh40k6 battle)."""
        packed = self.packed
        if packed is None:
            assert self.later is not None
            packed = self.later()
            object.__setattr__(self, "packed", packed)
            object.__setattr__(self, "later", None)
        return packed

    @property
    def written(self) -> bool:
        """True if the state is at hand (restoring from it re-runs no choice)."""
        return self.packed is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Checkpoint):
            return NotImplemented
        return self.to_record() == other.to_record()

    __hash__ = None  # type: ignore[assignment]  # equal by value, and not frozen in value

    def state_data(self) -> dict[str, Any]:
        """The state as plain data, to restore (a file's checkpoint: checked on use).

        Raises:
            StateCodecError: the packed state is not a map.
        """
        try:
            data = msgpack.unpackb(self.state, raw=False, strict_map_key=True)
        except (ValueError, TypeError, msgpack.UnpackException) as exc:
            raise StateCodecError(f"state: not readable ({exc})") from exc
        if not isinstance(data, dict):
            raise StateCodecError("state: not a map")
        return data

    def shared_state(self) -> tuple[dict[str, Any], Memo]:
        """`state_data`, unpacked once for the last few checkpoints restored from (a
        computer player restores one for every option it weighs), with the memo of what
        was decoded from it (`engine.statecodec.decode`). Shared: neither may be changed.

        Raises:
            StateCodecError: the packed state is not a map.
        """
        kept = _SHARED.get(id(self))
        if kept is None or kept[0] is not self:
            kept = (self, self.state_data(), {})
            with _SHARING:  # a UI's computer player may restore on another thread
                while len(_SHARED) >= SHARED:
                    del _SHARED[next(iter(_SHARED))]
                _SHARED[id(self)] = kept
        return kept[1], kept[2]

    def to_record(self) -> list[Any]:
        """As saves store it (msgpack); the notes are an eighth entry only when there are
        some, so a checkpoint without any reads the same in a wargrid from before them."""
        record: list[Any] = [
            self.step,
            self.rolls,
            self.events,
            self.draws,
            self.round,
            self.phase,
            self.state,
        ]
        if self.notes:
            record.append([[seat, text] for seat, text in self.notes])
        return record


SHARED = 4
"""Checkpoints whose unpacked state `Checkpoint.shared_state` keeps (the oldest goes)."""
_SHARED: dict[int, tuple[Checkpoint, dict[str, Any], Memo]] = {}
_SHARING = threading.Lock()


def packed_state(data: Mapping[str, Any]) -> bytes:
    """A ruleset's state as a checkpoint keeps it."""
    raw: bytes = msgpack.packb(data, use_bin_type=True)
    return raw


MAX_NOTES = 64
"""Notes a checkpoint read from a file may carry (a game makes a handful between choices)."""
MAX_NOTE = 300
"""Characters of one note read from a file (the rulesets' longest is under 150)."""


def from_record(item: Any, source: str) -> Checkpoint:
    """A checkpoint read from a save, its shape checked (its state is checked on use)."""
    kinds = (int, int, int, int, int, str, bytes)
    notes: tuple[tuple[int, str], ...] = ()
    if isinstance(item, list) and len(item) == len(kinds) + 1:
        notes = _notes(item[-1], source)
        item = item[:-1]
    if (
        not isinstance(item, list)
        or len(item) != len(kinds)
        or not all(
            isinstance(v, k) and not (k is int and isinstance(v, bool))
            for v, k in zip(item, kinds, strict=True)
        )
        or min(item[:5]) < 0
    ):
        raise SaveError(f"{source}: an entry of 'checkpoints' has the wrong shape")
    return Checkpoint(item[0], item[1], item[2], item[3], item[4], item[5], item[6], notes=notes)


def _notes(raw: Any, source: str) -> tuple[tuple[int, str], ...]:
    """A checkpoint's notes from a file: seats 0 or 1, short printable texts."""
    if (
        not isinstance(raw, list)
        or not 0 < len(raw) <= MAX_NOTES
        or not all(
            isinstance(note, list)
            and len(note) == 2
            and note[0] in (0, 1)
            and type(note[0]) is int
            and isinstance(note[1], str)
            and len(note[1]) <= MAX_NOTE
            and note[1].isprintable()
            for note in raw
        )
    ):
        raise SaveError(f"{source}: the notes of a checkpoint have the wrong shape")
    return tuple((seat, text) for seat, text in raw)


MAX_IN_SAVE = 2
"""Checkpoints a save keeps: the last (Continue starts there) and the one before it (so
undoing the choice that began a phase does not replay the whole game)."""


def read_checkpoints(
    raw: Any, source: str, *, choices: int, rolls: int, events: int
) -> tuple[tuple[Checkpoint, ...], str]:
    """A save's checkpoints, shapes checked against its logs, and what was wrong if they
    cannot be used (then none are: the choices alone still define the game)."""
    if raw is None:
        return (), ""
    try:
        if not isinstance(raw, list) or len(raw) > MAX_IN_SAVE:
            raise SaveError(f"{source}: 'checkpoints' must be a list of up to {MAX_IN_SAVE}")
        found = tuple(from_record(item, source) for item in raw)
        last = (0, 0, 0, 0)
        for at in found:
            here = (at.step, at.rolls, at.events, at.draws)
            if any(a < b for a, b in zip(here, last, strict=True)) or (
                at.step > choices or at.rolls > rolls or at.events > events
            ):
                raise SaveError(f"{source}: a checkpoint lies outside the game's logs")
            last = here
    except SaveError as exc:
        return (), str(exc)
    return found, ""


def last_at(checkpoints: Sequence[Checkpoint], step: int) -> int | None:
    """Index of the last checkpoint taken at or before ``step``, if any."""
    found = None
    for i, checkpoint in enumerate(checkpoints):
        if checkpoint.step > step:
            break
        found = i
    return found


def nearest_written(
    checkpoints: Sequence[Checkpoint], base: Checkpoint, where: tuple[Any, ...]
) -> Checkpoint:
    """The last of ``checkpoints`` written from ``base`` on, before the one at ``where``
    (step, log lengths, draws, round, phase): one read since it was taken is as good a
    start as ``base`` and closer (reading every checkpoint of a throwaway game re-ran
    its choices from the first each time)."""
    found, seen = base, False
    for at in checkpoints:
        if (at.step, at.rolls, at.events, at.draws, at.round, at.phase) == where:
            break
        seen = seen or at is base
        found = at if seen and at.written else found
    return found


def position_toml(checkpoint: Checkpoint, scenario: Scenario, seed: int, title: str) -> str:
    """A checkpoint as a position file (the scenario embedded, so it stands alone).

    A set-up checkpoint (round 0, before the first battle round) is written in round 1,
    as hand-written set-up positions are: its phase names the step."""
    if not 0 <= checkpoint.round <= scenario.rounds:
        raise PositionError(
            f"a position starts in a battle round (1 to {scenario.rounds}) or at set-up; the "
            f"last phase began in round {checkpoint.round}"
        )
    when = f"round {checkpoint.round}" if checkpoint.round else "set-up"
    head = [
        f"# A {title} position written by wargrid: the whole game at the start of",
        f"# {when}, {checkpoint.phase} phase. Load it with `wargrid play --position`;",
        "# it goes on exactly as the game it was taken from.",
        f"scenario = {{ text = {string(scenario.text)} }}",
        f"round = {max(checkpoint.round, 1)}",
        f"phase = {string(checkpoint.phase)}",
        "",
    ]
    dice = {"seed": seed, "draws": checkpoint.draws}
    body = dumps({"dice": dice, "state": checkpoint.state_data()})
    return "\n".join(head) + body
