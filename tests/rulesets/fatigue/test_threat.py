"""Threat and sight (issue 15): where a model can walk and attack, and the enemy models
that see it (with cover) or whose unit can attack its unit, from the fatigue rules' own
reach, contact and sight functions."""

from __future__ import annotations

from engine.board import Cell
from tests.rulesets.threats import SCENARIOS, threat_at

SCENARIO = SCENARIOS / "fatigue-crossroads.toml"

POSITION = f"""scenario = "{SCENARIO.name}"
round = 2
phase = "Activations"

[fatigue]
initiative = 1

[[fatigue.units]]
player = 1
unit = "Road Spears"
cells = [[8, 14], [9, 14], [10, 14]]

[[fatigue.units]]
player = 2
unit = "Scav Pack"
cells = [[8, 19], [9, 19]]

[[fatigue.units]]
player = 2
unit = "Scav Pack"
cells = [[13, 19], [13, 20]]
"""


def test_a_spearman_walks_four_and_attacks_next_to_the_pack() -> None:
    threat = threat_at(POSITION, "A3")
    assert threat.charge_word == "attack"
    assert Cell(14, 14) in threat.move and Cell(15, 14) not in threat.move  # mobility 4
    # A MOVE may not end next to an enemy; an ATTACK ends there.
    assert Cell(10, 18) not in threat.move
    assert threat.charge == {Cell(9, 18), Cell(10, 18)}


def test_the_scavengers_see_the_spearman_in_the_rubble_or_attack_round_the_wall() -> None:
    threat = threat_at(POSITION, "A1")  # in the rubble at (7-9, 14-15)
    seen = {(m.model, m.sees, m.reaches, m.cover) for m in threat.menaces}
    assert seen == {
        ("B1", True, True, "in cover: -1 to hit"),
        ("B2", True, True, "in cover: -1 to hit"),
        # The ruin wall at (12, 18-19) hides A1 from the second pack; it can still attack.
        ("B3", False, True, ""),
        ("B4", False, True, ""),
    }
