"""Computer players: win rates between levels, and how long a decision takes.

Run: ``.venv/bin/python benchmarks/bot_strength.py [--games N] [--rulesets killteam,...]
[--pairs normal:random,normal:easy]``. Each pair plays N seeded games per scenario, half
with each side assignment, and prints wins / losses / draws of the first player named,
its win rate, and the decision times (p50 / p95, one process: one core) of every level
that took part, after what the ruleset's evaluation counts. The issue's figures are for
``--games 200``; the machine this was written on allowed only a few. Targets (issue #20):
normal wins >= 95% against random and >= 70% against easy; decision time p95 <= 250 ms
for normal and <= 50 ms for easy.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.bot.players import make_bot
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


def play(
    scenario_name: str, levels: tuple[str, str], seed: int, times: dict[str, list[float]]
) -> int | None:
    """One game; the winning seat (or None), decision times appended per level."""
    scenario = load_scenario(ROOT / "scenarios" / f"{scenario_name}.toml")
    game = Game(scenario, seed)
    players = (make_bot(levels[0], seed), make_bot(levels[1], seed + 7919))
    while game.pending is not None:
        player = players[game.pending.player]
        start = time.perf_counter()
        choice = player.decide(game)
        times.setdefault(player.level, []).append(time.perf_counter() - start)
        game.choose(choice)
    assert game.outcome is not None
    return game.outcome.winner


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10, help="games per pair and ruleset")
    parser.add_argument("--rulesets", default=",".join(SCENARIOS))
    parser.add_argument("--pairs", default="normal:random,normal:easy")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    args = parser.parse_args()
    for ruleset in args.rulesets.split(","):
        counts = find_ruleset(ruleset).EVALUATION.counts
        print(f"{ruleset:13} evaluation counts: " + "; ".join(counts), flush=True)
        for pair in args.pairs.split(","):
            first, second = pair.split(":")
            times: dict[str, list[float]] = {}
            wins = losses = draws = 0
            for i in range(args.games):
                seed = args.seed + i
                swap = i % 2 == 1  # both side assignments
                levels = (second, first) if swap else (first, second)
                winner = play(SCENARIOS[ruleset], levels, seed, times)
                if winner is None:
                    draws += 1
                elif (winner == 1) == swap:
                    wins += 1
                else:
                    losses += 1
            rate = 100 * wins / max(1, args.games)
            timing = "; ".join(
                f"{level} p50 {percentile(t, 0.5):.1f} ms p95 {percentile(t, 0.95):.1f} ms"
                for level, t in sorted(times.items())
            )
            print(
                f"{ruleset:13} {first} vs {second}: {wins} won, {losses} lost, {draws} drawn "
                f"of {args.games} ({rate:.0f}%) | {timing}",
                flush=True,
            )


if __name__ == "__main__":
    main()
