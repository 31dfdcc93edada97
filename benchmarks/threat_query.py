"""The threat key (T): how long one `Ruleset.threat` query takes, per ruleset.

Run: ``.venv/bin/python benchmarks/threat_query.py [--choices N]``. For each shipped
scenario a RandomBot game (seed 3) is played for N choices (default 120: past deployment
in every ruleset), then the threat of every model on the table is asked once, timed as
CPU time (one process, one core). Printed per scenario: models asked, median and worst
milliseconds. The TUI asks once per selected model and moment (it keeps the answer), so
the worst figure is the delay a player sees when the cursor reaches a model with T on.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from engine.bot import RandomBot
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def measure(path: Path, choices: int) -> tuple[int, float, float]:
    game = Game(load_scenario(path), 3)
    bot = RandomBot(3)
    while game.pending is not None and len(game.choices) < choices:
        game.choose(bot.choose(game.pending))
    times = []
    for model in game.view().models:
        if model.cell is None or model.removed or "~" in model.id:
            continue
        start = time.process_time()
        game.ruleset.threat(model.id)
        times.append((time.process_time() - start) * 1000)
    if not times:
        return 0, 0.0, 0.0
    return len(times), statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--choices", type=int, default=120)
    args = parser.parse_args()
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        n, median, worst = measure(path, args.choices)
        print(
            f"threat query (T), {path.stem} after {args.choices} choices: {n} models, "
            f"median {median:.1f} ms, worst {worst:.1f} ms"
        )


if __name__ == "__main__":
    main()
