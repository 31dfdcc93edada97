"""The engine stays headless: importing it (and playing) loads no Textual, Rich or tui."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEADLESS = (
    "import engine.game, engine.save, engine.rulesets",
    "from engine.rulesets.killteam import KillTeam",
    "import tui.cli",
)


@pytest.mark.parametrize("statement", HEADLESS)
def test_headless_imports_do_not_load_the_ui(statement: str) -> None:
    code = (
        f"{statement}\nimport sys\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'tui')"
        " and m not in ('tui', 'tui.cli'))\nprint(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_tui_has_no_import_circles() -> None:
    """Screens post messages up and the app navigates: no module of `tui` (or of
    `tui.serve`) imports, even indirectly, one that imports it back."""
    import grimp

    graph = grimp.build_graph("tui", "engine")
    for package in ("tui", "tui.serve"):
        breakers = graph.nominate_cycle_breakers(package)
        assert breakers == set(), f"import circles in {package}: {sorted(breakers)}"


def test_the_command_line_loads_what_a_command_needs_when_it_runs() -> None:
    """``wargrid play`` starts a new process for every Continue: the bots, the rule
    cases, the transcripts and the package metadata (``--version``) are not its start-up."""
    code = (
        "import tui.cli, sys\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith("
        "('engine.bot', 'engine.rulecase', 'engine.transcript', 'engine.timeline', "
        "'engine.game', 'importlib.metadata')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_game_screen_loads_no_luck_tables_or_timelines_until_the_game_ends() -> None:
    """The summary's luck tables and the replay's timelines load when the game ends (they
    were a twentieth of Continue's start)."""
    code = (
        "import tui.game_screen, sys\n"
        "print(','.join(sorted(m for m in sys.modules if m in "
        "('tui.summary', 'engine.timeline', 'tui.replay_text'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
