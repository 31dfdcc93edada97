"""Threat and sight (issue 15): Normal Move and charge reach, and the enemies that see or
can charge a model, from the Kill Team rules' own move, charge and sight functions."""

from __future__ import annotations

from engine.board import Cell
from tests.rulesets.threats import SCENARIOS, no_threat, threat_at

SCENARIO = SCENARIOS / "killteam-crossroads.toml"

POSITION = f"""scenario = "{SCENARIO.name}"
round = 1
phase = "Movement"
[killteam]
[[killteam.models]]
player = 1
datasheet = "trooper"
cell = [8, 6]
[[killteam.models]]
player = 1
datasheet = "trooper"
cell = [20, 5]
[[killteam.models]]
player = 2
datasheet = "brute"
cell = [12, 14]
[[killteam.models]]
player = 2
datasheet = "brute"
cell = [6, 17]
"""


def test_a_trooper_moves_six_inches_and_charges_the_brutes_in_reach() -> None:
    threat = threat_at(POSITION, "A1")
    assert Cell(14, 6) in threat.move and Cell(15, 6) not in threat.move  # M 6"
    assert Cell(8, 6) in threat.move  # staying is a move of 0
    # A charge ends within 1" of a brute: next to B1 at (12,14), never on it.
    assert Cell(12, 13) in threat.charge and Cell(12, 14) not in threat.charge
    assert not threat.charge & threat.move


def test_the_brutes_see_or_charge_the_trooper_with_cover_from_each() -> None:
    threat = threat_at(POSITION, "A1")
    by_id = {m.model: m for m in threat.menaces}
    assert set(by_id) == {"B1", "B2"}
    # A wall hides A1 from B1, but B1 can charge round it.
    assert not by_id["B1"].sees and by_id["B1"].reaches
    # B2 sees A1 past the barricade at (5-8, 7): obscured, and that terrain is within 1".
    assert by_id["B2"].sees and by_id["B2"].cover == "obscured: -1 to hit, -1 to injure"


def test_out_of_reach_the_trooper_is_only_seen() -> None:
    threat = threat_at(POSITION, "A2")
    assert [(m.model, m.sees, m.reaches) for m in threat.menaces] == [("B2", True, False)]
    assert not threat.charge  # no brute within 12"
    assert no_threat(POSITION, "nobody")
