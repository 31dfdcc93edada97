"""The cost of thinking in a worker process for a hosted game's computer seat (issue 20).

The hub sends the computer's worker the game's save and choices (`tui.serve.computer.ask`);
a worker that kept the game plays the choices since its last move, else it rebuilds the
game from the save at its last checkpoint (`decide`). Per ruleset, for a game cut at a
few lengths (random play, as ``long_game`` makes it), this prints the bot's decision on
the live game, then the whole hub-to-worker call: cold (the game rebuilt: a worker's
first move in a game, or after a restart) and warm (the worker kept it; a real move adds
the few choices made since), each with what it adds to the bot's own time. Target: warm
adds at most 50 ms at any game length.

CPU seconds of one process (the least of a few runs); the worker's process start is paid
once per server, not per move, and is not counted. Run:
``.venv/bin/python benchmarks/hosted_computer.py [--levels easy,normal] [--lengths 50,500]``
(a minute or two; say so beside the figures when the machine is loaded).
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable

from run import long_game, scenarios_by_ruleset

from engine.game import Game
from engine.save import to_bytes
from tui.serve.computer import ask, decide, player_for

RUNS = 3
FRESH = itertools.count()
"""Game ids no worker has kept (a cold call each)."""


def least(work: Callable[[], object]) -> float:
    """The least CPU time of `RUNS` runs of ``work``, in ms."""
    best = float("inf")
    for _ in range(RUNS):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best * 1000


def figures(name: str, game: Game, level: str) -> str:
    assert game.pending is not None
    alone = least(lambda: player_for(game, level).decide(game))
    save = to_bytes(game)
    cold = least(lambda: decide(ask(f"cold-{next(FRESH)}", game, level)))
    warm = least(lambda: decide(ask("warm", game, level)))  # kept after the first run
    return (
        f"{name:<14} {level:<7} {len(game.choices):>6} {len(save) // 1024:>6} KiB "
        f"{alone:>8.1f} {cold:>8.1f} {cold - alone:>+7.1f} {warm:>8.1f} {warm - alone:>+7.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="easy,normal")
    parser.add_argument("--lengths", default="50,500")
    args = parser.parse_args()
    levels = args.levels.split(",")
    lengths = [int(n) for n in args.lengths.split(",")]
    print(f"{'ruleset':<14} {'level':<7} {'choices':>6} {'save':>10} {'bot ms':>8} "
          f"{'cold ms':>8} {'added':>7} {'warm ms':>8} {'added':>7}")  # fmt: skip
    for name, scenarios in scenarios_by_ruleset().items():
        for length in lengths:
            game = long_game(scenarios, length, budget=10.0)
            if game.pending is None:
                print(f"{name:<14} (no unfinished game of {length} choices found)")
                continue
            for level in levels:
                print(figures(name, game, level), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
