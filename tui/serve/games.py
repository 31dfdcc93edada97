"""The hub's games on disk: one authoritative `Game` per hosted game, saved after every
choice, and found again when the server restarts.

A hosted game lives in ``<state dir>/games/<id>.wargrid`` (an ordinary save file: it opens
with ``wargrid replay`` too). Who sits where is the save's ``players``: a seat nobody has
taken yet is named `OPEN_SEAT`, which no login name can spell (names are sanitised by
`clean_name`), so the save alone tells whose seat is whose after a restart.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import WargridError
from engine.game import Game
from engine.rulesets import find_ruleset
from engine.save import SaveData, read_save, replay, write_save
from engine.scenario import Scenario, load_scenario, scenario_dirs
from tui.saves import SUFFIX, slug
from tui.serve.protocol import Message

log = logging.getLogger("wargrid.serve")

OPEN_SEAT = "(open seat)"
"""The name of a seat nobody has taken (parentheses: no login name can contain them)."""

FINISHED_LISTED = 50
"""Finished games the lobby lists (newest first); older ones stay on disk."""


def clean_name(raw: str, fallback: str = "guest") -> str:
    """A login name made safe to show and to store: letters, digits and ``_.-@+``, at most
    24 characters (terminal escapes or a forged "(open seat)" cannot get through)."""
    name = re.sub(r"[^A-Za-z0-9_.@+-]", "", raw)[:24]
    return name or fallback


def computer_name(level: str) -> str:
    """The seat name of a computer player (parentheses: no login name can take it)."""
    return f"Computer ({level})"


@dataclass(eq=False)
class Member:
    """One session process attached to the hub, under the name its SSH login gave."""

    name: str
    send: Callable[[Message], None]
    game: HostedGame | None = None
    seat: int | None = None
    """The seat this session plays (None: watching, or in the lobby)."""
    synced: int = 0
    """Choices its copy of the game has applied (from its acks)."""
    viewers: int = 1
    """Spectators its screen reaches: one, or every viewer of a shared render
    (`tui.serve.sharing`)."""
    share: Callable[[HostedGame], bool] | None = None
    """Asked when it asks to watch a game: True when the server shows that game to its
    player through a shared render instead (the hub then attaches nothing)."""
    on_ack: Callable[[], None] | None = None
    """Called once, at its next acknowledgement (its screen shows the game it joined)."""
    on_left: Callable[[], None] | None = None
    """Called when the hub takes it off its game (the game ended, a seat was taken)."""


@dataclass(eq=False)
class HostedGame:
    """One game the server hosts: the authoritative Game and the sessions looking at it."""

    id: str
    game: Game
    path: Path
    members: list[Member] = field(default_factory=list)
    unsaved: str = ""
    """Why the last save failed ("" once a save succeeded): no choice is taken meanwhile,
    so a restart after a full disk loses at most the one choice that could not be saved."""

    @property
    def seats(self) -> list[str | None]:
        """Who sits where (None: the seat is free)."""
        return [None if name == OPEN_SEAT else name for name in self.game.players]

    def online(self) -> list[bool]:
        """Which seats have a connected session."""
        return [any(m.seat == seat for m in self.members) for seat in (0, 1)]

    def watchers(self) -> int:
        """How many spectators are attached (a shared render counts its viewers)."""
        return sum(m.viewers for m in self.members if m.seat is None)

    def take_seat(self, seat: int, name: str) -> None:
        """Give a free seat to ``name`` and save it (the save is the seat list)."""
        before = self.game.players
        players = list(before)
        players[seat] = name
        self.game.players = (players[0], players[1])
        try:
            write_save(self.game, self.path)
        except OSError:
            self.game.players = before
            raise

    def save(self) -> bool:
        """Write the game after a choice (the hub calls it once every session has been
        sent the choice); False, with `unsaved` saying why, if the disk refused."""
        try:
            write_save(self.game, self.path)
        except OSError as exc:
            self.unsaved = exc.strerror or str(exc)
            return False
        self.unsaved = ""
        return True

    def save_again(self) -> bool:
        """Retry a failed save; True once the game is safely on disk."""
        return not self.unsaved or self.save()

    def info(self) -> dict[str, Any]:
        """The lobby's line for this game."""
        game = self.game
        outcome = game.outcome
        return {
            "id": self.id,
            "scenario": game.scenario.name,
            "seats": self.seats,
            "online": self.online(),
            "turn": None if game.pending is None else game.pending.player,
            "watchers": self.watchers(),
            "choices": len(game.choices),
            "finished": game.is_over,
            "result": "" if outcome is None else _result_text(game.players, outcome.winner),
        }


def _result_text(players: Sequence[str], winner: object) -> str:
    if not isinstance(winner, int) or not 0 <= winner < len(players):
        return "draw"
    name = players[winner]
    return f"{'nobody' if name == OPEN_SEAT else name} won"


def finished_info(game_id: str, game: Game) -> dict[str, Any]:
    """The lobby's line for a finished game read from disk: replayed and verified, so the
    winner shown is the engine's, never what the file claims."""
    outcome = game.outcome
    return {
        "id": game_id,
        "scenario": game.scenario.name,
        "seats": [None if name == OPEN_SEAT else name for name in game.players],
        "online": [False, False],
        "turn": None,
        "watchers": 0,
        "choices": len(game.choices),
        "finished": True,
        "result": "" if outcome is None else _result_text(game.players, outcome.winner),
    }


class GameStore:
    """The games folder: new game files, and every game found there at start."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._next = 1

    def new(
        self, scenario: Scenario, seed: int, *, computer: tuple[str, str] = ("", "")
    ) -> HostedGame:
        """Start a game, saved now and after every choice: its seats open, but for those
        the computer plays (``computer``: the level per seat, "" for a person)."""
        game_id = f"{self._next:04d}-{slug(scenario.name)}"
        self._next += 1
        path = self.folder / f"{game_id}{SUFFIX}"
        players = [computer_name(level) if level else OPEN_SEAT for level in computer]
        game = Game(scenario, seed, players=(players[0], players[1]), computer=computer)
        write_save(game, path)
        return _hosted(game_id, game, path)

    def load(self) -> tuple[list[HostedGame], list[dict[str, Any]]]:
        """Every game in the folder: unfinished ones replayed (live again), the newest
        finished ones replayed and verified as lobby lines. A damaged file, or a finished
        one this engine cannot verify, is logged and left alone."""
        live: list[HostedGame] = []
        finished: list[tuple[float, Path, SaveData]] = []
        for path in sorted(self.folder.glob(f"*{SUFFIX}")):
            number = path.stem.split("-", 1)[0]
            if number.isdigit():
                self._next = max(self._next, int(number) + 1)
            try:
                data = read_save(path)
                if data.result is not None:
                    finished.append((path.stat().st_mtime, path, data))
                    continue
                game = replay(data, verify=data.same_version)
            except (WargridError, OSError) as exc:
                log.error("cannot resume %s: %s", path, exc)
                continue
            live.append(_hosted(path.stem, game, path))
            log.info("resumed %s at choice %d", path.stem, len(game.choices))
        finished.sort(key=lambda item: item[0], reverse=True)
        listed: list[dict[str, Any]] = []
        for _, path, data in finished[:FINISHED_LISTED]:
            try:
                if not data.same_version:
                    raise WargridError("written by another version: cannot be verified")
                listed.append(finished_info(path.stem, replay(data)))
            except WargridError as exc:
                log.error("not listing %s: %s", path, exc)
        return live, listed

    def path_of(self, game_id: str) -> Path | None:
        """The save file of a game id from the lobby (None if it names no file here)."""
        if not re.fullmatch(r"[0-9]{4,}-[a-z0-9-]+", game_id):
            return None  # never a path from a session: only names of our own files
        path = self.folder / f"{game_id}{SUFFIX}"
        return path if path.is_file() else None


def _hosted(game_id: str, game: Game, path: Path) -> HostedGame:
    return HostedGame(game_id, game, path)


def hostable_scenarios() -> dict[str, Scenario]:
    """Scenario files a game can be created on, by file name (sessions never send paths)."""
    found: dict[str, Scenario] = {}
    for folder in scenario_dirs():
        for path in sorted(folder.glob("*.toml")):
            try:
                scenario = load_scenario(path)
                find_ruleset(scenario.ruleset)
            except WargridError as exc:
                log.warning("scenario %s is unusable: %s", path, exc)
                continue
            found.setdefault(path.name, scenario)
    return found
