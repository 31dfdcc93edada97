"""Threat and sight (issue 15): a model's move and charge reach, and the enemy models that
see it (with its cover save from each) or can charge its unit, from the wh40k6 rules' own
path, charge and sight functions."""

from __future__ import annotations

from engine.board import Cell
from tests.rulesets.threats import SCENARIOS, threat_at

SCENARIO = SCENARIOS / "wh40k6-open-war.toml"

POSITION = f"""scenario = "{SCENARIO.name}"
round = 2
phase = "Movement"

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{{ cell = [30, 10] }}, {{ cell = [31, 10] }}]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{{ cell = [30, 18] }}, {{ cell = [31, 18] }}]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{{ cell = [36, 30] }}]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{{ cell = [30, 14] }}]
"""


def test_a_warden_moves_six_inches_and_charges_into_base_contact() -> None:
    threat = threat_at(POSITION, "A1.1")
    assert Cell(24, 10) in threat.move and Cell(23, 10) not in threat.move  # infantry 6"
    assert Cell(30, 15) not in threat.move  # beside B3.1, closer than 1": not a move end
    # A charge ends in base contact: above B3.1 at (30,14), or beside the mob at y 18.
    assert Cell(30, 15) in threat.charge and Cell(30, 18) not in threat.charge


def test_the_horde_sees_the_warden_through_its_own_models_and_can_charge() -> None:
    threat = threat_at(POSITION, "A1.1")
    by_id = {m.model: m for m in threat.menaces}
    # B2.1 is behind the rock in the middle of the table: it neither sees nor reaches.
    assert set(by_id) == {"B1.1", "B1.2", "B3.1"}
    # B3.1 stands in the line from B1.1: a model of another unit gives a 5+ cover save.
    assert by_id["B1.1"].cover == "5+ cover save" and by_id["B3.1"].cover == ""
    assert all(m.sees and m.reaches for m in threat.menaces)
