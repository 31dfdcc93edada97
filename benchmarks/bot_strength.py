"""Computer players: win rates between levels, and how long a decision takes.

Run: ``.venv/bin/python benchmarks/bot_strength.py [--games N] [--rulesets killteam,...]
[--pairs normal:random,normal:easy] [--seed FIRST] [--jobs N] [--log FILE]``. Each pair
plays N seeded games per ruleset (``--jobs`` at once), half with each side assignment, and
prints the first player's wins / losses / draws, its win rate with a 95% confidence interval
(Wilson), and the decision times (p50 / p95) of the levels that took part, each figure
beside its target (issue #20): normal wins >= 95% against random and >= 70% against easy; a
decision takes at most 250 ms (normal) and 50 ms (easy) at the 95th percentile on one core.

Where it loses: the first player's tally as each side, and by each setup the game agreed
or rolled before its first round (an event whose kind ends in "Chosen": wh40k6's mission
and deployment map), so a weakness shows as an army or a mission (a wh40k6 run's total
hid that normal lost most games on one deployment map). ``--log FILE`` writes a JSON line
per game (seed, the levels of each seat, the first player's result, each side's score, the
rounds, the setup) to compare two versions seed by seed: a change to the computer replays
the same seeds, so only the games it changed differ.

Decision times are CPU time of this process (``time.process_time``): "on one core" means the
thinking itself, not the waits of a machine shared with other work. A target is MET when the
measured figure reaches it; the interval says how far a small sample can be off. A game the
rules engine fails in (`EngineBugError`: a rules bug, not a player's) is named with its seed
and counted in no tally.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine.bot.players import make_bot
from engine.errors import EngineBugError
from engine.game import Game
from engine.rulesets import find_ruleset
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = {
    "killteam": "killteam-crossroads",
    "wh40k6": "wh40k6-open-war",
    "apocalypse": "apocalypse-crossing",
    "confrontation": "confrontation-crossing",
    "fatigue": "fatigue-crossroads",
}
WIN_TARGETS = {"random": 0.95, "easy": 0.70}
"""Least share of games normal must win against each other level."""
TIME_TARGETS = {"normal": 250.0, "easy": 50.0}
"""Most milliseconds a decision may take at the 95th percentile, per level."""


def play(
    scenario_name: str,
    levels: tuple[str, str],
    seed: int,
    times: dict[str, list[float]],
    record: dict[str, Any] | None = None,
) -> int | None:
    """One game; the winning seat (or None), decision CPU times appended per level, and
    in ``record`` (when given) each side's score, the rounds and the setup (`setups`)."""
    scenario = load_scenario(ROOT / "scenarios" / f"{scenario_name}.toml")
    game = Game(scenario, seed)
    players = (make_bot(levels[0], seed), make_bot(levels[1], seed + 7919))
    while game.pending is not None:
        player = players[game.pending.player]
        start = time.process_time()
        choice = player.decide(game)
        times.setdefault(player.level, []).append(time.process_time() - start)
        game.choose(choice)  # EngineBugError: a rules bug, left to the caller
    assert game.outcome is not None
    if record is not None:
        view = game.view()
        record["scores"] = [side.score for side in view.sides]
        record["rounds"] = view.round
        record["setup"] = setups(game)
    return game.outcome.winner


def setups(game: Game) -> list[str]:
    """What was agreed or rolled before the battle (the texts of the events whose kind
    ends in "Chosen", before the first round: "Mission: Purge the Alien")."""
    return [e.text for e in game.events if e.round < 1 and e.kind.endswith("Chosen") and e.text]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (seconds), in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a win rate (Wilson score: sound for small samples and
    for rates near 0 or 1, where the normal approximation is not)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def verdict(met: bool) -> str:
    return "MET" if met else "NOT MET"


def win_line(ruleset: str, first: str, second: str, tally: tuple[int, int, int]) -> str:
    """The win-rate figure beside its target."""
    wins, losses, draws = tally
    games = wins + losses + draws
    rate = wins / max(1, games)
    low, high = wilson(wins, games)
    line = (
        f"{ruleset:13} {first} vs {second}: {wins} won, {losses} lost, {draws} drawn of "
        f"{games}: {100 * rate:.1f}% (95% CI {100 * low:.0f}-{100 * high:.0f}%)"
    )
    target = WIN_TARGETS.get(second) if first == "normal" else None
    if target is not None:
        line += f" | target >= {100 * target:.0f}%: {verdict(rate >= target)}"
    return line


def time_line(ruleset: str, level: str, values: list[float]) -> str:
    """The decision-time figures beside their target."""
    p95 = percentile(values, 0.95)
    line = (
        f"{ruleset:13} {level} decision time over {len(values)} decisions: "
        f"p50 {percentile(values, 0.5):.1f} ms, p95 {p95:.1f} ms, "
        f"max {max(values) * 1000:.0f} ms"
    )
    target = TIME_TARGETS.get(level)
    if target is not None:
        line += f" | target p95 <= {target:.0f} ms: {verdict(p95 <= target)}"
    return line


Task = tuple[str, tuple[str, str], int]
"""One game to play: the scenario, each seat's level, the seed."""


Played = tuple[int | None, dict[str, list[float]], str | None, dict[str, Any]]
"""A game's winning seat, its decision times, the rules bug that stopped it, its record."""


def play_one(task: Task) -> Played:
    """A game in a worker: its winner, its decision times, or the rules bug that stopped
    it, and its record (`play`)."""
    scenario_name, levels, seed = task
    times: dict[str, list[float]] = {}
    record: dict[str, Any] = {}
    try:
        return play(scenario_name, levels, seed, times, record), times, None, record
    except EngineBugError as bug:  # not the players' doing: counted apart
        return None, times, str(bug), record


def breakdown(ruleset: str, first: str, results: list[tuple[str, list[str]]]) -> list[str]:
    """The first player's won-lost-drawn by each group its games fall in (``results``: a
    result "won", "lost" or "drawn" and the game's groups), one line a group."""
    tallies: dict[str, Counter[str]] = {}
    for result, groups in results:
        for group in groups:
            tallies.setdefault(group, Counter())[result] += 1
    return [
        f"{ruleset:13}   {first} {group}: {t['won']}-{t['lost']}-{t['drawn']}"
        for group, t in sorted(tallies.items())
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10, help="games per pair and ruleset")
    parser.add_argument("--rulesets", default=",".join(SCENARIOS))
    parser.add_argument("--pairs", default="normal:random,normal:easy")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument(
        "--jobs", type=int, default=1, help="games played at once (decision times stay CPU)"
    )
    parser.add_argument("--log", type=Path, help="write a JSON line per game to this file")
    args = parser.parse_args()
    log = args.log.open("w", encoding="utf-8") if args.log else None
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for ruleset in args.rulesets.split(","):
            counts = find_ruleset(ruleset).EVALUATION.counts
            print(f"{ruleset:13} evaluation counts: " + "; ".join(counts), flush=True)
            times: dict[str, list[float]] = {}
            sides = load_scenario(ROOT / "scenarios" / f"{SCENARIOS[ruleset]}.toml").sides
            for pair in args.pairs.split(","):
                first, second = pair.split(":")
                tally = [0, 0, 0]
                results: list[tuple[str, list[str]]] = []
                seeds = [args.seed + i for i in range(args.games)]
                swaps = [i % 2 == 1 for i in range(args.games)]  # both side assignments
                tasks = [
                    (SCENARIOS[ruleset], (second, first) if swap else (first, second), seed)
                    for seed, swap in zip(seeds, swaps, strict=True)
                ]
                for seed, swap, (winner, game_times, bug, record) in zip(
                    seeds, swaps, pool.map(play_one, tasks), strict=True
                ):
                    for level, values in game_times.items():
                        times.setdefault(level, []).extend(values)
                    if bug is not None:
                        print(f"{ruleset:13} seed {seed} stopped by a rules bug: {bug}", flush=True)
                        continue
                    index = 2 if winner is None else 0 if (winner == 1) == swap else 1
                    tally[index] += 1
                    result = ("won", "lost", "drawn")[index]
                    side = f"as {sides[1 if swap else 0]}"
                    setup = [str(text) for text in record.get("setup", [])]
                    results.append((result, [side, *setup]))
                    if log is not None:
                        seats = [second, first] if swap else [first, second]
                        game = {"ruleset": ruleset, "seed": seed, "seats": seats, "result": result}
                        log.write(json.dumps(game | record) + "\n")
                        log.flush()
                print(win_line(ruleset, first, second, (tally[0], tally[1], tally[2])), flush=True)
                for line in breakdown(ruleset, first, results):
                    print(line, flush=True)
            for level, values in sorted(times.items()):
                if level in TIME_TARGETS:
                    print(time_line(ruleset, level, values), flush=True)
    if log is not None:
        log.close()


if __name__ == "__main__":
    main()
