"""Write the committed replays: one bot game per ruleset, with fixed seeds.

Run ``.venv/bin/python tests/replays/make.py`` after an intended change to a ruleset's
rules or events: the viewer tests re-verify these files, so an engine that no longer
reproduces them fails there (PRIOR-ART §7.5, golden replays). Each game is a
`engine.bot.RandomBot` game on a shipped scenario, chosen short (a few hundred choices at
most) but long enough for several rounds.
"""

from __future__ import annotations

from pathlib import Path

from engine.bot import RandomBot
from engine.game import Game
from engine.save import write_save
from engine.scenario import load_scenario

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

GAMES = (
    ("killteam", "killteam-crossroads.toml", 21),
    ("confrontation", "confrontation-muster.toml", 3),
    ("apocalypse", "apocalypse-crossing.toml", 8),
    ("fatigue", "fatigue-broken-span.toml", 9),
    ("wh40k6", "wh40k6-emperors-will.toml", 8),
)
"""(ruleset name, scenario file, seed): the file is ``<ruleset>.wargrid``."""


def play(scenario_file: str, seed: int) -> Game:
    """A whole bot game; the dice and the bot share the seed."""
    game = Game(load_scenario(ROOT / "scenarios" / scenario_file), seed, players=("Ann", "Bob"))
    bot = RandomBot(seed)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
    return game


def path_of(ruleset: str) -> Path:
    """Where the replay of ``ruleset`` is committed."""
    return HERE / f"{ruleset}.wargrid"


def main() -> None:
    for ruleset, scenario_file, seed in GAMES:
        game = play(scenario_file, seed)
        write_save(game, path_of(ruleset))
        path_of(ruleset).chmod(0o644)  # saves are private (0600); these are public data
        size = path_of(ruleset).stat().st_size
        print(f"{path_of(ruleset).name}: {len(game.choices)} choices, {size:,} bytes")


if __name__ == "__main__":
    main()
