"""Writing plain data (str, int, bool, lists, str-keyed maps) as readable TOML.

tomllib only reads; positions and checkpoints are written here. Maps become ``[tables]``,
lists of maps ``[[arrays of tables]]``, everything else inline, so a position reads top
down like the hand-written ones.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def key(name: str) -> str:
    """A TOML key: bare when it can be, quoted otherwise."""
    return name if _BARE.match(name) else string(name)


def string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but TOML also forbids DEL raw)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")


def inline(value: Any) -> str:
    """One value on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{key(k)} = {inline(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _is_section(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value) and not _small(value)


def _small(table: Mapping[str, Any]) -> bool:
    """A table short enough to read inline (a reference, a pair of counts)."""
    return len(table) <= 3 and all(
        isinstance(v, bool | int | str) or (isinstance(v, list) and len(v) <= 4)
        for v in table.values()
    )


def tables(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The lines of ``data`` as the body of the table named ``prefix`` (top level: "")."""
    lines: list[str] = []
    later: list[tuple[str, Any]] = []
    for name, value in data.items():
        if _is_section(value) or _is_tables(value):
            later.append((name, value))
        else:
            lines.append(f"{key(name)} = {inline(value)}")
    for name, value in later:
        header = f"{prefix}.{key(name)}" if prefix else key(name)
        if _is_tables(value):
            for item in value:
                lines += ["", f"[[{header}]]", *tables(item, header)]
        else:
            lines += ["", f"[{header}]", *tables(value, header)]
    return lines


def dumps(data: Mapping[str, Any]) -> str:
    """``data`` as a TOML document."""
    return "\n".join(tables(data)).strip("\n") + "\n"
