"""Reading TOML files defensively: scenarios and positions share these rules.

Only regular files (a FIFO blocks, /dev/zero never ends), read with a size bound,
universal newlines, and every way ``tomllib`` can fail (bad syntax, absurd nesting, a
number with thousands of digits) turned into the caller's one-line error type.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any

from engine.errors import WargridError
from engine.untrusted import check_tree, printable

MAX_TOML_BYTES = 1024 * 1024
"""Larger files are refused unread (a 400x400 map, the largest allowed, is about 170 KB;
``tomllib`` takes up to ~100 bytes of memory per byte of a file of empty tables, so this
cap keeps any file under 200 MB: benchmarks/hostile_memory.py)."""


def read_toml_text(path: Path, what: str, error: type[WargridError]) -> str:
    """The text of a small UTF-8 file, or ``error`` naming the file and the problem."""
    name = printable(str(path))
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise error(f"{name}: not a regular file (expected a TOML {what} file)")
        with path.open("rb") as handle:
            raw = handle.read(MAX_TOML_BYTES + 1)
    except OSError as exc:
        raise error(f"{name}: cannot read the {what} file ({exc.strerror or exc})") from exc
    if len(raw) > MAX_TOML_BYTES:
        raise error(f"{name}: over {MAX_TOML_BYTES // 2**20} MiB, too large for a {what} file")
    try:
        return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: not a text file (expected TOML in UTF-8)") from exc


def parse_toml(text: str, source: str, error: type[WargridError]) -> dict[str, Any]:
    """``tomllib.loads`` whose every failure is one ``error`` naming ``source``; every key,
    string and number is then checked (`engine.untrusted.check_tree`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: not valid TOML: {exc}") from exc
    except ValueError:  # int() refuses a decimal integer of more than 4300 digits
        raise error(f"{source}: a number has too many digits (not valid here)") from None
    except RecursionError:  # tomllib recurses per nested array or inline table
        raise error(
            f"{source}: arrays or inline tables are nested too deeply (at most a few "
            "levels are needed)"
        ) from None
    try:
        check_tree(data, lambda key: f"{source}: key '{key}'")
    except ValueError as exc:
        raise error(str(exc)) from None
    return data
