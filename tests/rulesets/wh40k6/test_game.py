"""Game length, setup steps, objectives and victory points (digest wh40k6 §4, §9 TC-23)."""

from __future__ import annotations

import random
from pathlib import Path

from engine.board import Cell
from engine.decisions import Choice
from engine.footprints import Rect
from engine.game import Game
from engine.rulesets.wh40k6 import maps
from engine.rulesets.wh40k6.objectives import legal_marker_cells
from engine.rulesets.wh40k6.scoring import controller, linebreaker, score, sudden_death
from engine.rulesets.wh40k6.setup import choose_mission, seize_the_initiative
from engine.rulesets.wh40k6.turn import another_turn
from engine.scenario import load_scenario
from tests.rulesets.wh40k6.table import Table

SCENARIOS = Path(__file__).parents[3] / "scenarios"


def test_tc23_game_length() -> None:
    """TC-23: after turn 5 a 2 ends the game and a 3 goes on; after turn 6 a 3 ends it and
    a 4 goes on; turn 7 is always the last."""
    table = Table([2, 3, 3, 4])
    assert not another_turn(table.state, table.ctx, 5)
    assert another_turn(table.state, table.ctx, 5)
    assert not another_turn(table.state, table.ctx, 6)
    assert another_turn(table.state, table.ctx, 6)
    assert not another_turn(table.state, table.ctx, 7)
    assert another_turn(table.state, table.ctx, 4)
    assert table.dice.unused == 0
    # the dice line names the turn once: "for game length after turn 5: 2 vs 3+ (after turn 5)"
    assert [f"{r.reason}: {r.result()}" for r in table.dice.rolls[:2]] == [
        "game length: 2 vs 3+ (after turn 5): ends",
        "game length: 3 vs 3+ (after turn 5): goes on",
    ]


def test_seize_the_initiative_on_a_six() -> None:
    """§4.10: the second deployer rolls a D6 and takes the first turn on a 6."""
    table = Table([6])
    table.state.first_deployer = 0
    table.run(seize_the_initiative(table.state, table.ctx), ["yes"])
    assert table.state.first_player == 1
    table = Table([5])
    table.run(seize_the_initiative(table.state, table.ctx), ["yes"])
    assert table.state.first_player == 0


def test_mission_agreed_or_rolled() -> None:
    """D1: a proposal both players agree on is played; a refusal means rolling a D6."""
    table = Table()
    table.run(choose_mission(table.state, table.ctx, "choose"), ["2", "yes"])
    assert table.state.mission == 2
    table = Table([(4, "mission")])
    table.run(choose_mission(table.state, table.ctx, "choose"), ["2", "no"])
    assert table.state.mission == 4


def test_deployment_zones_of_the_three_maps() -> None:
    """§4.3: Dawn of War y <= 11 / y >= 36; Hammer and Anvil x <= 23 / x >= 48; Vanguard
    Strike more than 12" from the diagonal."""
    south = maps.zone("south", 72, 48)
    assert max(c.y for c in south) == 11 and len(south) == 72 * 12
    assert min(c.y for c in maps.zone("north", 72, 48)) == 36
    assert max(c.x for c in maps.zone("west", 72, 48)) == 23
    assert min(c.x for c in maps.zone("east", 72, 48)) == 48
    corner = maps.zone("south-east", 72, 48)
    assert Cell(71, 0) in corner and Cell(36, 24) not in corner
    assert min(c.x for c in corner if c.y == 0) == 22  # about 21.6" from the corner
    assert maps.EDGES["south-east"] == ("south", "east")


def test_objective_restrictions() -> None:
    """§4.6: not within 6" of an edge, more than 12" from another marker."""
    table = Table(rows=["." * 40] * 30)
    cells = legal_marker_cells(table.state)
    assert all(6 <= c.x <= 33 and 6 <= c.y <= 23 for c in cells)
    table.state.objectives.append(Cell(10, 10))
    assert Cell(22, 10) not in legal_marker_cells(table.state)
    assert Cell(23, 10) in legal_marker_cells(table.state)


def test_objective_control_scoring_and_denial() -> None:
    """§4.6: a scoring unit within 3" controls unless an enemy scoring or denial unit is too."""
    table = Table()
    table.add(0, "warden_squad", [(10, 10)])
    marker = Rect(12, 10, 12, 10)
    assert controller(table.state, marker) == 0
    table.add(1, "scrap_walker", [(14, 9)])
    assert controller(table.state, marker) is None


def test_secondary_objectives_and_sudden_death() -> None:
    """§4.2: Linebreaker for a unit in the enemy zone; §4.12 sudden death."""
    table = Table()
    table.add(0, "warden_squad", [(10, 18)])
    table.state.sides[1].zone = frozenset({Cell(10, 18)})
    assert linebreaker(table.state, 0)
    assert sudden_death(table.state) is not None
    table.add(1, "horde_mob", [(20, 5)])
    assert sudden_death(table.state) is None
    assert score(table.state, table.ctx) == (1, 0)


def test_a_random_game_of_each_scenario_ends() -> None:
    """The registered ruleset plays both scenarios to a result with random choices."""
    for path in sorted(SCENARIOS.glob("wh40k6-*.toml")):
        scenario = load_scenario(path)
        game = Game(scenario, 11)
        pick = random.Random(11)
        while game.pending is not None:
            game.choose(Choice(game.pending.id, pick.choice(game.pending.options).key))
        assert game.outcome is not None
        assert game.ruleset.quick_reference().startswith("# Warhammer 40,000")
