"""What the players chose last time (hand-over screens, the computer's pace, the last new
game's scenario and who played each side), kept beside the saves.

One small JSON file in the saves folder, so a settings file travels with the saves it goes
with (`tui.saves.saves_folder`: the user's data folder, the checkout's saves/ or --saves).
The file is the user's to edit and may be anything: whatever cannot be read, or holds a
value of the wrong type, falls back to the default, and never stops the game from starting.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeGuard

FILE_NAME = "settings.json"
MAX_BYTES = 64 * 1024
"""A settings file holds a few flags; anything larger is not one of ours."""

LEVELS = ("", "easy", "normal")
"""Who may play a side: a person (""), or the computer at a level."""
PACES = {"instant": 0.0, "fast": 0.3, "normal": 0.8, "slow": 2.0}
"""Seconds each computer move stays on screen before its next one, by the pace's name."""
DEFAULT_PACE = "normal"


@dataclass(frozen=True, slots=True)
class Settings:
    """The remembered choices, with the defaults a new player gets."""

    handover: bool = True
    """Show the hand-over screen between players (secret choices always get one)."""
    pace: str = DEFAULT_PACE
    """How long the computer's moves stay on screen (a name of `PACES`)."""
    scenario: str = ""
    """The file name of the last new game's scenario ("" for none): the form starts on it
    (a player against the computer pressed Tab five times and chose the seat every game)."""
    seats: tuple[str, str] = ("", "")
    """Who played each side of the last new game (`LEVELS`)."""

    @property
    def pace_seconds(self) -> float:
        """The pace in seconds."""
        return PACES[self.pace]


def load_settings(folder: Path) -> Settings:
    """The settings kept in ``folder``, the defaults where there are none or they are bad."""
    try:
        with (folder / FILE_NAME).open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
        doc = json.loads(raw) if len(raw) <= MAX_BYTES else None
    except (OSError, ValueError, RecursionError):
        return Settings()
    if not isinstance(doc, dict):
        return Settings()
    handover = doc.get("handover")
    pace = doc.get("pace")
    scenario = doc.get("scenario")
    seats = doc.get("seats")
    return Settings(
        handover=handover if isinstance(handover, bool) else True,
        pace=pace if isinstance(pace, str) and pace in PACES else DEFAULT_PACE,
        scenario=scenario if is_file_name(scenario) else "",
        seats=(seats[0], seats[1])
        if isinstance(seats, list) and len(seats) == 2 and all(s in LEVELS for s in seats)
        else ("", ""),
    )


def is_file_name(value: object) -> TypeGuard[str]:
    """True for a scenario's bare file name ("killteam-crossroads.toml"): the setting only
    picks a row of the form's list, and a path would name a file outside it."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= 200
        and value.endswith(".toml")
        and Path(value).name == value
        and value.isprintable()
    )


def save_settings(folder: Path, settings: Settings) -> None:
    """Keep ``settings`` in ``folder``, atomically (a crash leaves the old file or the new).

    Raises:
        OSError: the folder cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=FILE_NAME + ".", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(asdict(settings), handle, indent=2)
            handle.write("\n")
        Path(tmp).replace(folder / FILE_NAME)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
