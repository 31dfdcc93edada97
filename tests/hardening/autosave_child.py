"""The process the crash-safety test kills: a bot game autosaving after every choice.

Run as ``python -m tests.hardening.autosave_child SCENARIO SEED SAVE``. It prints
``ready`` once the game has started and its first save is on disk, then one line with the
number of choices after each choice is confirmed — that is, after `Game.choose` returned,
which is after the autosave listener wrote the file. The killer reads these lines: every
number printed is a choice the save on disk must still hold.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.bot import RandomBot
from engine.game import Game
from engine.save import autosave
from engine.scenario import load_scenario


def main(argv: list[str]) -> None:
    """Play and autosave until the game ends (or the process is killed)."""
    scenario_path, seed, save_path = Path(argv[0]), int(argv[1]), Path(argv[2])
    game = Game(load_scenario(scenario_path), seed)
    autosave(game, save_path)
    print("ready", flush=True)
    bot = RandomBot(seed)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
        print(len(game.choices), flush=True)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
