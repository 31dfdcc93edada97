"""Reading a save defensively: every way a file can be wrong ends in one `SaveError`.

Bounded before decoding (`MAX_SAVE_BYTES`), while decoding (`MAX_ITEMS` values in all)
and after it (types, names and texts checked, absurd numbers refused), so a hostile
file costs bounded memory and loses nothing.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import stat
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgpack

from engine.checkpoints import read_checkpoints
from engine.checks import Reading
from engine.chronicle import stamped
from engine.decisions import Choice
from engine.dice import Roll
from engine.errors import SaveError, ScenarioError, UnknownRulesetError
from engine.events import Event
from engine.game import Checkup, Game
from engine.luck import MAX_DENOMINATOR, MAX_DICE
from engine.position import Position, parse_position
from engine.rulesets import find_ruleset
from engine.save_data import (
    COMPUTER_LEVELS,
    FORMAT,
    FORMAT_VERSION,
    MAX_ITEMS,
    MAX_NAME,
    MAX_SAVE_BYTES,
    SaveData,
)
from engine.scenario import Scenario, parse_scenario
from engine.untrusted import check_seed, check_tree, plain_tree, printable, quote

MAX_TEXT = 200
"""Characters of a roll's reading kept from a file; the engine writes far fewer."""


def read_save(path: str | Path) -> SaveData:
    """Read and type-check a save file without replaying it."""
    raw, name = read_bytes(path)
    return decode(raw, name)


def read_bytes(path: str | Path) -> tuple[bytes, str]:
    """A save file's bytes (bounded: a regular file of at most `MAX_SAVE_BYTES`), and
    its name as errors print it, for `decode`.

    Raises:
        SaveError: not a regular file, too large, or unreadable.
    """
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
    return raw, name


UNREAD_EVENT = Event("Unread", "", rolls=0)
"""Stands for an event a partial read left in the file: no text, so no log shows it, and
stamped at roll 0, so the log's merge puts it before every roll that was read."""
UNREAD_ROLL = Roll(-1, -1, "", "", ())
"""Stands for a roll a partial read left in the file (index -1: before every event)."""


def has_unread(game: Game) -> bool:
    """True while ``game``'s logs start with a partial read's stand-ins (they are always
    a prefix): it must not be written until the whole file is read into them."""
    events, rolls = game.events, game.dice.rolls
    return bool((events and events[0] is UNREAD_EVENT) or (rolls and rolls[0] is UNREAD_ROLL))


def decode(raw: bytes, source: str, *, recent: int | None = None) -> SaveData:
    """Decode save bytes; ``source`` names the file in errors.

    ``recent``: read only the last ``recent`` rolls and the events back to the
    ``recent``-th newest with text (a log panel's lines; `_recent`), and leave stand-ins
    for the earlier ones (`SaveData.unread`):
    building and checking every event and roll of a long game is most of a decode (50 of
    55 ms for 2,000 Kill Team choices), and a game opened at its last checkpoint needs
    only how many there were. Everything read is checked as in a whole read; what is
    not read is checked when it is (`decode` without ``recent``, in the background).
    """
    doc = _unpack(raw, source)
    shown, skipped = (doc, {}) if recent is None else _recent(doc, recent)

    def where(key: str) -> str:  # an entry of a log's tail, named by its place in the file
        log, _, rest = key.partition("[")
        if log in skipped and rest[:1].isdigit():
            index, _, rest = rest.partition("]")
            key = f"{log}[{int(index) + skipped[log]}]{rest}"
        return f"{source}: '{key}'"

    try:  # every name and text, at once: no escape or 30-digit number gets further
        if not plain_tree(shown, number_limit=2**64):  # what is not plain is looked at closely
            check_tree(shown, where, number_limit=2**64, bounded=False)
    except ValueError as exc:
        raise SaveError(str(exc)) from None
    return _parse(doc, source, None if recent is None else skipped)


def _recent(doc: dict[str, Any], recent: int) -> tuple[dict[str, Any], dict[str, int]]:
    """``doc`` with only the last ``recent`` rolls and the events back to the ``recent``-th
    newest with text, and how many of each were left out (logs that are not lists are
    kept whole: the parse refuses them). Events without text are no log line: counted,
    a side's nine textless passes left the log panel's newest lines short of events."""
    shown, skipped = dict(doc), {}
    for log in ("events", "rolls"):
        entries = doc.get(log)
        if isinstance(entries, list):
            start = max(0, len(entries) - recent)
            if log == "events":
                start = _texts_back(entries, recent)
            skipped[log] = start
            shown[log] = entries[start:]
    return shown, skipped


def _texts_back(records: list[Any], count: int) -> int:
    """Where the last ``count`` event records with text begin (0 if fewer have text); a
    record of the wrong shape counts as text (the parse refuses it)."""
    found = 0
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        has_text = not (isinstance(record, list) and len(record) > 4 and record[4] == "")
        found += has_text
        if found >= count:
            return index
    return 0


def _unpack(raw: bytes, source: str) -> dict[str, Any]:
    """The document in ``raw``, within the budget, with the save header."""
    # Every value takes a byte of the file at least, so a file of at most MAX_ITEMS bytes
    # holds no more values than that: the budget's count (a Python call per list and map,
    # a fifth of reading a save) is needed only in larger files.
    budget = _Budget(source)
    counted: dict[str, Any] = (
        {} if len(raw) <= MAX_ITEMS else {"object_hook": budget.map_, "list_hook": budget.list_}
    )
    try:
        doc = msgpack.unpackb(
            raw,
            raw=False,
            strict_map_key=True,
            max_array_len=MAX_ITEMS,
            max_map_len=MAX_ITEMS,
            **counted,
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
    return doc


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


def _parse(doc: Any, source: str, skipped: dict[str, int] | None = None) -> SaveData:
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
    raw_rolls, raw_events = check.list_(doc, "rolls"), check.list_(doc, "events")
    unread = (0, 0)
    if skipped is not None:  # left out by `_recent`
        unread = (skipped.get("events", 0), skipped.get("rolls", 0))
    rolls = (UNREAD_ROLL,) * unread[1] + tuple(
        _roll(item, check) for item in raw_rolls[unread[1] :]
    )
    events = stamped(
        (UNREAD_EVENT,) * unread[0]
        + tuple(_event(item, check) for item in raw_events[unread[0] :]),
        checkups,
        rolls,
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
        unread,
        tuple(_faces(item) for item in raw_rolls[: unread[1]]),
    )


def _faces(item: Any) -> int:
    """How many dice a roll of the file threw, not reading the rest of it (a roll not
    read as a whole: its shape is checked when it is)."""
    if type(item) is list and len(item) >= 5 and type(item[4]) is list:
        return len(item[4])
    return 0


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
    if len(text) <= MAX_TEXT and text.isprintable():
        return text  # what the engine writes
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
        if type(item) is not list or len(item) != len(kinds):
            raise SaveError(f"{self.source}: an entry of '{key}' has the wrong shape")
        # msgpack builds exact types (no subclasses), so `type` decides, and keeps a bool
        # from passing for an int; a save holds ~10,000 records.
        for value, kind in zip(item, kinds, strict=True):
            if type(value) is not kind and kind is not object:
                raise SaveError(f"{self.source}: an entry of '{key}' has a value of the wrong type")
        return item
