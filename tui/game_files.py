"""What the game screen writes beside its save, besides the save itself: position files
(``w``), bug reports when the rules engine fails, and the players' hand-over setting.

Each returns the words to show the players; a file that cannot be written costs only
that file (the game and its autosave go on).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.notifications import SeverityLevel

from engine.bugreport import FOLDER, write_bug_report
from engine.errors import EngineBugError, WargridError
from engine.game import Game
from tui.settings import load_settings, save_settings


def write_position(game: Game, save_path: Path | None) -> tuple[str, SeverityLevel]:
    """Write the start of the current phase as a position file (the whole game there),
    named after the save, the round and the phase; what happened, and how bad it is."""
    try:
        text = game.position_text()
    except WargridError as exc:
        return f"Cannot save a position: {exc}", "warning"
    view = game.view()
    folder = save_path.parent if save_path is not None else Path("saves")
    stem = save_path.stem if save_path is not None else "game"
    phase = view.phase.lower().replace(" ", "-")
    path = folder / f"{stem}-round{view.round}-{phase}.position.toml"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"Could not write the position: {exc}", "error"
    return f"Position saved to {path} (wargrid play --position {path}).", "information"


def report_engine_bug(
    game: Game, key: str, exc: EngineBugError, save_path: Path | None
) -> tuple[str, str]:
    """Write a bug report beside the saves so the failed choice can be reproduced; the
    notice saying so, with where it went (or why none was written), and the status line,
    naming the file only (a long folder would push its name off an 80-column line)."""
    folder = (Path("saves") if save_path is None else save_path.parent) / FOLDER
    try:
        case = write_bug_report(game, key, exc, folder).case
        where, short = f"Bug report: {case}", f"report {case.name}"
    except OSError as err:
        where, short = f"No bug report written: {err}", "no bug report written (see the notice)"
    return (
        "This choice hit a bug in the rules engine. The game stays at this decision: "
        f"choose again or differently. {where}",
        f"Bug: that choice failed in the rules engine; {short}",
    )


def remember_handover(save_path: Path, handover: bool) -> str | None:
    """Keep the players' hand-over choice for Continue and the next new game; the
    warning to show if it could not be kept."""
    folder = save_path.parent
    try:
        save_settings(folder, replace(load_settings(folder), handover=handover))
    except OSError as exc:  # the setting is lost, nothing else
        return f"Could not keep the hand-over setting: {exc}"
    return None
