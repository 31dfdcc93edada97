"""msgpack saves: write atomically, read defensively, replay and verify.

A save is self-contained: the scenario text, the seed and every choice define the game;
the recorded rolls, events and per-choice checkups (roll count, event count, state hash)
let a replay name the first step where the engine no longer agrees with the file
(Wesnoth's checkup). Loading a save = replaying its choices.

Format versions (``format_version``; a reader takes every version up to its own):

- 1: the scenario, seed, choices, checkups, rolls, events and result.
- 2: adds ``checkpoints``, the game's last `engine.checkpoints.MAX_IN_SAVE` checkpoints
  as ``[step, rolls, events, draws, round, phase, state]``, and ``start``, the checkup
  before the first choice as ``[rolls, events, hash]``. Continue starts at the last
  checkpoint (engine.resumption) and re-runs the whole file after; a checkpoint that is
  damaged or does not match the choices is dropped, never trusted over them.

Every way a file can be wrong (not msgpack, truncated, wrong types, a newer format, a
ruleset we do not have) ends in a one-line `SaveError`, never a traceback.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgpack

from engine.bot.players import LEVELS
from engine.checkpoints import MAX_IN_SAVE, Checkpoint, read_checkpoints
from engine.checks import Reading
from engine.chronicle import stamped
from engine.decisions import Choice
from engine.dice import Roll
from engine.errors import (
    IllegalChoiceError,
    ReplayMismatchError,
    SaveError,
    ScenarioError,
    UnknownRulesetError,
)
from engine.events import Event
from engine.game import Checkup, Game
from engine.luck import MAX_DENOMINATOR, MAX_DICE
from engine.position import Position, parse_position
from engine.replay_checks import verify_end, verify_events
from engine.rulesets import find_ruleset
from engine.scenario import Scenario, parse_scenario
from engine.untrusted import check_seed, check_tree, printable, quote

COMPUTER_LEVELS = ("", *LEVELS)
"""What a save may record per seat: a person (""), or a computer player's level."""
FORMAT = "wargrid-save"
FORMAT_VERSION = 2
ENGINE_VERSION = "0.1.0"
MAX_SAVE_BYTES = 16 * 1024 * 1024
"""Larger files are refused before decoding. A 2,000-choice Kill Team save is 0.4 MiB;
decoding costs up to ~75 bytes of memory per file byte (a file of empty maps), so this cap
is what bounds the memory a hostile file can take, with `MAX_ITEMS`."""
MAX_ITEMS = 1_500_000
"""Values (map entries and list items) a save may hold in all. Every value can cost ~70
bytes of memory while it is decoded, so counting them as they are built keeps any file
under about 120 MB (benchmarks/hostile_memory.py); a 2,000-choice game holds ~60,000."""
MAX_NAME = 64
"""Characters in a player's name."""
SEED_INT_LIMIT = 2**63
"""Seeds below this are stored as msgpack integers, larger ones as decimal text."""


@dataclass(frozen=True, slots=True)
class SaveData:
    """A decoded and type-checked save file, not yet replayed."""

    path: str
    ruleset: str
    ruleset_version: str
    engine_version: str
    scenario: Scenario
    seed: int
    players: tuple[str, str]
    choices: tuple[Choice, ...]
    checkups: tuple[Checkup, ...]
    rolls: tuple[Roll, ...]
    events: tuple[Event, ...]
    result: dict[str, Any] | None
    position: Position | None = None
    """The position the game started from, if it did not start from the scenario."""
    turn: int | None = None
    """The seat whose decision was pending when the file was written (None: game over, or
    a file from before this was recorded). For the load list only: replay decides."""
    checkpoints: tuple[Checkpoint, ...] = ()
    """The last checkpoints of the game (format 2), not yet checked against its choices."""
    checkpoint_problem: str = ""
    """Why the file's checkpoints were dropped, if they were."""
    start: Checkup | None = None
    """The checkup before the first choice (format 2)."""
    computer: tuple[str, str] = ("", "")
    """Which seats the computer played, and at what level ("" a person; optional)."""

    @property
    def same_version(self) -> bool:
        """True if this engine and ruleset version wrote the file (replay must match)."""
        try:
            current = find_ruleset(self.ruleset).INFO.version
        except UnknownRulesetError:
            return False
        return self.engine_version == ENGINE_VERSION and self.ruleset_version == current


def to_bytes(game: Game) -> bytes:
    """Encode a game as a save file."""
    outcome, start = game.outcome, game.start_checkup
    doc = {
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
        "choices": [[c.decision_id, c.key] for c in game.choices],
        "checkups": [[c.rolls, c.events, c.state_hash] for c in game.checkups],
        "rolls": [_roll_record(r) for r in game.dice.rolls],
        "events": [e.to_record() for e in game.events],
        "result": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "scores": list(outcome.scores)},
        "turn": None if game.pending is None else game.pending.player,
        "checkpoints": [c.to_record() for c in game.checkpoints[-MAX_IN_SAVE:]],
        "start": [start.rolls, start.events, start.state_hash],
    }
    packed: bytes = msgpack.packb(doc, use_bin_type=True)
    return packed


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


def read_save(path: str | Path) -> SaveData:
    """Read and type-check a save file without replaying it."""
    path = Path(path)
    name = printable(str(path))  # a file name may hold escapes too
    too_large = f"{name}: over {MAX_SAVE_BYTES // 2**20} MiB, too large for a wargrid save"
    try:
        # Opening a FIFO blocks and /dev/zero never ends: only regular files, read bounded.
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(f"{name}: not a regular file, so not a wargrid save")
        if info.st_size > MAX_SAVE_BYTES:
            raise SaveError(too_large)
        with path.open("rb") as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
    except OSError as exc:
        raise SaveError(f"{name}: cannot read the save ({exc.strerror or exc})") from exc
    if len(raw) > MAX_SAVE_BYTES:  # it grew while we read
        raise SaveError(too_large)
    return decode(raw, name)


def decode(raw: bytes, source: str) -> SaveData:
    """Decode save bytes; ``source`` names the file in errors."""
    budget = _Budget(source)
    try:
        doc = msgpack.unpackb(
            raw,
            raw=False,
            strict_map_key=True,
            object_hook=budget.map_,
            list_hook=budget.list_,
            max_array_len=MAX_ITEMS,
            max_map_len=MAX_ITEMS,
        )
    except SaveError:
        raise
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        # Truncation, garbage, unhashable keys, too-deep nesting (StackError) all land here.
        raise SaveError(
            f"{source}: not a wargrid save (damaged or not msgpack: {quote(str(exc))})"
        ) from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveError(f"{source}: not a wargrid save (no '{FORMAT}' header)")
    try:  # every name and text, at once: no escape or 30-digit number gets further
        check_tree(doc, lambda key: f"{source}: '{key}'", number_limit=2**64, bounded=False)
    except ValueError as exc:
        raise SaveError(str(exc)) from None
    return _parse(doc, source)


class _Budget:
    """Counts the values msgpack builds and stops the decoding past `MAX_ITEMS`: the
    unpacker's own limits bound one map or list, not how many there are."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items = 0

    def _spend(self, count: int) -> None:
        self.items += count + 1
        if self.items > MAX_ITEMS:
            raise SaveError(f"{self.source}: holds more than {MAX_ITEMS:,} values, not a save")

    def map_(self, value: dict[Any, Any]) -> dict[Any, Any]:
        self._spend(len(value))
        return value

    def list_(self, value: list[Any]) -> list[Any]:
        self._spend(len(value))
        return value


def _parse(doc: Any, source: str) -> SaveData:
    check = _Check(source)  # `decode` has checked the header
    version = check.int_(doc, "format_version")
    if version > FORMAT_VERSION:
        raise SaveError(
            f"{source}: written by a newer wargrid (save format {version}); "
            f"this version reads format {FORMAT_VERSION} — upgrade wargrid to open it"
        )
    if version < 1:
        raise SaveError(f"{source}: unknown save format version {version}")
    scen = check.dict_(doc, "scenario")
    try:
        scenario = parse_scenario(check.str_(scen, "text"), f"{source} (embedded scenario)")
    except ScenarioError as exc:
        raise SaveError(str(exc)) from exc
    ruleset = check.str_(doc, "ruleset")
    try:
        if find_ruleset(ruleset) is not find_ruleset(scenario.ruleset):
            raise SaveError(
                f"{source}: the save is for {ruleset!r} but its scenario for {scenario.ruleset!r}"
            )
    except UnknownRulesetError as exc:
        raise SaveError(f"{source}: {exc}") from exc
    players = check.list_(doc, "players")
    if len(players) != 2 or not all(
        isinstance(p, str) and 0 < len(p) <= MAX_NAME and p.strip() for p in players
    ):
        raise SaveError(
            f"{source}: 'players' must name two players (1 to {MAX_NAME} characters each)"
        )
    choices = tuple(
        Choice(*check.record(item, (int, str), "choices")) for item in check.list_(doc, "choices")
    )
    checkups = tuple(
        Checkup(*check.record(item, (int, int, str), "checkups"))
        for item in check.list_(doc, "checkups")
    )
    rolls = tuple(_roll(item, check) for item in check.list_(doc, "rolls"))
    events = stamped(
        tuple(_event(item, check) for item in check.list_(doc, "events")), checkups, rolls
    )
    position = _position(doc.get("position"), scenario, source)
    result = doc.get("result")
    if result is not None and not isinstance(result, dict):
        raise SaveError(f"{source}: 'result' must be a map or nil")
    seat = doc.get("turn")  # optional: files written before it was recorded lack it
    if seat is not None and not (type(seat) is int and 0 <= seat < len(players)):
        raise SaveError(f"{source}: 'turn' must be a seat number (0 or 1) or nil")
    checkpoints, problem = read_checkpoints(
        doc.get("checkpoints"),
        source,
        choices=len(choices),
        rolls=len(rolls),
        events=len(events),
    )
    computer = doc.get("computer", ["", ""])  # optional: older files lack it
    if (
        not isinstance(computer, list)
        or len(computer) != 2
        or not all(level in COMPUTER_LEVELS for level in computer)
    ):
        raise SaveError(
            f"{source}: 'computer' must give each seat one of "
            + ", ".join(repr(level) for level in COMPUTER_LEVELS)
        )
    start = doc.get("start")  # optional: format 1 has none
    if start is not None:
        start = Checkup(*check.record(start, (int, int, str), "start"))
    return SaveData(
        source,
        ruleset,
        check.str_(doc, "ruleset_version"),
        check.str_(doc, "engine_version"),
        scenario,
        check.seed(doc),
        (players[0], players[1]),
        choices,
        checkups,
        rolls,
        events,
        result,
        position,
        seat,
        checkpoints,
        problem,
        start,
        (computer[0], computer[1]),
    )


def _position(raw: Any, scenario: Scenario, source: str) -> Position | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
        raise SaveError(f"{source}: 'position' must be a map with the position's text")
    try:
        return parse_position(raw["text"], f"{source} (embedded position)", scenario=scenario)
    except ScenarioError as exc:
        raise SaveError(str(exc)) from exc
    except (RecursionError, ValueError):  # tomllib on absurd nesting or a 5,000-digit number
        raise SaveError(f"{source}: the embedded position is not valid TOML") from None


MAX_TEXT = 200
"""Characters of a roll's reading kept from a file; the engine writes far fewer."""


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


def _roll(item: Any, check: _Check) -> Roll:
    reading = None
    if isinstance(item, list) and len(item) == 6:
        reading = _reading(item[5], check)
        item = item[:5]
    index, player, reason, dice, faces = check.record(item, (int, int, str, str, list), "rolls")
    if not all(isinstance(f, int) and not isinstance(f, bool) for f in faces):
        raise SaveError(f"{check.source}: a roll has non-integer faces")
    return Roll(index, player, reason, dice, tuple(faces), reading)


def _reading(raw: Any, check: _Check) -> Reading:
    """A roll's reading from a file: shapes checked; an absurd chance is dropped (luck
    statistics skip the roll) rather than trusted."""
    if isinstance(raw, list) and len(raw) == 6:
        raw = [*raw, ""]  # written before readings had a value
    need, outcome, kind, tests, successes, chance, value = check.record(
        raw, (str, str, str, int, int, object, str), "rolls"
    )
    p: Fraction | None = None
    if isinstance(chance, list) and len(chance) == 2 and all(type(x) is int for x in chance):
        num, den = chance
        if 0 < den <= MAX_DENOMINATOR and 0 <= num <= den:
            p = Fraction(num, den)
    if not 0 <= successes <= tests <= MAX_DICE:
        tests = successes = 0  # luck statistics skip a reading that counts nonsense
    need, outcome, kind, value = (_shown(text) for text in (need, outcome, kind, value))
    return Reading(need, outcome, kind, tests, successes, p, value)


def _shown(text: str) -> str:
    """File text that a log line will show: printable characters only, and not a page."""
    return "".join(c for c in text[:MAX_TEXT] if c.isprintable())


def _event(item: Any, check: _Check) -> Event:
    shape: tuple[type, ...] = (int, int, str, str, str, dict)
    if isinstance(item, list) and len(item) == len(shape) + 1:
        shape += (int,)  # the roll stamp (saves written before it have none)
    record = check.record(item, shape, "events")
    fields = record[5]
    if not all(
        isinstance(k, str) and (v is None or isinstance(v, str | int | bool))
        for k, v in fields.items()
    ):
        raise SaveError(f"{check.source}: an event has fields of the wrong type")
    return Event.from_record(record)


class _Check:
    """Type checks that turn a malformed document into one clear SaveError."""

    def __init__(self, source: str) -> None:
        self.source = source

    def _get(self, doc: dict[str, Any], key: str, kind: type, what: str) -> Any:
        value = doc.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise SaveError(f"{self.source}: '{key}' is missing or not {what}")
        return value

    def int_(self, doc: dict[str, Any], key: str) -> int:
        value: int = self._get(doc, key, int, "an integer")
        return value

    def str_(self, doc: dict[str, Any], key: str) -> str:
        value: str = self._get(doc, key, str, "a string")
        return value

    def seed(self, doc: dict[str, Any]) -> int:
        try:
            return check_seed(doc.get("seed"))
        except ValueError as exc:
            raise SaveError(f"{self.source}: 'seed' is missing or wrong: {exc}") from None

    def list_(self, doc: dict[str, Any], key: str) -> list[Any]:
        value: list[Any] = self._get(doc, key, list, "a list")
        return value

    def dict_(self, doc: dict[str, Any], key: str) -> dict[str, Any]:
        value: dict[str, Any] = self._get(doc, key, dict, "a map")
        return value

    def record(self, item: Any, kinds: tuple[type, ...], key: str) -> list[Any]:
        if not isinstance(item, list) or len(item) != len(kinds):
            raise SaveError(f"{self.source}: an entry of '{key}' has the wrong shape")
        for value, kind in zip(item, kinds, strict=True):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise SaveError(f"{self.source}: an entry of '{key}' has a value of the wrong type")
        return item


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
