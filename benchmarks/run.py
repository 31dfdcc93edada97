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
  choices since it), and at each of the 50 choices before it (median and worst).

Each figure stands beside its target (issue 17: 10,000 choices/s in every ruleset,
10 games/s in wh40k6, load + verify at most 100 ms per 1,000 choices; issue 16: undo
within 16 ms), saying whether it meets it or how many times off it is, and beside the
previous release's figure (``benchmarks/previous.json``, written by ``--record``). The
heading names the machine and its load average: on a shared machine, say so.

Then every other script in ``benchmarks/`` (the known ones first, then any new one;
``_*.py`` are helpers) runs as a subprocess, and each line it prints becomes a row. The
machine (cores, CPU model, Python) heads the table: figures mean nothing without it.

Options: ``--seconds S`` per ruleset for games per second (default 3), ``--choices N``
for the long save (default 2000), ``--no-scripts`` to skip the other scripts,
``--timeout S`` per script (default 900), ``--previous FILE`` for other previous figures,
``--ruleset NAME`` (repeatable) to measure only some rulesets,
``--record FILE`` to write this run's figures (the next release's previous ones),
``--profile S`` CPU seconds of bot games profiled for each ruleset with a figure that
misses its target (default 1; 0 profiles none): two rows under its figures say where the
time goes, self time by module and by function (C calls credited to their callers,
``_profile.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import msgpack
from _profile import by_function, by_module, profile_stats, self_times, shares_text

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


def games_per_second(name: str, scenarios: list[Scenario], seconds: float) -> Iterator[Row]:
    """Bot games and choices per CPU second (one core), cycling through the scenarios."""
    games = choices = 0
    start = time.process_time()
    while games < 3 or time.process_time() - start < seconds:
        choices += len(bot_game(scenarios[games % len(scenarios)], games).choices)
        games += 1
    elapsed = time.process_time() - start
    yield (
        f"bot games/s: {name}",
        f"{games / elapsed:.1f} games/s",
        f"{choices / games:.0f} choices/game, {games} games on {len(scenarios)} scenario(s)",
    )
    yield (f"  choices/s: {name}", f"{choices / elapsed:.0f} choices/s", "")


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


def profile_rows(name: str, scenarios: list[Scenario], seconds: float) -> Iterator[Row]:
    """Where the bot games of a ruleset spend their time: what is left to win."""
    stats, games = profile_stats(
        lambda seed: bot_game(scenarios[seed % len(scenarios)], seed), seconds
    )
    times = self_times(stats)
    figure = f"{games} game{'s' * (games != 1)}"
    yield (
        f"  {PROFILED} module: {name}",
        figure,
        shares_text(by_module(times, name), PROFILE_WIDTH),
    )
    yield (f"  {PROFILED} function: {name}", "", shares_text(by_function(times), PROFILE_WIDTH))


PROFILED = "profile by"
"""How profile rows begin: they are not figures, and --record leaves them out."""
PROFILE_WIDTH = 90
"""Characters of a profile row's detail: with the other columns, a table ~200 wide."""


def misses(rows: list[Row]) -> bool:
    """Whether any of these figures misses its target."""
    return any("MISSES" in verdict(bench, figure) for bench, figure, _ in rows)


PREVIOUS = HERE / "previous.json"
"""The figures of the previous release (``--record`` writes such a file)."""


def target_of(bench: str) -> tuple[str, float, str] | None:
    """The target a row's figure is held to (operator, bound, as written), if any.

    Issue 17: 10,000 choices/s in every ruleset and 10 games/s in wh40k6; load + verify
    at most 100 ms per 1,000 choices. Issue 16: undo within one frame at 60 Hz (16 ms).
    """
    name = bench.strip()
    if name.startswith("choices/s:"):
        return (">=", 10_000, ">= 10,000")
    if name == "bot games/s: wh40k6":
        return (">=", 10, ">= 10")
    if name.startswith("per 1,000 choices:"):
        return ("<=", 100, "<= 100 ms")
    if name.startswith("undo at the last choice:"):
        return ("<=", 16, "<= 16 ms")
    return None


def number(figure: str) -> float | None:
    """The first number of a figure ("1,572 choices/s" -> 1572.0), if any."""
    found = re.search(r"-?[0-9][0-9,]*(?:\.[0-9]+)?", figure)
    return None if found is None else float(found.group().replace(",", ""))


def verdict(bench: str, figure: str) -> str:
    """The target column: the target, and whether the figure meets it or by how much not."""
    target, value = target_of(bench), number(figure)
    if target is None or value is None:
        return ""
    op, bound, text = target
    if (value >= bound) if op == ">=" else (value <= bound):
        return f"{text}: meets"
    factor = bound / value if op == ">=" and value else value / bound
    return f"{text}: MISSES ({factor:.1f}x off)"


def previous_figures(path: Path) -> tuple[str, dict[str, str]]:
    """What the previous release's table said, and where it was measured ("" if none)."""
    try:
        data = json.loads(path.read_text())
        figures = {str(k): str(v) for k, v in dict(data["figures"]).items()}
        return str(data.get("measured", "")), figures
    except (OSError, ValueError, KeyError, TypeError):
        return "", {}


def undo_figure(name: str, game: Game) -> Row:
    """Undo of the last choice of the long game: restore its last checkpoint, replay the
    choices since (what the `u` key costs, whether or not dice forbid it there)."""
    keep = game.choices[:-1]
    undo = best_cpu_time(lambda: game.replayed(keep), 5)
    back = [c for c in game.checkpoints if c.step <= len(keep)]
    since = len(keep) - back[-1].step if back else len(keep)
    n = len(game.choices)
    # The last choice may fall just after a checkpoint: undo anywhere near the end, too.
    near = [best_cpu_time(partial(game.replayed, game.choices[:k]), 2)
            for k in range(max(0, n - UNDO_SPAN), n)]  # fmt: skip
    return (
        f"undo at the last choice: {name}",
        f"{undo * 1000:.1f} ms",
        f"choice {n:,}; {since} choices replayed since the last checkpoint "
        f"({len(game.checkpoints)} in the game); undo at each of the last {len(near)} "
        f"choices: median {statistics.median(near) * 1000:.1f} ms, p90 "
        f"{sorted(near)[len(near) * 9 // 10] * 1000:.1f} ms, worst {max(near) * 1000:.1f} ms",
    )


UNDO_SPAN = 50
"""Choices before the end at which undo is also timed (the worst is the one that hurts)."""


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


def print_table(title: str, rows: list[Row], previous: dict[str, str]) -> None:
    """Rows as one plain-text table: benchmark | figure | target | previous | detail."""
    head = ("benchmark", "figure", "target", "previous", "detail")
    table = [
        (bench, figure, verdict(bench, figure), previous.get(bench, ""), detail)
        for bench, figure, detail in rows
    ]
    widths = [max(len(r[i]) for r in [head, *table]) for i in range(4)]
    print(title)
    rule = (*("-" * w for w in widths), "-" * 30)
    for line in [head, rule, *table]:
        cells = [f"{cell:<{w}}" for cell, w in zip(line, widths, strict=False)]
        print(" | ".join([*cells, line[4]]).rstrip())


def main(argv: list[str] | None = None) -> None:
    """Measure, run the other scripts, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--choices", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--no-scripts", action="store_true")
    parser.add_argument("--previous", type=Path, default=PREVIOUS)
    parser.add_argument("--record", type=Path, help="write this run's figures as JSON here")
    parser.add_argument("--profile", type=float, default=1.0, help="CPU s profiled, 0: none")
    parser.add_argument("--ruleset", action="append", help="only these rulesets (repeatable)")
    args = parser.parse_args(argv)
    load = "load average " + " ".join(f"{v:.1f}" for v in os.getloadavg())
    rows: list[Row] = []
    for name, scenarios in scenarios_by_ruleset().items():
        if args.ruleset and name not in args.ruleset:
            continue
        if not scenarios:
            rows.append((f"bot games/s: {name}", "no scenario", ""))
            continue
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        mine = [*games_per_second(name, scenarios, args.seconds)]
        mine.extend(save_figures(name, scenarios, args.choices))
        if args.profile > 0 and misses(mine):
            mine.extend(profile_rows(name, scenarios, args.profile))
        rows.extend(mine)
    if not args.no_scripts:
        for script in scripts():
            print(f"running {script.name} ...", file=sys.stderr, flush=True)
            rows.extend(run_script(script, args.timeout))
    measured = f"{machine()}, {load} at the start"
    where, previous = previous_figures(args.previous)
    print_table(f"wargrid benchmarks on {measured}", rows, previous)
    if where:
        print(f"previous: {where}")
    if args.record is not None:
        figures = {
            bench: figure
            for bench, figure, _ in rows
            if bench and figure and not bench.strip().startswith(PROFILED)
        }
        text = json.dumps({"measured": measured, "figures": figures}, indent=1)
        args.record.write_text(text + "\n")


if __name__ == "__main__":
    main()
