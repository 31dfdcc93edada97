"""Apocalypse positions hold the Warlord and the order of the asset decks (#19)."""

from __future__ import annotations

import pytest

from engine.cards import card_kind
from engine.dice import Dice
from engine.game import Game
from engine.position import PositionError, parse_position
from engine.rulesets.apocalypse.ruleset import Apocalypse
from engine.rulesets.apocalypse.state import ApocState
from tests.rulesets.apocalypse.test_position import GOOD, SCENARIOS


def start(warlord: str = "", sides: str = "", phase: str = "Orders") -> tuple[Game, ApocState]:
    text = GOOD.format(phase=phase, squad="[5, 2]", states="[]")
    text = text.replace(
        "commander = true, cell = [2, 2]", f"commander = true, {warlord}cell = [2, 2]"
    )
    position = parse_position(text + sides, "p.toml", base=SCENARIOS)
    game = Game(position.scenario, 0, position=position)
    assert isinstance(game.ruleset, Apocalypse)
    return game, game.ruleset.state


def drawn(game: Game, player: int) -> int:
    found = [e for e in game.events if e.kind == "AssetsDrawn" and e.get("player") == player]
    return int(found[0].get("drawn"))  # type: ignore[arg-type]


def test_a_character_commander_is_the_warlord_unless_the_position_says_not() -> None:
    """§6.3.3: 1 asset, +1 per Warlord; a Commander by succession is no Warlord (§6.13.2)."""
    game, state = start()
    assert state.units["A1"].is_warlord and drawn(game, 0) == 2
    game, state = start(warlord="warlord = false, ")
    assert not state.units["A1"].is_warlord and drawn(game, 0) == 1


DECK = """
[[apocalypse.sides]]
deck = ["steady_nerves", "fortitude", "ambush"]
hand = 1
"""


def test_the_deck_order_is_kept_and_dealt_from() -> None:
    """The hand of 1 is the top card; the Orders phase draws the next two (Warlord)."""
    game, state = start(sides=DECK)
    hand = [card_kind(c) for c in state.side(0).deck.hand]
    assert hand == ["steady_nerves", "fortitude", "ambush"]
    assert drawn(game, 0) == 2


def test_a_player_gone_quiet_on_assets_stays_quiet() -> None:
    """§6.4.2: "no assets until my next activation" holds into the position."""
    _, state = start(sides="[[apocalypse.sides]]\n[[apocalypse.sides]]\nassets_quiet = true\n")
    assert (state.side(0).assets_quiet, state.side(1).assets_quiet) == (False, True)


@pytest.mark.parametrize(
    ("warlord", "sides", "message"),
    [
        ("warlord = 1, ", "", r"warlord.*only a CHARACTER Commander"),
        ("", '[[apocalypse.sides]]\ndeck = ["no_such_card"]', r"deck.*no card 'no_such_card'"),
        ("", '[[apocalypse.sides]]\ndeck = "ambush"', r"deck.*list of card ids"),
        ("", "[[apocalypse.sides]]\nassets_quiet = 1", r"sides\[0\]\.assets_quiet.*true or false"),
    ],
)
def test_bad_keys_are_refused(warlord: str, sides: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        start(warlord=warlord, sides=sides)


def test_a_squad_cannot_be_the_warlord() -> None:
    text = GOOD.format(phase="Orders", squad="[5, 2]", states="[]").replace(
        "cell = [5, 2], states = []", "cell = [5, 2], warlord = true"
    )
    position = parse_position(text, "p.toml", base=SCENARIOS)
    with pytest.raises(PositionError, match=r"units\[1\]\.warlord"):
        Game(position.scenario, 0, position=position)


DEPLOY = """
scenario = "apocalypse-crossing.toml"
round = 1
phase = "Deployment"

[[apocalypse.detachments]]
player = 1
name = "Legion Cohort"
units = [{ datasheet = "legion_captain", commander = true }, { datasheet = "legion_line_squad" }]

[[apocalypse.detachments]]
player = 2
name = "Horde Mob"
units = [{ datasheet = "horde_warboss", commander = true }]
"""


def test_a_deployment_position_starts_the_game_with_the_roll_off() -> None:
    """§4.3: the D12 roll-off (3 against 9: player 2 wins), then units are placed."""
    position = parse_position(DEPLOY, "p.toml", base=SCENARIOS)
    game = Game(position.scenario, 0, dice=Dice.scripted([3, 9]), position=position)
    assert game.pending is not None and game.pending.player == 1
    assert game.pending.prompt == "You won the deployment roll-off: who deploys first?"
    game.choose_key("first")
    assert game.pending is not None and game.pending.player == 1
    assert game.pending.prompt == "Deploy Horde Warboss (Horde Mob)"
    assert isinstance(game.ruleset, Apocalypse)
    assert game.ruleset.state.units["A1"].location == "UNDEPLOYED"


def test_a_deployment_position_places_nothing_itself() -> None:
    text = DEPLOY.replace(
        '"horde_warboss", commander = true', '"horde_warboss", commander = true, cell = [40, 28]'
    )
    position = parse_position(text, "p.toml", base=SCENARIOS)
    with pytest.raises(PositionError, match=r"units\[0\]\.cell.*its player deploys it"):
        Game(position.scenario, 0, position=position)
