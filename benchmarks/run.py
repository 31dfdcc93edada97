"""Every benchmark in one table: ``make bench``, or ``.venv/bin/python benchmarks/run.py``.

Measured here, in one process on one core:

- bot games per second for every registered ruleset (RandomBot against itself on each
  shipped scenario of the ruleset, time-boxed), with choices per game;
- for a 2,000-choice save of each ruleset (its first scenario with 99 rounds, played by a
  bot that often passes, cut at 2,000 choices): load + verify time (read, decode, replay,
  check every roll and checkup), plain msgpack decoding of the same file, their ratio,
  and the file's bytes per roll (whole file, and the roll records alone).

Then every other script in ``benchmarks/`` (the known ones first, then any new one;
``_*.py`` are helpers) runs as a subprocess and each line it prints becomes a row. The
machine (cores, CPU model, Python) heads the table: figures mean nothing without it.

Options: ``--seconds S`` per ruleset for games per second (default 3), ``--choices N``
for the long save (default 2000), ``--no-scripts`` to skip the other scripts,
``--timeout S`` per script (default 900).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import msgpack

from engine.bot import RandomBot
from engine.game import Game
from engine.rulesets import RULESETS
from engine.save import load_game, write_save
from engine.scenario import Scenario, load_scenario, parse_scenario

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KNOWN_SCRIPTS = ("engine_speed.py", "apocalypse_scale.py", "tui_latency.py", "tui_startup.py")
"""Run in this order; any other ``benchmarks/*.py`` follows, sorted."""
PASSIVE_KEYS = frozenset({"pass", "stay", "no", "end", "hold", "skip", "done", "none"})
Row = tuple[str, str, str]


def machine() -> str:
    """Cores, CPU model and Python version, for the table's heading."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cores} cores (nproc), {model}, Python {platform.python_version()}"


def scenarios_by_ruleset() -> dict[str, list[Scenario]]:
    """Shipped scenarios of each registered ruleset, in registry order."""
    found: dict[str, list[Scenario]] = {r.INFO.name: [] for r in RULESETS}
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        try:
            scenario = load_scenario(path)
        except Exception:  # a scenario of a ruleset still being written: not benchmarked
            continue
        if scenario.ruleset in found:
            found[scenario.ruleset].append(scenario)
    return found


def bot_game(scenario: Scenario, seed: int) -> Game:
    """One RandomBot game, as ``wargrid simulate`` plays it."""
    game = Game(scenario, seed)
    bot = RandomBot(seed)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
    return game


def games_per_second(name: str, scenarios: list[Scenario], seconds: float) -> Row:
    """Bot games per second on one core, cycling through the ruleset's scenarios."""
    games = choices = 0
    start = time.perf_counter()
    while games < 3 or time.perf_counter() - start < seconds:
        choices += len(bot_game(scenarios[games % len(scenarios)], games).choices)
        games += 1
    elapsed = time.perf_counter() - start
    return (
        f"bot games/s: {name}",
        f"{games / elapsed:.1f} games/s",
        f"{choices / games:.0f} choices/game, {choices / elapsed:.0f} choices/s, "
        f"{games} games on {len(scenarios)} scenario(s)",
    )


def long_game(scenario: Scenario, choices: int) -> Game:
    """The first of a few seeded games that reaches ``choices`` (else the longest)."""
    text = re.sub(r"(?m)^rounds\s*=\s*\d+", "rounds = 99", scenario.text, count=1)
    long = parse_scenario(text, f"{scenario.source} (99 rounds)")
    best: Game | None = None
    for seed in range(8):
        game, rng = Game(long, seed), random.Random(seed)
        while game.pending is not None and len(game.choices) < choices:
            keys = game.pending.keys()
            calm = [k for k in keys if k in PASSIVE_KEYS]
            game.choose_key(rng.choice(calm) if calm and rng.random() < 0.6 else rng.choice(keys))
        if best is None or len(game.choices) > len(best.choices):
            best = game
        if len(best.choices) >= choices:
            break
    assert best is not None
    return best


def save_figures(name: str, scenario: Scenario, choices: int) -> Iterator[Row]:
    """Load + verify vs plain decoding of a long save, and its bytes per roll."""
    game = long_game(scenario, choices)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.wargrid"
        write_save(game, path)
        raw = path.read_bytes()
        loads, decodes = [], []
        for _ in range(3):
            t0 = time.perf_counter()
            load_game(path)
            loads.append(time.perf_counter() - t0)
        for _ in range(20):
            t0 = time.perf_counter()
            doc = msgpack.unpackb(raw)
            decodes.append(time.perf_counter() - t0)
    load, decode = statistics.median(loads), statistics.median(decodes)
    rolls = max(1, len(game.rolls))
    roll_bytes = len(msgpack.packb(doc["rolls"]))
    what = f"{name}, {len(game.choices)} choices, {len(game.rolls)} rolls, {len(raw):,} bytes"
    yield (f"long save load+verify: {name}", f"{load * 1000:.0f} ms", what)
    yield (f"long save msgpack decode: {name}", f"{decode * 1000:.2f} ms", "msgpack.unpackb only")
    yield (f"load+verify / decode: {name}", f"{load / decode:.0f}x", "replay dominates")
    yield (
        f"bytes per roll: {name}",
        f"{len(raw) / rolls:.0f} B",
        f"whole save / rolls; the roll records alone: {roll_bytes / rolls:.1f} B per roll",
    )


def scripts() -> list[Path]:
    """The other benchmark scripts: known ones in order, then the rest sorted."""
    found = {p.name: p for p in HERE.glob("*.py") if p.name != "run.py" and p.name[0] != "_"}
    order = [found.pop(n) for n in KNOWN_SCRIPTS if n in found]
    return order + [found[n] for n in sorted(found)]


def run_script(script: Path, timeout: float) -> Iterator[Row]:
    """Run one script; each line of its output is a row."""
    start = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        yield (script.name, f"timed out after {timeout:.0f} s", "")
        return
    lines = [line.rstrip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        lines.append(f"FAILED (exit {done.returncode}): {last}")
    for line in lines:
        yield (script.name, line, "")
    yield (script.name, f"(ran in {time.perf_counter() - start:.1f} s)", "")


def print_table(title: str, rows: list[Row]) -> None:
    """Rows as one plain-text table (benchmark | figure | detail)."""
    widths = [max(len(r[i]) for r in [("benchmark", "figure", "detail"), *rows]) for i in (0, 1)]
    print(title)
    print(f"{'benchmark':<{widths[0]}} | {'figure':<{widths[1]}} | detail")
    print(f"{'-' * widths[0]}-+-{'-' * widths[1]}-+-{'-' * 30}")
    for bench, figure, detail in rows:
        print(f"{bench:<{widths[0]}} | {figure:<{widths[1]}} | {detail}".rstrip())


def main(argv: list[str] | None = None) -> None:
    """Measure, run the other scripts, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--choices", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--no-scripts", action="store_true")
    args = parser.parse_args(argv)
    rows: list[Row] = []
    for name, scenarios in scenarios_by_ruleset().items():
        if not scenarios:
            rows.append((f"bot games/s: {name}", "no scenario", ""))
            continue
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        rows.append(games_per_second(name, scenarios, args.seconds))
        rows.extend(save_figures(name, scenarios[0], args.choices))
    if not args.no_scripts:
        for script in scripts():
            print(f"running {script.name} ...", file=sys.stderr, flush=True)
            rows.extend(run_script(script, args.timeout))
    print_table(f"wargrid benchmarks on {machine()}", rows)


if __name__ == "__main__":
    main()
