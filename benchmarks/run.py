"""Every benchmark in one table: ``make bench``, or ``.venv/bin/python benchmarks/run.py``.

Measured here, in one process on one core, as CPU time (the least of several runs for the
save figures), so other load on a shared machine distorts them less than wall time would:

- bot games per second for every registered ruleset (RandomBot against itself on each
  shipped scenario of the ruleset, time-boxed), with choices per game;
- for a 2,000-choice save of each ruleset (its scenarios with 99 rounds, played by a bot
  that often passes, cut at 2,000 choices; if every try ends sooner, the longest): load +
  verify time (read, decode, replay, check every roll and checkup), also per 1,000
  choices, plain msgpack decoding of the same file, their ratio, and the file's bytes
  per roll (whole file, and the roll records alone);
- undo at the last choice of that save's game (restore the last checkpoint, replay the
  choices since it), against the 16 ms target.

Then every other script in ``benchmarks/`` (the known ones first, then any new one;
``_*.py`` are helpers) runs as a subprocess, and each line it prints becomes a row. The
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
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import msgpack

from engine.bot import RandomBot
from engine.game import Game
from engine.rulesets import RULESETS
from engine.save import load_game, write_save
from engine.scenario import Scenario, load_scenario, parse_scenario

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KNOWN_SCRIPTS = (
    "engine_speed.py",
    "apocalypse_scale.py",
    "tui_startup.py",
    "tui_latency.py",
    "replay_seek.py",
    "ssh_latency.py",
)
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
    """Bot games per CPU second (one core), cycling through the ruleset's scenarios."""
    games = choices = 0
    start = time.process_time()
    while games < 3 or time.process_time() - start < seconds:
        choices += len(bot_game(scenarios[games % len(scenarios)], games).choices)
        games += 1
    elapsed = time.process_time() - start
    return (
        f"bot games/s: {name}",
        f"{games / elapsed:.1f} games/s",
        f"{choices / games:.0f} choices/game, {choices / elapsed:.0f} choices/s, "
        f"{games} games on {len(scenarios)} scenario(s)",
    )


def long_game(scenarios: list[Scenario], choices: int, budget: float = 20.0) -> Game:
    """A bot game of ``choices`` choices (cut there), or the longest found in ``budget``
    CPU seconds.

    Each scenario gets 99 rounds, and bots on successive seeds pass more or less often
    (where an option says so): passing makes long games, but too much of it ends them.
    """
    best: Game | None = None
    start = time.process_time()
    for seed in range(1000):
        scenario, calm = scenarios[seed % len(scenarios)], (0.6, 0.3, 0.0)[seed % 3]
        text = re.sub(r"(?m)^rounds\s*=\s*\d+", "rounds = 99", scenario.text, count=1)
        game = Game(parse_scenario(text, f"{scenario.source} (99 rounds)"), seed)
        rng = random.Random(seed)
        while game.pending is not None and len(game.choices) < choices:
            keys = game.pending.keys()
            passes = [k for k in keys if k in PASSIVE_KEYS]
            pick = rng.choice(passes) if passes and rng.random() < calm else rng.choice(keys)
            game.choose_key(pick)
        if best is None or len(game.choices) > len(best.choices):
            best = game
        if len(best.choices) >= choices or time.process_time() - start > budget:
            break
    assert best is not None
    return best


def save_figures(name: str, scenarios: list[Scenario], choices: int) -> Iterator[Row]:
    """Load + verify vs plain decoding of a long save, and its bytes per roll."""
    game = long_game(scenarios, choices)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.wargrid"
        write_save(game, path)
        raw = path.read_bytes()
        load = best_cpu_time(lambda: load_game(path), 3)
        decode = best_cpu_time(lambda: msgpack.unpackb(raw), 20)
    rolls = max(1, len(game.rolls))
    roll_bytes = len(
        msgpack.packb([[r.index, r.player, r.reason, r.dice, r.faces] for r in game.rolls])
    )
    n = len(game.choices)
    short = "" if n >= choices else f" (every game ended first; longest {n})"
    what = f"{n} choices{short}, {len(game.rolls)} rolls, {len(raw):,} bytes"
    yield (f"long save load+verify: {name}", f"{load * 1000:.0f} ms", what)
    yield (f"  per 1,000 choices: {name}", f"{load * 1e6 / max(1, n):.0f} ms", "")
    yield (f"  msgpack decode alone: {name}", f"{decode * 1000:.2f} ms", "msgpack.unpackb")
    yield (f"  load+verify / decode: {name}", f"{load / decode:.0f}x", "the replay dominates")
    yield undo_figure(name, game)
    yield (
        f"bytes per roll: {name}",
        f"{len(raw) / rolls:.0f} B",
        f"whole save / rolls; the roll records alone: {roll_bytes / rolls:.1f} B per roll",
    )


UNDO_TARGET_MS = 16.0
"""Issue 16: undo at choice 2,000 within one frame at 60 Hz."""


def undo_figure(name: str, game: Game) -> Row:
    """Undo of the last choice of the long game: restore its last checkpoint, replay the
    choices since (what the `u` key costs, whether or not dice forbid it there)."""
    keep = game.choices[:-1]
    undo = best_cpu_time(lambda: game.replayed(keep), 5)
    back = [c for c in game.checkpoints if c.step <= len(keep)]
    since = len(keep) - back[-1].step if back else len(keep)
    verdict = "meets" if undo * 1000 <= UNDO_TARGET_MS else "MISSES"
    return (
        f"undo at choice {len(game.choices):,}: {name}",
        f"{undo * 1000:.1f} ms",
        f"{verdict} the {UNDO_TARGET_MS:.0f} ms target; {since} choices replayed since the "
        f"last checkpoint ({len(game.checkpoints)} in the game)",
    )


def best_cpu_time(action: Callable[[], object], repeat: int) -> float:
    """Least CPU time of ``repeat`` runs: other load on a shared machine only adds to it."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        action()
        times.append(time.process_time() - t0)
    return min(times)


def scripts() -> list[Path]:
    """The other benchmark scripts: known ones in order, then the rest sorted."""
    found = {p.name: p for p in HERE.glob("*.py") if p.name != "run.py" and p.name[0] != "_"}
    order = [found.pop(n) for n in KNOWN_SCRIPTS if n in found]
    return order + [found[n] for n in sorted(found)]


def run_script(script: Path, timeout: float) -> Iterator[Row]:
    """Run one script; each line of its output is a row (in the detail column)."""
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
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        lines.append(f"FAILED (exit {done.returncode}): {last}")
    yield (script.name, f"{time.perf_counter() - start:.1f} s", "(wall time of the script)")
    for line in lines:
        yield ("", "", line)


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
        rows.extend(save_figures(name, scenarios, args.choices))
    if not args.no_scripts:
        for script in scripts():
            print(f"running {script.name} ...", file=sys.stderr, flush=True)
            rows.extend(run_script(script, args.timeout))
    print_table(f"wargrid benchmarks on {machine()}", rows)


if __name__ == "__main__":
    main()
