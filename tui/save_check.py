"""The check of a save that was opened at its checkpoint, as the game screen shows it.

Continue shows a save at once from its last checkpoint (engine.resumption); the whole
file is then re-run in a worker thread while the players look or play on. The status
line says "verifying…" meanwhile, then "verified", or "diverged at step N" (the game is
then shown read-only: this engine does not reproduce the file, so nothing is written
over it). A checkpoint that does not match the choices is replaced by the game the
choices lead to, played on to where the players are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text

from engine.errors import SaveError
from engine.game import Game
from engine.resumption import Verdict, adopt, check_save, fill_unread
from engine.save import SaveData, has_unread

VERIFYING = "verifying…"


@dataclass(frozen=True, slots=True)
class Settled:
    """What the game screen does with a verdict."""

    game: Game
    """The game to show (the same one unless the checkpoint lost to the choices)."""
    note: str
    """For the status line."""
    message: str = ""
    """For a notification, when there is more to say than the note."""
    read_only: bool = False
    """True when the file diverged: shown as saved, never written."""


class SaveCheck:
    """One save's check: run in a worker, settled on the screen's thread.

    The game may have been opened from a partial read of the file (Continue reads only
    the newest events and rolls before the first frame; `SaveData.unread`): the whole
    file is then read here, by the check or at once when the screen needs the whole
    log (`fill`)."""

    def __init__(self, data: SaveData, whole: Callable[[], SaveData] | None = None) -> None:
        """``whole``: reads the whole file, when ``data`` is a partial read."""
        self.data = data
        self.note = VERIFYING
        self._whole = whole
        self._read: SaveData | None = data if data.unread == (0, 0) else None

    def read_whole(self) -> SaveData:
        """The whole file, read once (from either thread).

        Raises:
            SaveError: the part of the file the partial read left out is damaged.
        """
        read = self._read
        if read is None:
            if self._whole is None:
                raise SaveError(f"{self.data.path}: only part of the file was read")
            read = self._read = self._whole()
        return read

    def fill(self, game: Game) -> None:
        """Put the whole file's first events and rolls in ``game`` (opened from a partial
        read, maybe played on or undone since) in place of the stand-ins.

        Raises:
            SaveError: the part of the file the partial read left out is damaged.
        """
        if has_unread(game):
            fill_unread(game, self.read_whole())

    def run(self) -> Verdict:
        """Re-run the whole file (in a worker thread: it builds its own game only)."""
        try:
            whole = self.read_whole()
        except SaveError as exc:
            return Verdict(None, None, f"the file is damaged ({exc})")
        return check_save(whole)

    def settle(
        self, game: Game, verdict: Verdict | None, error: BaseException | None = None
    ) -> Settled:
        """The verdict applied to ``game``, the game shown (and maybe played on) since;
        None if the check stopped (``error``: why)."""
        if self._read is not None and has_unread(game):
            fill_unread(game, self._read)
        if verdict is None:
            self.note = f"not verified ({error or 'the check stopped'})"
            return Settled(game, self.note)
        if verdict.verified:
            self.note = "verified"
            return Settled(adopt(game, verdict), self.note)
        if verdict.diverged_at is None and verdict.game is not None:
            self.note = "verified from the choices"
            return Settled(adopt(game, verdict), self.note, verdict.problem[:1].upper()
                           + verdict.problem[1:] + ".")  # fmt: skip
        where = "" if verdict.diverged_at is None else f" at step {verdict.diverged_at}"
        self.note = f"diverged{where}"
        message = (
            f"{self.data.path}: {verdict.problem}. This engine does not reproduce the save: "
            "it is shown read-only (the replay viewer shows where it differs)."
        )
        return Settled(game, self.note, message, read_only=True)

    def text(self) -> Text:
        """The note as the status line starts with it."""
        style = "bold red" if self.note.startswith("diverged") else "dim"
        return Text.assemble((self.note, style), " · ")
