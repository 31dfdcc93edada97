"""Objective scoring shared by Kill Team, Apocalypse and fatigue: the seat with more there
gains 1 VP, a tie scores nothing; every ruleset's game logs it the same way."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

import engine
from engine.bot import RandomBot
from engine.dice import Dice
from engine.events import Event
from engine.game import Game
from engine.objectives import score_majority
from engine.ruleset import RuleContext
from engine.scenario import load_scenario

SCENARIOS = Path(engine.__file__).parent / "scenarios"


@dataclass
class Side:
    name: str
    vp: int = 0


def test_the_seat_with_more_scores_and_a_tie_scores_nothing() -> None:
    events: list[Event] = []
    ctx = RuleContext(Dice.scripted([]), events.append)
    sides = (Side("Red Guards"), Side("Blue Warboss", vp=2))
    score_majority(ctx, "O1", (2, 2), sides.__getitem__)
    score_majority(ctx, "O1", (1, 3), sides.__getitem__)
    score_majority(ctx, "O2", (4, 0), sides.__getitem__)
    assert [e.text for e in events] == [
        "Blue Warboss controls O1: +1 VP (3 VP)",
        "Red Guards control O2: +1 VP (1 VP)",
    ]
    assert [(e.get("player"), e.get("vp")) for e in events] == [(1, 3), (0, 1)]
    assert (sides[0].vp, sides[1].vp) == (1, 3)


@pytest.mark.parametrize(
    "scenario", ["killteam-crossroads.toml", "apocalypse-crossing.toml", "fatigue-broken-span.toml"]
)
def test_each_rulesets_objective_points_add_up_to_its_final_score(scenario: str) -> None:
    """Every VP a side ends with that came from objectives is a logged +1."""
    for seed in range(6):
        game = Game(load_scenario(SCENARIOS / scenario), seed)
        bot = RandomBot(seed)
        while game.pending is not None:
            game.choose(bot.choose(game.pending))
        scored = [e for e in game.events if e.kind == "ObjectiveScored"]
        if scored:
            break
    assert scored, "no seed of six scored an objective"
    assert all(re.fullmatch(r".+ controls? O\d: \+1 VP \(\d+ VP\)", e.text) for e in scored)
    for seat in (0, 1):
        mine = [int(e.get("vp") or 0) for e in scored if e.get("player") == seat]
        assert all(b > a for a, b in pairwise(mine))
