"""The ruleset as a whole: scenario checks, setup decisions, views, a full game
(digest fatigue §4, §7 #1-#3, §12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.errors import ScenarioError
from engine.game import Game
from engine.rulesets.fatigue import Fatigue
from engine.rulesets.fatigue.profiles import Psych
from engine.scenario import load_scenario, parse_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"
CROSSROADS = SCENARIOS / "fatigue-crossroads.toml"
SPAN = SCENARIOS / "fatigue-broken-span.toml"


def edited(old: str, new: str, path: Path = CROSSROADS) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    return text.replace(old, new, 1)


def load(text: str) -> Fatigue:
    return Fatigue(parse_scenario(text, "<edited>"))


def test_the_shipped_forces_match_section_12() -> None:
    """§12.1-§12.2: 125 points, 9 and 8 models, FP 7 each, Hatred and Giant Leap data."""
    ruleset = Fatigue(load_scenario(CROSSROADS))
    wardens, ashfang = ruleset.setup.forces
    assert (wardens.points, wardens.model_count) == (125, 9)
    assert (ashfang.points, ashfang.model_count) == (125, 8)
    scavs = ashfang.units[1]
    assert scavs.hates == ("WARDENS",)
    brute = ashfang.units[2]
    assert brute.giant_leap == 3 and brute.has(Psych.FEAR) and brute.has(Psych.STUPIDITY)
    assert brute.models[0].melee.damage == 0  # D2


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('keywords = ["frenzy"]', 'keywords = ["berserk"]', "unknown keyword"),
        ("points = 35\nfp = 2\nkeywords", "points = 36\nfp = 2\nkeywords", "over 125"),
        (
            'name = "Tunnel Brute"\nglyph = "T"',
            'name = "Tunnel Brute"\nglyph = "T"\nleader = true',
            "Leader",
        ),
        ('zones = ["South", "North"]', 'zones = ["South", "East"]', "fatigue.zones"),
        ("misfires = true", "misfire = true", "module switch"),
        (
            'abilities = ["whirlwind_of_steel", "rallying_voice"]',
            'abilities = ["fireball"]',
            "unknown ability",
        ),
        ("M = 4\nR = 4", "M = 40\nR = 4", "fatigue.forces[1].units[2].models[0].M"),
    ],
)
def test_bad_scenario_data_names_the_key(old: str, new: str, message: str) -> None:
    """Scenario errors name the file and key (§4.1 roster rules, STYLE)."""
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load(edited(old, new))


def test_players_pick_forces_when_more_are_offered() -> None:
    """Decision point 1: with three forces each player picks one."""
    game = Game(load_scenario(SPAN), seed=3)
    decision = game.pending
    assert decision is not None and "choose your force" in decision.prompt
    assert len(decision.options) == 3
    game.choose_key("2")
    game.choose_key("0")
    ruleset = game.ruleset
    assert isinstance(ruleset, Fatigue)
    assert ruleset.state.sides[0].force == "Ashfang Dread Host"
    assert any(u.has(Psych.TERROR) for u in ruleset.state.units_of(0))


def test_deployment_offers_edges_units_and_camouflage() -> None:
    """Decision points 2-3: the roll-off winner picks an edge; whole units in turn;
    CAMOUFLAGE units may deploy forward; models stay in the zone and in coherency."""
    game = Game(load_scenario(CROSSROADS), seed=1)
    assert game.pending is not None and "edge" in game.pending.prompt
    game.choose_key("South")
    prompts: list[str] = []
    while game.pending is not None and game.view().phase == "Deployment":
        decision = game.pending
        prompts.append(decision.prompt)
        if "forward" in decision.prompt:
            game.choose_key("yes")
        else:
            game.choose_key(decision.options[0].key)
    assert any("forward" in p for p in prompts)
    ruleset = game.ruleset
    assert isinstance(ruleset, Fatigue)
    longguns = next(u for u in ruleset.state.units.values() if u.name == "Relic Longguns")
    assert longguns.camouflaged
    view = game.view()
    assert all(m.cell is not None for m in view.models)
    # The chosen force is the side's own name here: the panel gives its size instead.
    assert view.sides[0].name == "Dustroad Wardens"
    assert view.sides[0].resources[0] == ("Force", "9 models")


def test_a_random_game_reaches_a_result() -> None:
    """The whole §5 state machine, played by a seeded bot to a result."""
    for path in (CROSSROADS, SPAN):
        game = Game(load_scenario(path), seed=11)
        bot = RandomBot(11)
        while game.pending is not None:
            game.choose(bot.choose(game.pending))
            assert len(game.choices) < 5000
        assert game.outcome is not None


def test_quick_reference_lists_the_forces_and_tables() -> None:
    text = Fatigue(load_scenario(CROSSROADS)).quick_reference()
    assert "Dustroad Wardens" in text and "Blowback" in text and "Whirlwind of Steel" in text
