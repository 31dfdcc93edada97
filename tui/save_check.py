"""The check of a save that was opened at its checkpoint, as the game screen shows it.

Continue shows a save at once from its last checkpoint (engine.resumption); the whole
file is then re-run in a worker thread while the players look or play on. The status
line says "verifying…" meanwhile, then "verified", or "diverged at step N" (the game is
then shown read-only: this engine does not reproduce the file, so nothing is written
over it). A checkpoint that does not match the choices is replaced by the game the
choices lead to, played on to where the players are.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from engine.game import Game
from engine.resumption import Verdict, adopt, check_save
from engine.save import SaveData

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
    """One save's check: run in a worker, settled on the screen's thread."""

    def __init__(self, data: SaveData) -> None:
        self.data = data
        self.note = VERIFYING

    def run(self) -> Verdict:
        """Re-run the whole file (in a worker thread: it builds its own game only)."""
        return check_save(self.data)

    def settle(
        self, game: Game, verdict: Verdict | None, error: BaseException | None = None
    ) -> Settled:
        """The verdict applied to ``game``, the game shown (and maybe played on) since;
        None if the check stopped (``error``: why)."""
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
