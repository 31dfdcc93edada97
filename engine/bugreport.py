"""Bug reports: what a player sends when a choice hit a bug in the rules engine.

`Game.choose` is atomic, so after an `EngineBugError` the game still stands at the
decision the bad choice answered. A report is two files: ``bug-<stamp>.wargrid``, a save
of that game (``wargrid play --load`` opens it at that decision), and ``bug-<stamp>.toml``,
a rule case naming the save, the choice and the traceback: ``wargrid check`` replays the
save, makes the choice, and reports the ERROR until the bug is fixed (then it passes, and
the report can join the conformance suite).

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.errors import EngineBugError
from engine.game import Game
from engine.save import ENGINE_VERSION, write_save

FOLDER = "bugs"
"""Reports go to this folder beside the saves (the load menu lists only the saves)."""


@dataclass(frozen=True, slots=True)
class BugReport:
    """Where a report was written."""

    case: Path
    """The rule case: ``wargrid check`` on it reproduces the failure."""
    save: Path
    """The game at the decision the failing choice answered."""


def write_bug_report(
    game: Game, key: str, error: EngineBugError, folder: Path, now: datetime | None = None
) -> BugReport:
    """Write the save and the case of ``game`` failing on the option ``key``.

    Raises:
        OSError: the folder or a file cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"bug-{game.ruleset.INFO.name}-{stamp}"
    n = 2
    while (folder / f"{base}.toml").exists() or (folder / f"{base}.wargrid").exists():
        base = f"bug-{game.ruleset.INFO.name}-{stamp}-{n}"
        n += 1
    save = folder / f"{base}.wargrid"
    write_save(game, save)
    prompt = "" if game.pending is None else game.pending.prompt
    message = " / ".join(line.strip() for line in str(error).splitlines() if line.strip())
    lines = [
        "# A choice hit a bug in the rules engine; the game stayed at the decision before it.",
        f"# Reproduce: wargrid check {base}.toml  (ERROR until the bug is fixed)",
        f"#            wargrid play --load {base}.wargrid, then choose {key!r} again.",
        f"name = {_toml_string('bug report: ' + message)}",
        f"source = {_toml_string(_source(game))}",
        f"save = {_toml_string(save.name)}",
        f"choices = [{_toml_string(key)}]",
        f"decision = {_toml_string(prompt)}",
        f"traceback = {_toml_string(error.trace)}",
        "",
    ]
    case = folder / f"{base}.toml"
    case.write_text("\n".join(lines), encoding="utf-8", errors="replace")
    return BugReport(case, save)


def _source(game: Game) -> str:
    info = game.ruleset.INFO
    return f"wargrid {ENGINE_VERSION}, {info.name} {info.version}, {game.scenario.name}"


def _toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, once DEL is escaped as well."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
