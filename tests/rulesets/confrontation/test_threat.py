"""Threat and sight (issue 15): a fighter's walk and charge reach, and the enemies that
see it (front half and line of sight) or can charge it, from the Confrontation rules' own
move and sight functions."""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from engine.game import Game
from engine.position import parse_position

SCENARIO = Path(__file__).parents[3] / "scenarios" / "confrontation-crossing.toml"

POSITION = f"""scenario = "{SCENARIO}"
round = 2
phase = "Combat"
[confrontation]
tactical_winner = 2
[[confrontation.fighters]]
player = 1
profile = "spearman"
card = "A7"
cell = [12, 12]
[[confrontation.fighters]]
player = 2
profile = "grish"
cell = [12, 15]
facing = "S"
[[confrontation.fighters]]
player = 2
profile = "grish"
cell = [14, 24]
facing = "N"
[[confrontation.fighters]]
player = 2
profile = "grish"
cell = [8, 22]
facing = "S"
"""


def game() -> Game:
    position = parse_position(POSITION, "threat.toml")
    return Game(position.scenario, 3, position=position)


def test_a_spearman_walks_four_cells_and_charges_into_edge_contact() -> None:
    threat = game().ruleset.threat("A7")
    assert threat is not None
    assert Cell(16, 12) in threat.move and Cell(17, 12) not in threat.move  # MOV 4
    # A charge (2 x MOV) ends in edge contact with B1 at (12,15), even behind it.
    assert threat.charge == {Cell(11, 15), Cell(13, 15), Cell(12, 14), Cell(12, 16)}


def test_only_the_grish_facing_the_spearman_in_sight_threatens_it() -> None:
    threat = game().ruleset.threat("A7")
    assert threat is not None
    # B2 faces away (north); B3 is behind the ruins at (8-9, 16-19).
    assert [(m.model, m.sees, m.reaches, m.cover) for m in threat.menaces] == [
        ("B1", True, True, "")
    ]
    b2 = game().ruleset.threat("B2")
    assert b2 is not None and [m.model for m in b2.menaces if m.sees] == ["A7"]
