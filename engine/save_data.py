"""What a wargrid save holds once read: the format's constants and `SaveData`.

Shared by the writer and replay (`engine.save`) and the reader (`engine.save_reading`), so
neither has to import the other. Format versions are listed in `engine.save`.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.bot.players import LEVELS
from engine.checkpoints import Checkpoint
from engine.decisions import Choice
from engine.dice import Roll
from engine.errors import UnknownRulesetError
from engine.events import Event
from engine.game import Checkup
from engine.position import Position
from engine.rulesets import find_ruleset
from engine.scenario import Scenario

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
    unread: tuple[int, int] = (0, 0)
    """How many events and rolls at the start of the logs were not read (`decode` with
    ``recent``): stand-ins hold their places, `UNREAD_EVENT` and `UNREAD_ROLL`, until the
    whole file is read."""
    unread_faces: tuple[int, ...] = ()
    """How many dice each roll not read threw (its faces, counted in the file): enough to
    check the checkpoints' dice counters at once (`engine.resumption.expect_counters`)."""

    @property
    def same_version(self) -> bool:
        """True if this engine and ruleset version wrote the file (replay must match)."""
        try:
            current = find_ruleset(self.ruleset).INFO.version
        except UnknownRulesetError:
            return False
        return self.engine_version == ENGINE_VERSION and self.ruleset_version == current
