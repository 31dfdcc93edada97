"""Apocalypse positions: bad ones are refused naming the key and why (issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.position import PositionError, parse_position

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"

GOOD = """
scenario = "apocalypse-crossing.toml"
round = 2
phase = "{phase}"

[apocalypse]
initiative = 1

[[apocalypse.detachments]]
player = 1
name = "Legion Cohort"
units = [
  {{ datasheet = "legion_captain", commander = true, cell = [2, 2] }},
  {{ datasheet = "legion_line_squad", cell = {squad}, states = {states} }},
]

[[apocalypse.detachments]]
player = 2
name = "Horde Mob"
units = [{{ datasheet = "horde_warboss", commander = true, cell = [40, 28] }}]
"""


def _start(phase: str = "Damage", squad: str = "[5, 2]", states: str = "[]") -> Game:
    text = GOOD.format(phase=phase, squad=squad, states=states)
    position = parse_position(text, "test.toml", base=SCENARIOS)
    return Game(position.scenario, 0, position=position)


def test_a_good_position_starts_at_its_phase() -> None:
    game = _start(states='["moved"]')
    phases = [(e.round, e.get("phase")) for e in game.events if e.kind == "PhaseStarted"]
    assert phases[:3] == [(2, "Damage"), (2, "End of turn"), (3, "Initiative")]
    assert game.pending is not None and "order" in game.pending.prompt.lower()


def test_overlapping_units_are_refused() -> None:
    # The squad is 2 x 2: anchored at (1, 1) it covers the captain's cell (2, 2).
    with pytest.raises(PositionError, match=r"detachments\[0\]\.units\[1\]\.cell.*overlap"):
        _start(squad="[1, 1]")


def test_an_unknown_state_is_refused() -> None:
    with pytest.raises(PositionError, match=r"units\[1\]\.states.*'pinned'"):
        _start(states='["pinned"]')


def test_an_unknown_phase_is_refused() -> None:
    with pytest.raises(PositionError, match=r"key 'phase'.*'Shooting'"):
        _start(phase="Shooting")


def test_an_order_before_the_orders_phase_is_refused() -> None:
    text = GOOD.format(phase="Initiative", squad="[5, 2]", states="[]").replace(
        'name = "Legion Cohort"', 'name = "Legion Cohort"\norder = "ASSAULT"'
    )
    position = parse_position(text, "test.toml", base=SCENARIOS)
    with pytest.raises(PositionError, match=r"detachments\[0\]\.order"):
        Game(position.scenario, 0, position=position)


def test_resources_hands_by_id_and_by_count() -> None:
    text = GOOD.format(phase="Damage", squad="[5, 2]", states="[]").replace(
        "round = 2", "round = 5"
    )
    text += """
[[apocalypse.sides]]
vp = 3
hand = ["ambush", "ambush"]
discard = ["hold_the_line#1"]

[[apocalypse.sides]]
vp = 1
hand = 3
"""
    position = parse_position(text, "test.toml", base=SCENARIOS)
    game = Game(position.scenario, 0, position=position)
    one, two = (dict(side.resources) for side in game.view().sides)
    assert one["Assets"] == "2 in hand, 17 in deck"
    assert one["Discards"] == "Hold the Line"
    assert two["Assets"].endswith("17 in deck")
    assert [side.score for side in game.view().sides] == [3, 1]


def test_games_from_an_action_position_end_and_replay() -> None:
    text = GOOD.format(phase="Action", squad="[5, 2]", states="[]").replace(
        'name = "Legion Cohort"', 'name = "Legion Cohort"\norder = "AIMED_FIRE"'
    )
    text += '\n[[apocalypse.sides]]\nhand = 3\n\n[[apocalypse.sides]]\nhand = ["smoke_screen"]\n'
    position = parse_position(text, "test.toml", base=SCENARIOS)
    for seed in range(3):
        game = Game(position.scenario, seed, position=position)
        for step in range(3000):
            if game.pending is None:
                break
            keys = game.pending.keys()
            game.choose_key(keys[(seed * 7 + step) % len(keys)])
        assert game.pending is None
        assert game.replayed(game.choices).ruleset.snapshot() == game.ruleset.snapshot()


def test_passengers_ride_in_their_transport() -> None:
    text = GOOD.format(phase="Damage", squad="[5, 2]", states="[]").replace(
        '{ datasheet = "legion_line_squad", cell = [5, 2], states = [] }',
        '{ datasheet = "legion_carrier", cell = [5, 2] },\n'
        '  { datasheet = "legion_line_squad", embarked = "A2" }',
    )
    position = parse_position(text, "test.toml", base=SCENARIOS)
    game = Game(position.scenario, 0, position=position)
    squad = game.view().model("A3")
    assert squad is not None and "embarked in Legion Carrier" in squad.states
    carrier = game.view().model("A2")
    assert carrier is not None and f"carrying {squad.name}" in carrier.states
    bad = text.replace('embarked = "A2"', 'embarked = "A1"')
    position = parse_position(bad, "test.toml", base=SCENARIOS)
    with pytest.raises(PositionError, match=r"units\[2\]\.embarked"):
        Game(position.scenario, 0, position=position)
