"""Whole games: hidden information stays hidden, scenarios validate, the result is sound."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.errors import ScenarioError
from engine.game import Game
from engine.rulesets.apocalypse.assets import CARDS
from engine.rulesets.apocalypse.ruleset import Apocalypse
from engine.rulesets.apocalypse.state import ORDER_NAMES
from engine.scenario import load_scenario, parse_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"
CROSSING = SCENARIOS / "apocalypse-crossing.toml"
SECRET_PROMPTS = ("Secret order", "play an asset", "Hand limit")


@pytest.mark.parametrize("name", ["apocalypse-crossing.toml", "apocalypse-crossing-big.toml"])
def test_secrets_never_reach_the_view_or_the_log(name: str) -> None:
    """Orders (§6.3.4) and hands (§6.3.3, A11) are hidden Decisions; the shared view and
    the event log show an order only once revealed and a card only once played."""
    scenario = load_scenario(SCENARIOS / name)
    for seed in (1, 2):
        game = Game(scenario, seed)
        bot = RandomBot(seed)
        ruleset = game.ruleset
        assert isinstance(ruleset, Apocalypse)
        while game.pending is not None:
            decision = game.pending
            if any(p in decision.prompt for p in SECRET_PROMPTS):
                assert decision.hidden, decision.prompt
            _assert_view_hides_orders(ruleset)
            game.choose(bot.choose(decision))
        _assert_log_hides_secrets(game)


def _assert_view_hides_orders(ruleset: Apocalypse) -> None:
    state = ruleset.state
    view = ruleset.view()
    for model in view.models:
        unit = state.units.get(model.id.split("~")[0])  # footprint cells: "A1~2"
        shown = [s for s in model.states if s.startswith("order:")]
        if shown:
            assert unit is not None and state.detachment_of(unit).order_revealed
    for side in view.sides:
        text = " ".join(value for label, value in side.resources if label != "Discards")
        assert not any(card.name in text for card in CARDS.values())
        discards = dict(side.resources)["Discards"]
        played = len(state.side(side.player).deck.discard)
        assert (discards == "-") == (played == 0)


def _assert_log_hides_secrets(game: Game) -> None:
    hidden_orders = False
    for event in game.events:
        if event.kind == "OrdersGiven":
            hidden_orders = True
        elif event.kind == "OrdersRevealed":
            hidden_orders = False
        if hidden_orders:
            assert not any(name in event.text for name in ORDER_NAMES.values()), event.text
        if event.kind in ("AssetsDrawn", "InitiativeWon", "OrdersGiven"):
            assert not any(card.name in event.text for card in CARDS.values()), event.text


def test_both_scenarios_load_with_their_rosters() -> None:
    """§12.3: 180 points a side, and 280 with the super-heavy detachments."""
    for name, points, units in (
        ("apocalypse-crossing.toml", 180, 15),
        ("apocalypse-crossing-big.toml", 280, 17),
    ):
        state = Apocalypse(load_scenario(SCENARIOS / name)).state
        assert [s.points for s in state.sides] == [points, points]
        assert len(state.units) == units
        assert len(state.terrain.board.objectives) == 4
        warlords = [u.name for u in state.units.values() if u.is_warlord]
        assert warlords == ["Legion Captain", "Warboss"]


def _broken(old: str, new: str) -> str:
    text = CROSSING.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('datasheet = "legion_carrier"', 'datasheet = "legion_barge"', "unknown datasheet"),
        ("points = 180", "points = 100", "exceed the limit"),
        (
            '{ datasheet = "legion_battle_tank", name = "Battle Tank", commander = true }',
            '{ datasheet = "legion_battle_tank", name = "Battle Tank" }',
            "exactly one unit has commander",
        ),
        ('zones = ["South", "North"]', 'zones = ["South", "East"]', "apocalypse.zones"),
        ('faction = "HORDE"', 'faction = "LEGION"', "one faction per army"),
    ],
)
def test_bad_scenarios_say_what_is_wrong(old: str, new: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        Apocalypse(parse_scenario(_broken(old, new), "broken.toml"))


def test_quick_reference_lists_orders_and_assets() -> None:
    text = Apocalypse(load_scenario(CROSSING)).quick_reference()
    assert "Aimed Fire" in text and "Precision Barrage" in text and "| 7+ |" in text
