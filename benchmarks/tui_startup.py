"""Start-to-first-frame: wargrid against a bare Textual app started the same way.

Each app runs as ``python -c ...`` in an 80x24 pseudo-terminal; the clock runs from
spawning the process until a known word of its first screen reaches the terminal:

- bare: a Textual ``App`` showing one ``Static`` (the floor: Python + Textual start-up);
- menu: ``make_app()``, the main menu (what ``wargrid play`` opens);
- game: ``make_app(scenario=..., seed=7)``, straight into a Kill Team game.

Target: menu and game within 1.3x of bare. Run: ``.venv/bin/python benchmarks/tui_startup.py``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile

from _pty import Terminal

BARE = """
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("bare app ready")

Bare().run()
"""

MENU = """
import sys
from pathlib import Path
from tui.app import make_app
make_app(saves_dir=Path(sys.argv[1])).run()
"""

GAME = """
import sys
from pathlib import Path
from tui.app import make_app
make_app(scenario=Path("scenarios/killteam-crossroads.toml"), seed=7,
         saves_dir=Path(sys.argv[1])).run()
"""

APPS = (("bare", BARE, b"ready"), ("menu", MENU, b"New game"), ("game", GAME, b"decides"))
RUNS = 10


def first_frame(code: str, marker: bytes, saves: str) -> float:
    """Seconds from spawn to ``marker`` on screen."""
    term = Terminal(code, (80, 24), saves)
    try:
        return term.wait_for(marker)
    finally:
        term.close()


def main() -> int:
    times: dict[str, list[float]] = {name: [] for name, _, _ in APPS}
    with tempfile.TemporaryDirectory() as saves:
        for _, code, marker in APPS:  # warm the file cache once
            first_frame(code, marker, saves)
        for _ in range(RUNS):  # interleaved, so load changes hit every app alike
            for name, code, marker in APPS:
                times[name].append(first_frame(code, marker, saves))
    bare = statistics.median(times["bare"])
    for name, values in times.items():
        median = statistics.median(values)
        print(
            f"{name:5}: median {median * 1000:6.0f} ms, min {min(values) * 1000:6.0f} ms, "
            f"{median / bare:4.2f}x bare ({len(values)} runs)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
