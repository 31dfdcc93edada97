"""Checks for what files and remote players hand us: text, numbers, seeds, quoting.

Saves, scenarios and positions travel between players, so every string and number read
from one is hostile until checked. The readers (`engine.tomlfile`, `engine.save`) walk a
whole parsed document through `check_tree` once, where it is read, instead of each
ruleset checking its own keys for escapes: a name holding ``ESC ]0;`` would otherwise
retitle the terminal of whoever opens the file, and a number of 23 digits would crash
the state hash. What must still be shown from a file goes through `printable` or
`quote`, so an error message stays one short line.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import difflib
import math
import re
import secrets
from collections.abc import Callable, Iterable, Mapping

SEED_LIMIT = 2**256
"""Seeds are whole numbers from 0 below this: room for a 128-bit secret and then some."""
SECRET_SEED_BITS = 128
"""Bits of a seed nobody typed. Every die and shuffle is a hash of the seed and a counter,
so a guessable seed (31 bits were recovered from 12 rolls in minutes) gives away every
hidden hand and future roll."""
MAX_NUMBER = 1_000_000
"""The largest size any number in a scenario or position may have (maps are at most 400
cells a side, command points and wounds are small): ``cp = 10000000000`` is a typo or an
attack, and refusing it here keeps every later sum inside 64 bits."""
WIDE_NUMBERS = {"seed": SEED_LIMIT - 1, "draws": 2**63 - 1}
"""Keys whose numbers may pass `MAX_NUMBER`: a written position's dice seed (a secret one
has 128 bits) and dice counter. Their readers check them again (`check_seed`)."""
MAX_DEPTH = 16
"""Tables nested deeper than this are refused (the deepest real key is four levels)."""
MAX_LIST = 400
"""Entries any list of a scenario or position may have: a map has at most 400 rows, and
no ruleset fields armies anywhere near that (10,000 reserve units took 30 s to show)."""
MAX_TEXT = 2_000
"""Characters of a one-line string (a name, a key's value) in a scenario or position."""
MAX_QUOTE = 60
"""Characters of file content an error message quotes at most."""
MULTILINE_KEYS = frozenset({"description", "text"})
"""Keys whose strings may span lines (a scenario's description, an embedded file)."""
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
"""Direction overrides: they make a name display as something it is not."""


_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff"
"""Unicode categories Cc and Cs but tab and newline, as a character class (a regular
expression scans a save's 25,000 strings in milliseconds, a loop per character took
most of a second)."""
_UNSAFE_IN_LINES = re.compile(f"[{_CONTROLS}{''.join(sorted(BIDI))}]")
_UNSAFE = re.compile(f"[\t\n{_CONTROLS}{''.join(sorted(BIDI))}]")


def bad_character(text: str, *, multiline: bool = False) -> str | None:
    """Why ``text`` may not be shown as it is (its first unsafe character), or None.

    Control characters (``ESC``, ``BEL``, C1 controls, DEL) drive the terminal; direction
    overrides disguise a name. Newlines and tabs are fine only in ``multiline`` text.
    """
    found = (_UNSAFE_IN_LINES if multiline else _UNSAFE).search(text)
    return None if found is None else f"it holds the control character {printable(found[0])}"


def printable(text: str) -> str:
    """``text`` with control and format characters escaped (``\\x1b``), on one line."""
    return "".join(
        c if c.isprintable() and c not in BIDI else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` quoted for an error message: escaped, and cut after ``limit`` characters."""
    if len(text) > limit:
        return repr(printable(text[:limit]))[:-1] + f"...' ({len(text)} characters)"
    return repr(printable(text))


def new_seed() -> int:
    """A secret seed for a game started without one (local or hosted)."""
    return secrets.randbits(SECRET_SEED_BITS)


def check_seed(value: object) -> int:
    """A dice seed from a file, a command line or a form.

    Raises:
        ValueError: not a whole number from 0 to 2**256 - 1 (the message says so).
    """
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 80:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < SEED_LIMIT:
        shown = quote(value) if isinstance(value, str) else quote(repr(value))
        raise ValueError(f"a seed must be a whole number from 0 to 2**256 - 1, not {shown}")
    return value


def unknown_key(table: Mapping[str, object], known: Iterable[str]) -> str | None:
    """Why the first key of ``table`` that is not ``known`` is refused (a typo such as
    ``roster_bulding`` would otherwise go unnoticed), naming the closest known key."""
    names = sorted(known)
    for key in table:
        if key not in names:
            close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(names)}"
            return f"unknown key {quote(key)}: {hint}"
    return None


def check_tree(
    data: object,
    where: Callable[[str], str],
    *,
    number_limit: int = MAX_NUMBER,
    bounded: bool = True,
    key: str = "",
    depth: int = 0,
) -> None:
    """Walk a parsed file and refuse the first unsafe key, string or number.

    ``where(key)`` turns a dotted key into the start of the error ("file: key 'a.b'").
    ``bounded`` also caps lists (`MAX_LIST`) and one-line strings (`MAX_TEXT`): hand
    written files need no more; saves, which machines write, count their values instead.

    Raises:
        ValueError: naming the key and why.
    """
    if depth > MAX_DEPTH:
        raise ValueError(f"{where(key)}: nested more than {MAX_DEPTH} levels deep")
    if isinstance(data, dict):
        for name, value in data.items():
            # The strictest checks first, without a call or a key string: a save's events
            # hold ~15,000 such fields. Whatever fails them gets the full checks below.
            if type(name) is str and _UNSAFE.search(name) is None:
                if type(value) is str:
                    if (not bounded or len(value) <= MAX_TEXT) and _UNSAFE.search(value) is None:
                        continue
                elif (type(value) is int and -number_limit <= value <= number_limit) or (
                    value is None or type(value) is bool
                ):
                    continue
            full = f"{key}.{name}" if key and isinstance(name, str) else str(name)
            if isinstance(name, str) and (why := bad_character(name)):
                raise ValueError(f"{where(printable(full))}: the key's name is refused: {why}")
            # A written position's [state] is the engine's own data (a deployment zone's
            # cells pass MAX_LIST): engine.statecodec checks it field by field on use.
            capped = bounded and not (depth == 0 and name == "state")
            check_tree(
                value, where, number_limit=number_limit, bounded=capped, key=full, depth=depth + 1
            )
    elif isinstance(data, list | tuple):
        if bounded and len(data) > MAX_LIST:
            raise ValueError(f"{where(key)}: {len(data):,} entries; at most {MAX_LIST} are allowed")
        lines = key.rsplit(".", 1)[-1].split("[", 1)[0] in MULTILINE_KEYS
        longest = MAX_TEXT if bounded and not lines else None
        for i, value in enumerate(data):
            # Plain strings and small numbers, most of a save, are checked here: the
            # same checks without a call and a key string each.
            if (
                type(value) is str
                and (longest is None or len(value) <= longest)
                and bad_character(value, multiline=lines) is None
            ):
                continue
            if type(value) is int and -number_limit <= value <= number_limit:
                continue
            check_tree(
                value,
                where,
                number_limit=number_limit,
                bounded=bounded,
                key=f"{key}[{i}]",
                depth=depth + 1,
            )
    elif isinstance(data, str):
        last = key.rsplit(".", 1)[-1].split("[", 1)[0]
        multiline = last in MULTILINE_KEYS
        if bounded and not multiline and len(data) > MAX_TEXT:
            raise ValueError(f"{where(key)}: {len(data):,} characters; at most {MAX_TEXT:,}")
        if why := bad_character(data, multiline=multiline):
            raise ValueError(f"{where(key)}: {why}")
    elif isinstance(data, bool):
        return
    elif isinstance(data, int):
        wide = WIDE_NUMBERS.get(key.rsplit(".", 1)[-1], 0)
        if wide and 0 <= data <= wide:
            return
        if not -number_limit <= data <= number_limit:
            raise ValueError(
                f"{where(key)}: {quote(str(data), 24)} is out of range "
                f"(numbers here lie between -{number_limit:,} and {number_limit:,})"
            )
    elif isinstance(data, float) and not (math.isfinite(data) and abs(data) <= number_limit):
        raise ValueError(f"{where(key)}: {data!r} is not a usable number")


_READ_AS_NAMED = MULTILINE_KEYS | frozenset(WIDE_NUMBERS)
"""Keys whose values `check_tree` reads more leniently."""


def plain_tree(data: object, *, number_limit: int, max_depth: int = MAX_DEPTH) -> bool:
    """True if ``data`` holds only what `check_tree` passes in any place: strings with no
    tab, newline, control or direction character, keys that are such strings, whole
    numbers within ``number_limit``, booleans, None and bytes, nested at most
    ``max_depth`` levels (`check_tree` of a save: ``bounded=False``); and what keys allow
    more, as there: newlines in `MULTILINE_KEYS`, wide numbers in `WIDE_NUMBERS`. False
    says nothing: `check_tree` then finds what is wrong, and where.

    A save's 60,000 values are checked at once here: one pass that only gathers the
    strings, and one regular expression over them all (a call per container and a test
    per string cost Continue of a long game a fifth of its time)."""
    texts: list[str] = []
    lines: list[str] = []  # the values of `MULTILINE_KEYS`, where newlines and tabs pass
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            return False
        if type(node) is dict:
            values: Iterable[object] = node.values()
            texts.extend(node)  # a key that is not a string fails the join below
            if not _READ_AS_NAMED.isdisjoint(node):
                values = []
                for key, value in node.items():
                    if key in MULTILINE_KEYS and type(value) is str:
                        lines.append(value)
                    elif not (type(value) is int and 0 <= value <= WIDE_NUMBERS.get(key, -1)):
                        values.append(value)
        elif type(node) is list or type(node) is tuple:
            values = node
        else:
            return False  # not a document (`check_tree` says what it is)
        for value in values:
            kind = type(value)
            if kind is str:
                texts.append(value)  # type: ignore[arg-type]
            elif kind is int:
                if not -number_limit <= value <= number_limit:  # type: ignore[operator]
                    return False
            elif kind is dict or kind is list or kind is tuple:
                stack.append((value, depth + 1))
            elif kind is bytes:
                if depth >= max_depth:  # `check_tree` looks at it one level down
                    return False
            elif not (value is None or kind is bool):
                return False
    try:
        return not (_UNSAFE.search(" ".join(texts)) or _UNSAFE_IN_LINES.search(" ".join(lines)))
    except TypeError:  # a key of bytes (msgpack allows them)
        return False
