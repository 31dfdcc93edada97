"""The normal Kill Team computer shoots when a shot can hurt and charges when the charge
is likely and its fight worth having (engine.rulesets.killteam.evaluation `judge`,
`needless`), from the odds the engine puts on the options."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.bot.players import make_bot
from engine.decisions import Choice
from engine.game import Game
from engine.position import parse_position
from engine.scenario import parse_scenario
from tests.engine.bot.test_melee_and_rosters import CROSSROADS, no_markers


def model(player: int, datasheet: str, x: int, y: int, states: str = "") -> str:
    """One ``[[killteam.models]]`` entry of a position."""
    extra = f"states = [{states}]\n" if states else ""
    head = f'[[killteam.models]]\nplayer = {player}\ndatasheet = "{datasheet}"\n'
    return head + f"cell = [{x}, {y}]\n{extra}"


def position(text: str, scenario: str) -> Game:
    head = 'scenario = "killteam-crossroads.toml"\n'
    found = parse_position(head + text, "test", scenario=parse_scenario(scenario, "x"))
    game = Game(found.scenario, 1, position=found)
    assert game.pending is not None
    return game


def last_shot() -> Game:
    """Round 4 of 4, Shooting: the Militia lead 2 VP to 0, and their one Trooper, on
    marker 1, is the last model to shoot; two shaken Brutes 7" away cannot shoot back."""
    text = 'round = 4\nphase = "Shooting"\n[killteam]\ninitiative = 1\n'
    text += "[[killteam.sides]]\ncp = 0\nvp = 2\n[[killteam.sides]]\ncp = 0\nvp = 0\n"
    text += model(1, "trooper", 7, 10)
    text += model(2, "brute", 7, 17, '"shaken"') + model(2, "brute", 8, 17, '"shaken"')
    return position(text, CROSSROADS.read_text())


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_last_shot_of_a_won_game_is_fired(seed: int) -> None:
    """Before, passing ended the game a choice sooner than the shot (the target was still
    to pick), and a look-ahead wins soon rather than late: normal passed on every seed.
    Passing reached further in its few choices in mid-game too (the round's objectives
    scored before the shot's dice were played out): 14 of 118 shots passed."""
    game = last_shot()
    pending = game.pending
    assert pending is not None and pending.prompt == "A1 Militia Trooper: fire which weapons?"
    fire = pending.options[0]
    assert fire.key == "others" and fire.odds is not None
    assert fire.odds.unsaved == Fraction(5, 54)  # hit on 5+ (long range), wound 5+, save 6+
    assert make_bot("normal", seed).decide(game).key == "others"


def brute_after_its_team(away: int) -> Game:
    """Round 1, Movement: eight Brutes far north and eight Troopers far south have stood
    still; then the Brute ``away`` inches north of the last Trooper is to act."""
    text = 'round = 1\nphase = "Movement"\n[killteam]\ninitiative = 2\n'
    text += model(1, "trooper", 23, 2) + "".join(model(1, "trooper", x, 0) for x in range(0, 16, 2))
    text += model(2, "brute", 23, 2 + away)
    text += "".join(model(2, "brute", x, 21) for x in range(0, 16, 2))
    game = position(text, no_markers())
    while game.pending is not None and not game.pending.prompt.startswith("B1 "):
        pending = game.pending
        keys = [o.key for o in pending.options if o.key not in ("B1", "end")]
        if pending.prompt == "Movement: choose a model to activate":
            key = keys[0] if keys else "B1"
        else:
            key = "stay"
        game.choose(Choice(pending.id, key))
    return game


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_brute_charges_the_trooper_it_likely_reaches(seed: int) -> None:
    """7" away: 7+ on 2D6 (13/18 with the way round). Before, Charge had no odds and tied
    with moving in the quick worth; with the choices of its team's moves to replay it
    looked ahead on one future each and readied or advanced on seeds 0 and 2."""
    game = brute_after_its_team(7)
    pending = game.pending
    assert pending is not None
    charge = next(o for o in pending.options if o.key == "charge")
    assert charge.odds is not None and charge.odds.chances == (
        ("charge succeeds", Fraction(13, 18)),
    )
    assert charge.model == "A1"
    assert make_bot("normal", seed).decide(game).key == "charge"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_brute_does_not_charge_when_the_charge_is_hopeless(seed: int) -> None:
    """10" away: 5/18, under a third: never declared (the action is spent for nothing)."""
    game = brute_after_its_team(10)
    assert make_bot("normal", seed).decide(game).key != "charge"


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_shot_the_odds_say_cannot_hurt_is_not_fired(level: str) -> None:
    """A Brute's Scrap pistol reaches no trooper 11" away ("hit 0%"): both computers fired
    it anyway, a shot for show a player watched in every game, where passing loses
    nothing."""
    text = 'round = 2\nphase = "Shooting"\n[killteam]\ninitiative = 2\n'
    text += "[[killteam.sides]]\ncp = 0\nvp = 0\n[[killteam.sides]]\ncp = 0\nvp = 0\n"
    game = position(
        text + model(2, "brute", 7, 10) + model(1, "trooper", 7, 21), CROSSROADS.read_text()
    )
    pending = game.pending
    assert pending is not None and pending.prompt == "B1 Reaver Brute: fire which weapons?"
    pistol = pending.option("pistol")
    assert pistol is not None and pistol.odds is not None and pistol.odds.unsaved == 0
    assert {make_bot(level, seed).decide(game).key for seed in range(4)} == {"pass"}
