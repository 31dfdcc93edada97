"""Keypress-to-repainted-frame latency of the game screen, in a real pseudo-terminal.

The app runs in a child process on an 80x24 and a 200x60 pty, at a Kill Team deployment
Decision (180 lit cells). We time, from writing a key to the pty, the arrival of the last
byte of the frame it causes:

- cursor: ``l``/``h`` move the battlefield cursor (the commonest key);
- choice: Enter places the model (a whole new Decision is drawn), then ``u`` undoes it.

Target: a median at or under 16 ms. Run: ``.venv/bin/python benchmarks/tui_latency.py``.
"""

from __future__ import annotations

import statistics
import sys
import tempfile

from _pty import Terminal

CHILD = """
import sys
from pathlib import Path
from engine.game import Game
from engine.scenario import load_scenario
from tui.app import WargridApp
game = Game(load_scenario("scenarios/killteam-crossroads.toml"), 7)
while game.pending is not None and game.pending.kind.name != "PICK_CELL":
    game.choose_key(game.pending.options[0].key)
app = WargridApp(saves_dir=Path(sys.argv[1]))
app.open_game(game, handover=False)
app.run()
"""

ROUNDS = 40


def measure(size: tuple[int, int]) -> dict[str, list[float]]:
    """Latencies in milliseconds per kind of key, at one terminal size."""
    with tempfile.TemporaryDirectory() as saves:
        term = Terminal(CHILD, size, saves)
        try:
            term.wait_for(b"Deployment")
            term.settle(1.0)
            found: dict[str, list[float]] = {"cursor": [], "choice": [], "undo": []}
            for n in range(ROUNDS):
                found["cursor"].append(term.key_to_frame(b"l" if n % 2 == 0 else b"h")[1])
            for _ in range(ROUNDS // 2):
                found["choice"].append(term.key_to_frame(b"\r")[1])
                found["undo"].append(term.key_to_frame(b"u")[1])
        finally:
            term.close()
    return {k: [v * 1000 for v in values] for k, values in found.items()}


def main() -> int:
    for size in ((80, 24), (200, 60)):
        results = measure(size)
        for kind, values in results.items():
            values.sort()
            p90 = values[int(len(values) * 0.9) - 1]
            print(
                f"{size[0]}x{size[1]} {kind:6}: median {statistics.median(values):6.1f} ms, "
                f"p90 {p90:6.1f} ms, min {values[0]:5.1f} ms ({len(values)} keys)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
