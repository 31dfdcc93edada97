"""Threat and sight (issue 15): a unit's Move reach, and the enemy units that see it or
can move into base contact, from the Apocalypse rules' own reach and sight functions."""

from __future__ import annotations

from engine.board import Cell
from tests.rulesets.threats import SCENARIOS, threat_at

SCENARIO = SCENARIOS / "apocalypse-crossing.toml"

POSITION = f"""scenario = "{SCENARIO.name}"
round = 1
phase = "Orders"

[apocalypse]
initiative = 1

[[apocalypse.detachments]]
player = 1
name = "Legion Cohort"
units = [
  {{ datasheet = "legion_captain", commander = true, cell = [2, 2] }},
  {{ datasheet = "legion_line_squad", cell = [10, 6] }},
]

[[apocalypse.detachments]]
player = 2
name = "Horde Mob"
units = [
  {{ datasheet = "horde_warboss", commander = true, cell = [40, 28] }},
  {{ datasheet = "horde_brute_mob", cell = [13, 13] }},
  {{ datasheet = "horde_brute_mob", cell = [16, 22] }},
]
"""


def test_a_line_squad_moves_six_inches_and_has_no_charge() -> None:
    threat = threat_at(POSITION, "A2")
    assert Cell(16, 6) in threat.move and Cell(17, 6) not in threat.move  # M 6"
    assert not threat.charge and threat.charge_word == ""
    # Any cell of the footprint names the unit (its parts are "A2~n" in the view).
    assert threat_at(POSITION, "A2~3") == threat


def test_enemies_that_see_or_can_reach_the_squad_with_its_cover() -> None:
    threat = threat_at(POSITION, "A2")
    by_id = {m.model: m for m in threat.menaces}
    # B3 is behind the impassable block (15-17, 18-20): it neither sees nor reaches.
    assert set(by_id) == {"B1", "B2"}
    # The Warboss far north sees the squad past the ruins: obscured.
    assert by_id["B1"].sees and not by_id["B1"].reaches
    assert by_id["B1"].cover == "obscured: -1 to hit"
    # The Brute Mob (M 5) is 5" from contact, in the open.
    assert by_id["B2"].sees and by_id["B2"].reaches and by_id["B2"].cover == ""
    assert by_id["B2"].cells == {Cell(13, 13), Cell(14, 13), Cell(13, 14), Cell(14, 14)}
