"""Where games are saved, and which save "Continue" resumes.

A new game gets its own file in the saves folder, named after the scenario and the time
it started; the game screen rewrites it after every choice (`engine.save.autosave`), so
the newest unfinished file is exactly where the players stopped. No Textual here.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import SaveError
from engine.untrusted import printable

if TYPE_CHECKING:
    from engine.ruleset import RulesetInfo
    from engine.save import SaveData

# engine.save loads every ruleset; it is imported where a save is actually read, so the
# main menu can draw before that.

SUFFIX = ".wargrid"
"""File suffix of wargrid saves (the content is msgpack, see `engine.save`)."""

SAVES_VARIABLE = "WARGRID_SAVES"
"""The environment variable naming the saves folder (``--saves`` overrides it)."""


def saves_folder(option: Path | None = None) -> Path:
    """Where games, "Continue" and settings live.

    ``--saves DIR`` first, then ``$WARGRID_SAVES``; run from its checkout, wargrid keeps
    them in the checkout's ``saves/`` as it always did; installed, in the user's data
    folder (``~/.local/share/wargrid/saves`` on Linux), never in whatever folder the player
    happened to start from.
    """
    if option is not None:
        return option
    named = os.environ.get(SAVES_VARIABLE, "")
    if named:
        return Path(named).expanduser()
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file():
        return checkout / "saves"
    import platformdirs

    return platformdirs.user_data_path("wargrid", appauthor=False) / "saves"


@dataclass(frozen=True, slots=True)
class SaveEntry:
    """One file of the saves folder, as the load menu lists it."""

    path: Path
    data: SaveData | None
    """The decoded save, or None when the file is unreadable."""
    error: str = ""
    """Why the file cannot be opened, when it cannot."""
    modified: datetime | None = None
    """When the file was last written: when the game was last played."""

    @property
    def finished(self) -> bool:
        """True once the game in the file has ended."""
        return self.data is not None and self.data.result is not None

    def describe(self, *, file: bool = True) -> str:
        """One line for the menu: scenario and ruleset, players, where the game stands
        (round, phase, whose turn), when it was last played, and the file (unless
        ``file`` is False: a file name has no space to wrap at)."""
        name = printable(self.path.name)  # a file name may hold terminal escapes too
        if self.data is None:
            return f"{name}: unreadable ({printable(self.error)})"
        data = self.data
        parts = [f"{data.scenario.name} ({ruleset_title(data.ruleset)})"]
        parts.append(f"{data.players[0]} vs {data.players[1]}")
        last = data.events[-1] if data.events else None
        word = round_word(data.ruleset).lower()
        if self.finished:
            parts.append("finished")
        elif last is not None and last.round:
            parts.append(f"{word} {last.round}" + (f", {last.phase}" if last.phase else ""))
        elif last is not None and last.phase:  # "Deployment", not a vague "setting up"
            parts.append(f"{printable(last.phase)}, before {word} 1")
        else:
            parts.append("setting up")
        if not self.finished and data.turn is not None:
            side = data.scenario.sides[data.turn] if data.turn < len(data.scenario.sides) else ""
            who = data.players[data.turn]
            parts.append(f"{who}'s turn" + (f" ({side})" if side and side != who else ""))
        if self.modified is not None:
            parts.append(f"last played {self.modified:%Y-%m-%d %H:%M}")
        return " · ".join(parts) + (f" — {name}" if file else "")


def slug(name: str) -> str:
    """A file-name-safe version of a scenario name."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "game"


def new_save_path(saves_dir: Path, scenario_name: str, now: datetime | None = None) -> Path:
    """A fresh file name for a new game: ``<scenario>-<yyyymmdd-hhmmss>.wargrid``."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"{slug(scenario_name)}-{stamp}"
    path = saves_dir / f"{base}{SUFFIX}"
    n = 2
    while path.exists():
        path = saves_dir / f"{base}-{n}{SUFFIX}"
        n += 1
    return path


def save_files(saves_dir: Path) -> list[Path]:
    """Save files, newest first."""
    try:
        files = [p for p in saves_dir.glob(f"*{SUFFIX}") if p.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)


def list_saves(saves_dir: Path) -> list[SaveEntry]:
    """Every save file, newest first, decoded for the menu."""
    from engine.save import read_save

    entries = []
    for path in save_files(saves_dir):
        try:
            modified = datetime.fromtimestamp(path.stat().st_mtime)
        except OSError:
            modified = None
        try:
            entries.append(SaveEntry(path, read_save(path), modified=modified))
        except SaveError as exc:
            entries.append(SaveEntry(path, None, str(exc), modified))
    return entries


def ruleset_title(name: str) -> str:
    """The ruleset's title ("Kill Team (2018)"), or its registry name if unknown."""
    info = _ruleset_info(name)
    return name if info is None else info.title


def round_word(name: str) -> str:
    """What the ruleset calls a round ("Turn" in Apocalypse), "Round" if it is unknown."""
    info = _ruleset_info(name)
    return "Round" if info is None else info.round_word


def _ruleset_info(name: str) -> RulesetInfo | None:
    from engine.errors import UnknownRulesetError
    from engine.rulesets import find_ruleset

    try:
        return find_ruleset(name).INFO
    except UnknownRulesetError:
        return None


def latest_entry(saves_dir: Path, limit: int = 50) -> SaveEntry | None:
    """The newest save whose game has not ended (what "Continue" opens), if any, decoded:
    the menu says where that game stands, and Continue opens it (`unchanged`)."""
    files = save_files(saves_dir)[:limit]
    if not files:
        return None
    from engine.save import read_save

    for path in files:
        try:
            data = read_save(path)
            modified = datetime.fromtimestamp(path.stat().st_mtime)
        except (SaveError, OSError):
            continue
        if data.result is None:
            return SaveEntry(path, data, modified=modified)
    return None


def unchanged(entry: SaveEntry) -> bool:
    """True if ``entry``'s file is as it was read (no other wargrid wrote it since)."""
    try:
        return entry.modified == datetime.fromtimestamp(entry.path.stat().st_mtime)
    except OSError:
        return False
