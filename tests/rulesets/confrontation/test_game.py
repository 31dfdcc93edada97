"""Whole games: secret decks, the end of the game, seeded playouts.

Digest confrontation §4.4, §5, §6.2.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.decisions import DecisionKind
from engine.game import Game
from engine.rulesets.confrontation.damage import remove_dead
from engine.rulesets.confrontation.state import GameOver
from engine.scenario import load_scenario, parse_scenario
from tests.rulesets.confrontation.table import Table

SCENARIO = Path(__file__).parents[3] / "scenarios" / "confrontation-crossing.toml"

DUEL = """
name = "Duel"
ruleset = "confrontation"
description = "One fighter each on a small field."
rounds = 6
sides = ["North men", "South men"]
[map]
rows = ["......", "......", "......", "......", "......", "......"]
[[zones]]
name = "S"
y = [0, 1]
[[zones]]
name = "N"
y = [4, 5]
[confrontation]
zones = ["S", "N"]
[[confrontation.profiles]]
id = "hero"
name = "Hero"
glyph = "H"
hero = true
mov = 10
ini = 4
att = 4
str = 6
def = 3
res = 3
aim = 3
dis = 3
ap = 30
weapon = { name = "Knives", str = 3, ranges = [10, 20, 30] }
[[confrontation.forces]]
cards = [{ id = "A1", profile = "hero" }]
[[confrontation.forces]]
cards = [{ id = "B1", profile = "hero" }]
"""


def test_deck_stacking_is_secret() -> None:
    """§6.2 step 2: hidden ORDER Decisions; the opponent sees a count, then reveals only."""
    game = Game(load_scenario(SCENARIO), 7)
    first = game.pending
    assert first is not None and first.hidden and first.kind is DecisionKind.ORDER
    assert first.player == 0
    while game.pending is not None and game.pending.hidden:
        game.choose_key(game.pending.options[-1].key)
    stacked = [e for e in game.events if e.kind == "DeckStacked"]
    assert [e.get("private") for e in stacked] == [True, True]
    assert all("A2" not in e.text and "B3" not in e.text for e in stacked)
    sides = game.view().sides
    assert dict(sides[0].resources)["Cards face down"] == "3"
    assert dict(sides[1].resources)["Revealed"] == "-"


def test_only_deck_stacking_is_hidden() -> None:
    """D4/D8 are the only secret Decisions; everything else is played in the open."""
    game = Game(load_scenario(SCENARIO), 3)
    bot = RandomBot(3)
    seen = 0
    while game.pending is not None and len(game.choices) < 300:
        secret = game.pending.prompt.startswith("Secretly stack")
        assert game.pending.hidden is secret
        seen += secret
        game.choose(bot.choose(game.pending))
    assert seen >= 8  # two stackings at deployment, two per round


def test_the_last_death_ends_the_game_at_once() -> None:
    """§4.4 (A34): the moment a side has no fighter left."""
    t = Table()
    victim = t.add(1, (5, 5))
    t.add(0, (2, 2))
    with pytest.raises(GameOver) as over:
        remove_dead(t.state, t.ctx, victim)
    assert over.value.loser == 1


@pytest.mark.parametrize("seed", range(1, 9))
def test_duels_end_with_a_result(seed: int) -> None:
    game = Game(parse_scenario(DUEL, "duel.toml"), seed)
    bot = RandomBot(seed)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
        assert len(game.choices) < 3000
    assert game.outcome is not None
    if game.outcome.winner is not None and "no fighter left" in game.outcome.reason:
        assert game.view().phase == "Game over"
        assert game.outcome.scores[game.outcome.winner] == 30
