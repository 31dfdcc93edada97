"""msgpack saves: write atomically, read defensively, replay and verify.

A save is self-contained: the scenario text, the seed and every choice define the game;
the recorded rolls, events and per-choice checkups (roll count, event count, state hash)
let a replay name the first step where the engine no longer agrees with the file
(Wesnoth's checkup). Loading a save = replaying its choices.

Format versions (``format_version``; a reader takes every version up to its own):

- 1: the scenario, seed, choices, checkups, rolls, events and result.
- 2: adds ``checkpoints``, the game's last `engine.checkpoints.MAX_IN_SAVE` checkpoints
  as ``[step, rolls, events, draws, round, phase, state]``, and ``start``, the checkup
  before the first choice as ``[rolls, events, hash]``. A checkpoint taken while
  "done for you" notes were waiting for the next Decision has them as an eighth entry,
  ``[[seat, text], ...]`` (older readers drop such a checkpoint and replay instead).
  Continue starts at the last checkpoint (engine.resumption) and re-runs the whole file
  after; a checkpoint that is damaged or does not match the choices is dropped, never
  trusted over them.

Every way a file can be wrong (not msgpack, truncated, wrong types, a newer format, a
ruleset we do not have) ends in a one-line `SaveError`, never a traceback
(`engine.save_reading`). This module writes and replays, and names the whole API.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import os
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack

from engine.checkpoints import MAX_IN_SAVE
from engine.decisions import Choice
from engine.dice import Roll
from engine.errors import IllegalChoiceError, ReplayMismatchError, SaveError, ScenarioError
from engine.events import Event
from engine.game import REPLAY_TAIL, Checkup, Game
from engine.replay_checks import verify_end, verify_events
from engine.save_data import (
    COMPUTER_LEVELS,
    ENGINE_VERSION,
    FORMAT,
    FORMAT_VERSION,
    MAX_ITEMS,
    MAX_NAME,
    MAX_SAVE_BYTES,
    SEED_INT_LIMIT,
    SaveData,
)
from engine.save_reading import decode, has_unread, read_bytes, read_save
from engine.untrusted import printable

__all__ = [
    "COMPUTER_LEVELS",
    "ENGINE_VERSION",
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_ITEMS",
    "MAX_NAME",
    "MAX_SAVE_BYTES",
    "SaveData",
    "autosave",
    "decode",
    "has_unread",
    "load_game",
    "read_bytes",
    "read_save",
    "replay",
    "to_bytes",
    "write_save",
]


def to_bytes(game: Game) -> bytes:
    """Encode a game as a save file.

    The logs (choices, checkups, rolls, events: nearly all of a long game's file) are
    packed once per entry and kept (`_LogPacking`), so the autosave after each choice
    packs only what the choice added: 3 ms instead of 35 for a 2,000-choice game. The
    bytes are those ``msgpack.packb`` makes of the whole document.

    Raises:
        SaveError: the game was opened from a partial read whose stand-ins are still at
            the start of its logs (`has_unread`): written, the file would lose them.
    """
    if has_unread(game):
        raise SaveError("the start of the game's log is not read yet: it cannot be written")
    outcome, start = game.outcome, game.start_checkup
    packer = msgpack.Packer(use_bin_type=True)
    logs = _LOGS.setdefault(game, {})
    doc: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "engine_version": ENGINE_VERSION,
        "ruleset": game.ruleset.INFO.name,
        "ruleset_version": game.ruleset.INFO.version,
        "scenario": {"source": game.scenario.source, "text": game.scenario.text},
        "seed": game.seed if game.seed < SEED_INT_LIMIT else str(game.seed),
        "position": None
        if game.position is None
        else {"source": game.position.source, "text": game.position.text},
        "players": list(game.players),
        "computer": list(game.computer),
        "choices": _LogPacking.of(logs, "choices", game.choices, _choice_record),
        "checkups": _LogPacking.of(logs, "checkups", game.checkups, _checkup_record),
        "rolls": _LogPacking.of(logs, "rolls", game.dice.rolls, _roll_record),
        "events": _LogPacking.of(logs, "events", game.events, _event_record),
        "result": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "scores": list(outcome.scores)},
        "turn": None if game.pending is None else game.pending.player,
        "checkpoints": [c.to_record() for c in game.checkpoints[-MAX_IN_SAVE:]],
        "start": [start.rolls, start.events, start.state_hash],
    }
    parts = [packer.pack_map_header(len(doc))]
    for key, value in doc.items():
        parts.append(packer.pack(key))
        parts.append(value.packed(packer) if isinstance(value, _LogPacking) else packer.pack(value))
    return b"".join(parts)


class _LogPacking:
    """One log of a game packed entry by entry. Within a game a log only grows (undo
    and the rest build a new game), so the entries packed stay valid; a log that is not
    the list packed before, or whose last packed entry moved, is packed anew."""

    __slots__ = ("count", "last", "log", "parts", "record")

    def __init__(self, log: list[Any], record: Callable[[Any], Any]) -> None:
        self.log = log
        self.record = record
        self.count = 0
        self.last: object = None
        self.parts: list[bytes] = []

    @classmethod
    def of(
        cls, logs: dict[str, _LogPacking], name: str, log: list[Any], record: Callable[[Any], Any]
    ) -> _LogPacking:
        kept = logs.get(name)
        if (
            kept is None
            or kept.log is not log
            or kept.count > len(log)
            or (kept.count and log[kept.count - 1] is not kept.last)
        ):
            kept = logs[name] = cls(log, record)
        return kept

    def packed(self, packer: msgpack.Packer) -> bytes:
        log, record = self.log, self.record
        self.parts.extend(packer.pack(record(item)) for item in log[self.count :])
        self.count = len(log)
        self.last = log[-1] if log else None
        return packer.pack_array_header(len(log)) + b"".join(self.parts)


_LOGS: weakref.WeakKeyDictionary[Game, dict[str, _LogPacking]] = weakref.WeakKeyDictionary()
"""Each live game's packed logs (gone with the game)."""


def _choice_record(choice: Choice) -> list[Any]:
    return [choice.decision_id, choice.key]


def _checkup_record(checkup: Checkup) -> list[Any]:
    return [checkup.rolls, checkup.events, checkup.state_hash]


def _event_record(event: Event) -> list[object]:
    return event.to_record()


def _roll_record(roll: Roll) -> list[Any]:
    """A roll as the file keeps it; its reading (what it needed) is a sixth entry, so a
    file written before readings existed still loads."""
    record: list[Any] = [roll.index, roll.player, roll.reason, roll.dice, list(roll.faces)]
    r = roll.reading
    if r is not None:
        p = r.chance
        chance = None if p is None else [p.numerator, p.denominator]
        record.append([r.need, r.outcome, r.kind, r.tests, r.successes, chance, r.value])
    return record


def write_save(game: Game, path: str | Path) -> None:
    """Write atomically: temp file in the same folder, fsync, rename over the target."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = to_bytes(game)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename durable too: POSIX keeps it only once the folder is fsynced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. Windows cannot open folders; the rename is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def autosave(game: Game, path: str | Path, *, now: bool = True) -> Callable[[Game], None]:
    """Save ``game`` to ``path`` after every choice, and at once if ``now`` (False for a
    game nobody has played yet: no empty save files); returns the listener."""

    def listener(g: Game) -> None:
        write_save(g, path)

    if now:
        write_save(game, path)
    game.listeners.append(listener)
    return listener


def replay(
    data: SaveData,
    *,
    verify: bool = True,
    upto: int | None = None,
    on_step: Callable[[Game], None] | None = None,
) -> Game:
    """Re-run a save's choices (all, or the first ``upto``).

    With ``verify`` every step is compared with the file: the choice must be legal, and
    the rolls, event count and state hash after it must match. The first difference raises
    `ReplayMismatchError` naming the step. ``on_step`` sees the game at the start and
    after every step that passed (the replay viewer's timeline keeps each step's view).
    Checkpoints far from the end are written only when read (`engine.game.REPLAY_GAP`).
    """
    try:
        game = Game(
            data.scenario,
            data.seed,
            players=data.players,
            position=data.position,
            computer=data.computer,
        )
    except ScenarioError as exc:  # the ruleset refused the embedded scenario or position
        raise SaveError(printable(str(exc))) from exc
    if on_step is not None:
        on_step(game)
    choices = data.choices if upto is None else data.choices[:upto]
    game.quiet_until = len(choices) - REPLAY_TAIL
    for step, choice in enumerate(choices, start=1):
        try:
            game.choose(choice)
        except IllegalChoiceError as exc:
            raise ReplayMismatchError(
                f"step {step}: the recorded choice is refused: {exc}", step
            ) from exc
        if verify:
            _verify_step(data, game, step)
        if on_step is not None:
            on_step(game)
    if verify and upto is None:
        verify_end(data, game)
    return game


def _verify_step(data: SaveData, game: Game, step: int) -> None:
    if step > len(data.checkups):
        raise ReplayMismatchError(f"step {step}: the file has no checkup for this step", step)
    expected = data.checkups[step - 1]
    previous = max(0, data.checkups[step - 2].rolls) if step > 1 else 0
    got_rolls = game.dice.rolls
    # The checkup's roll count comes from the file: past both logs every index compares
    # None with None, so stop there (a forged count of 2**62 would loop for ever).
    stop = min(max(expected.rolls, len(got_rolls)), max(len(data.rolls), len(got_rolls)))
    for index in range(previous, stop):
        want = data.rolls[index] if index < len(data.rolls) else None
        got = got_rolls[index] if index < len(got_rolls) else None
        if want != got:
            raise ReplayMismatchError(
                f"step {step}, roll #{index + 1}: expected "
                f"{printable(want.describe()) if want else 'no roll'}, got "
                f"{got.describe() if got else 'no roll'}",
                step,
            )
    actual = game.checkups[-1]
    before = game.checkups[-2].events if step > 1 else 0
    verify_events(data, game, step, 0 if step == 1 else before, actual.events)
    if actual != expected:
        raise ReplayMismatchError(
            f"step {step}: state differs (file: {expected.rolls} rolls, {expected.events} "
            f"events, hash {printable(expected.state_hash)}; replay: {actual.rolls} rolls, "
            f"{actual.events} events, hash {actual.state_hash})",
            step,
        )


def load_game(path: str | Path) -> Game:
    """Open a save as a live game (replayed and verified when versions match)."""
    data = read_save(path)
    return replay(data, verify=data.same_version)
