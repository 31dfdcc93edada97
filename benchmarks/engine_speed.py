"""Engine speed: bot-vs-bot Kill Team games per second, and loading a long save.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--games N]``. Single process, so
the games-per-second figure is for one core. The long save is a Kill Team game played
with more rounds until it has at least 2,000 choices (or the game ends first); loading
it means decoding, replaying and verifying every roll and checkup.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from engine.bot import RandomBot
from engine.game import Game
from engine.save import decode, load_game, read_save, replay, write_save
from engine.scenario import Scenario, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
CROSSROADS = ROOT / "scenarios" / "killteam-crossroads.toml"


def play(scenario: Scenario, seed: int, limit: int | None = None) -> Game:
    game = Game(scenario, seed)
    bot = RandomBot(seed)
    while game.pending is not None and (limit is None or len(game.choices) < limit):
        game.choose(bot.choose(game.pending))
    return game


def games_per_second(n: int) -> tuple[float, float]:
    scenario = load_scenario(CROSSROADS)
    choices = 0
    start = time.perf_counter()
    for seed in range(n):
        choices += len(play(scenario, seed).choices)
    elapsed = time.perf_counter() - start
    return n / elapsed, choices / n


def long_save(path: Path) -> int:
    text = (
        CROSSROADS.read_text()
        .replace("rounds = 4", "rounds = 60")
        .replace("roster_building = true", "roster_building = false")
    )
    scenario = parse_scenario(text, "long-crossroads")
    best = max((play(scenario, seed) for seed in range(3)), key=lambda g: len(g.choices))
    write_save(best, path)
    return len(best.choices)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    rate, mean_choices = games_per_second(args.games)
    print(
        f"kill team bot games: {rate:.1f} games/s on one core "
        f"({mean_choices:.0f} choices per game, {args.games} games)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.msgpack"
        choices = long_save(path)
        size = path.stat().st_size
        raw = path.read_bytes()
        load_times, decode_times = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            load_game(path)
            load_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            decode(raw, "long")
            decode_times.append(time.perf_counter() - t0)
        data = read_save(path)
        t0 = time.perf_counter()
        replay(data, verify=False)
        unverified = time.perf_counter() - t0
        print(
            f"long save: {choices} choices, {len(data.rolls)} rolls, {size} bytes "
            f"({size / max(1, len(data.rolls)):.0f} bytes per roll)"
        )
        print(
            f"load + verify: {statistics.median(load_times) * 1000:.0f} ms median "
            f"(decode only {statistics.median(decode_times) * 1000:.1f} ms, "
            f"replay without verify {unverified * 1000:.0f} ms)"
        )


if __name__ == "__main__":
    main()
