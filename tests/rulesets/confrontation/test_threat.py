"""Threat and sight (issue 15): a fighter's walk and charge reach, and the enemies that
see it (front half and line of sight) or can charge it, from the Confrontation rules' own
move and sight functions."""

from __future__ import annotations

from engine.board import Cell
from tests.rulesets.threats import SCENARIOS, threat_at

SCENARIO = SCENARIOS / "confrontation-crossing.toml"

POSITION = f"""scenario = "{SCENARIO.name}"
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


def test_a_spearman_walks_four_cells_and_charges_into_edge_contact() -> None:
    threat = threat_at(POSITION, "A7")
    assert Cell(16, 12) in threat.move and Cell(17, 12) not in threat.move  # MOV 4
    # A charge (2 x MOV) ends in edge contact with B1 at (12,15), even behind it.
    assert threat.charge == {Cell(11, 15), Cell(13, 15), Cell(12, 14), Cell(12, 16)}


def test_only_the_grish_facing_the_spearman_in_sight_threatens_it() -> None:
    threat = threat_at(POSITION, "A7")
    # B2 faces away (north); B3 is behind the ruins at (8-9, 16-19).
    assert [(m.model, m.sees, m.reaches, m.cover) for m in threat.menaces] == [
        ("B1", True, True, "")
    ]
    b2 = threat_at(POSITION, "B2")
    assert [m.model for m in b2.menaces if m.sees] == ["A7"]
