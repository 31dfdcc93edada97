"""Every shipped scenario's bot game explains its dice: at least 90% of the dice lines in
``wargrid simulate SCENARIO --seed 3 --text`` say what the roll needed, or what a roll
with no threshold was for (issue #15)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine
from engine.bot import RandomBot
from engine.game import Game
from engine.save import read_save, replay, write_save
from engine.scenario import load_scenario
from engine.transcript import transcript

SCENARIOS = sorted((Path(engine.__file__).parent / "scenarios").glob("*.toml"))

DICE_LINE = re.compile(r"^ +roll #\d+ ")
EXPLAINED = re.compile(r": [\d, =]+ (best \d+ )?(vs .+: .+|\(.+\))$")
"""A dice line that names what it needed ("3 vs 6+ (BS 4+, -1 obscured): miss") or what
it was for ("4 (roll-off)")."""


def explained_ratio(path: Path) -> tuple[int, int]:
    """(explained dice lines, dice lines) of the seed-3 bot game, as ``--text`` prints it."""
    game = Game(load_scenario(path), 3, players=("Bot 1", "Bot 2"))
    bot = RandomBot(3)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
    lines = [line for line in transcript(game) if DICE_LINE.match(line)]
    return sum(1 for line in lines if EXPLAINED.search(line)), len(lines)


def test_the_pattern_tells_explained_lines_from_bare_ones() -> None:
    assert EXPLAINED.search("roll #9 Bot 1: 1D6 for hit rolls vs B8: 3 vs 6+ (BS 4+): miss")
    assert EXPLAINED.search("roll #3 Bot 1: 2D6 for charge: 3, 4 = 7 vs 8+ (distance 8): fails")
    assert EXPLAINED.search("roll #1 Bot 1: 1D6 for deployment roll-off: 2 (roll-off)")
    assert EXPLAINED.search("roll #4 Bot 2: 2D6 for defence test: 3, 5 best 5 vs 6+ (DEF): fails")
    assert not EXPLAINED.search("roll #1 Bot 1: 1D6 for hit rolls vs B8: 3")
    assert not EXPLAINED.search("roll #1 Bot 1: 2D6 for difficult terrain for Mob: 3, 4")


def test_every_ruleset_ships_a_scenario() -> None:
    rulesets = {p.stem.split("-")[0] for p in SCENARIOS}
    assert rulesets == {"killteam", "wh40k6", "apocalypse", "confrontation", "fatigue"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_nine_in_ten_dice_lines_say_what_they_needed(path: Path) -> None:
    explained, total = explained_ratio(path)
    assert total > 0
    assert explained >= 0.9 * total, f"{path.stem}: {explained} of {total} dice lines explained"


def test_a_save_keeps_what_each_roll_needed(tmp_path: Path) -> None:
    path = next(p for p in SCENARIOS if p.stem.startswith("killteam"))
    game = Game(load_scenario(path), 3, players=("Bot 1", "Bot 2"))
    bot = RandomBot(3)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
    write_save(game, tmp_path / "game.wargrid")
    data = read_save(tmp_path / "game.wargrid")
    assert [r.reading for r in data.rolls] == [r.reading for r in game.rolls]
    assert any(r.reading and r.reading.chance for r in data.rolls)
    replay(data, verify=True)
