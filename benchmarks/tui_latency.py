"""Keypress-to-repainted-frame latency of the game screen, in a real pseudo-terminal, for
every ruleset at 80x24 and 200x60.

The app runs in a child process on a pty, at each scenario's first open cell Decision
(deployment: up to hundreds of lit cells; 36x36 to 72x48 boards). We time, from writing a
key to the pty, the arrival of the last byte of the frame it causes:

- cursor: ``h``/``l`` move the battlefield cursor (the commonest key);
- choice: Enter places the model (a whole new Decision is drawn), then ``u`` undoes it.

Target: a median at or under 16 ms on an idle machine. Run:
``.venv/bin/python benchmarks/tui_latency.py [ROUNDS] [SCENARIO ...]`` (default 20 rounds,
one scenario per ruleset).
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
game = Game(load_scenario(f"scenarios/{sys.argv[2]}.toml"), 7)
def open_cells(d):
    return not d.hidden and sum(o.cell is not None for o in d.options) > 1
while game.pending is not None and not open_cells(game.pending):
    game.choose_key(next(o.key for o in game.pending.options if not o.ends))
app = WargridApp(saves_dir=Path(sys.argv[1]))
app.open_game(game, handover=False)
app.run()
"""

SCENARIOS = (
    "killteam-crossroads",
    "wh40k6-open-war",
    "apocalypse-crossing",
    "confrontation-crossing",
    "fatigue-crossroads",
)


def cursor_frame(term: Terminal, n: int, order: list[bytes]) -> float:
    """One cursor step; at the board's edge the step the other way (nothing repaints when
    the cursor cannot move)."""
    try:
        return term.key_to_frame(order[n % 2])[1]
    except TimeoutError:
        order.reverse()
        return term.key_to_frame(order[n % 2])[1]


def measure(scenario: str, size: tuple[int, int], rounds: int) -> dict[str, list[float]]:
    """Latencies in milliseconds per kind of key, at one terminal size."""
    with tempfile.TemporaryDirectory() as saves:
        term = Terminal(CHILD, size, saves, scenario)
        try:
            term.wait_for(b"Enter")
            term.settle(1.0)
            found: dict[str, list[float]] = {"cursor": [], "choice": [], "undo": []}
            order = [b"h", b"l"]
            for n in range(rounds):
                found["cursor"].append(cursor_frame(term, n, order))
            for _ in range(rounds // 2):
                found["choice"].append(term.key_to_frame(b"\r")[1])
                found["undo"].append(term.key_to_frame(b"u")[1])
        finally:
            term.close()
    return {k: [v * 1000 for v in values] for k, values in found.items()}


def main() -> int:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for scenario in sys.argv[2:] or SCENARIOS:
        for size in ((80, 24), (200, 60)):
            results = measure(scenario, size, rounds)
            for kind, values in results.items():
                values.sort()
                p90 = values[max(0, int(len(values) * 0.9) - 1)]
                print(
                    f"{scenario:24} {size[0]}x{size[1]} {kind:6}: "
                    f"median {statistics.median(values):6.1f} ms, p90 {p90:6.1f} ms, "
                    f"min {values[0]:5.1f} ms ({len(values)} keys)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
