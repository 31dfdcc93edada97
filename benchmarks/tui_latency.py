"""Keypress-to-repainted-frame latency of the game screen, in a real pseudo-terminal, for
every ruleset at 80x24, 120x40 and 200x60.

The app runs in a child process on a pty, at two moments of each scenario: ``setup``, its
first open cell Decision (placing a marker or deploying: up to thousands of lit cells;
36x36 to 72x48 boards), and ``battle``, the first open cell Decision from round 2 on
(picking the unit to move, or the last such Decision if the game ends sooner). We time,
from writing a key to the pty, the arrival of the last byte of the frame it causes:

- cursor: ``h``/``l`` move the battlefield cursor (the commonest key);
- choice: Enter picks the cell under the cursor (a whole new Decision is drawn), then
- undo: ``u`` takes it back.

Targets: cursor at or under 16 ms median, choice and undo at or under 100 ms p90 (a
player feels more as lag). Run:
``.venv/bin/python benchmarks/tui_latency.py [ROUNDS] [SCENARIO ...]`` (default 20 rounds,
one scenario per ruleset); ``--at setup`` or ``--at battle`` for one moment only,
``--size 200x60`` for one size only; ``--out N`` presses ``-`` N times first (``--out 2``
at 80x24: the 2x3 overview, a character for a block of cells).
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
battle = sys.argv[3] == "battle"
def open_cells(d):
    return not d.hidden and sum(o.cell is not None for o in d.options) > 1
def there(game):
    d = game.pending
    return open_cells(d) and (not battle or game.view().round >= 2)
last = None
while game.pending is not None and not there(game):
    if open_cells(game.pending):
        last = len(game.choices)
    keep = [o for o in game.pending.options if not o.ends] or game.pending.options
    game.choose_key(keep[0].key)
if game.pending is None:
    game = game.replayed(game.choices[:last])
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


def measure(
    scenario: str, at: str, size: tuple[int, int], rounds: int, out: int = 0
) -> dict[str, list[float]]:
    """Latencies in milliseconds per kind of key, at one moment and terminal size, ``out``
    zoom levels below where the screen starts."""
    with tempfile.TemporaryDirectory() as saves:
        term = Terminal(CHILD, size, saves, scenario, at)
        try:
            term.wait_for(b"Enter")
            term.settle(1.0)
            for _ in range(out):
                term.key_to_frame(b"-")
                term.settle(0.5)
            found: dict[str, list[float]] = {"cursor": [], "choice": [], "undo": []}
            order = [b"h", b"l"]
            try:
                for n in range(rounds):
                    found["cursor"].append(cursor_frame(term, n, order))
            except TimeoutError:  # the list has the focus (the board is not the question)
                found.pop("cursor")
            for _ in range(rounds // 2):
                found["choice"].append(term.key_to_frame(b"\r")[1])
                found["undo"].append(term.key_to_frame(b"u")[1])
        finally:
            term.close()
    return {k: [v * 1000 for v in values] for k, values in found.items()}


def option(args: list[str], name: str) -> str | None:
    """Take ``name VALUE`` out of ``args``; the value, or None if absent."""
    if name not in args:
        return None
    at = args.index(name)
    value = args[at + 1]
    del args[at : at + 2]
    return value


def main() -> int:
    args = sys.argv[1:]
    moment = option(args, "--at")
    size_arg = option(args, "--size")
    out = int(option(args, "--out") or 0)
    moments = (moment,) if moment else ("setup", "battle")
    sizes: tuple[tuple[int, int], ...] = ((80, 24), (120, 40), (200, 60))
    if size_arg:
        cols, rows = size_arg.split("x")
        sizes = ((int(cols), int(rows)),)
    rounds = int(args[0]) if args else 20
    for scenario in args[1:] or SCENARIOS:
        for at, size in ((at, size) for at in moments for size in sizes):
            results = measure(scenario, at, size, rounds, out)
            for kind, values in results.items():
                values.sort()
                p90 = values[max(0, int(len(values) * 0.9) - 1)]
                print(
                    f"{scenario:24} {at:6} {size[0]}x{size[1]:<3} {kind:6}: "
                    f"median {statistics.median(values):6.1f} ms, p90 {p90:6.1f} ms, "
                    f"min {values[0]:5.1f} ms ({len(values)} keys)",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
