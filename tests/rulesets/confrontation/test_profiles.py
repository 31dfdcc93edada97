"""Army points, profiles and the §12 scenario (digest confrontation §4.1, §12; §9 E3, E4, X17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.board import Cell, Terrain
from engine.errors import ScenarioError
from engine.rulesets.confrontation import Confrontation
from engine.rulesets.confrontation.profiles import effective_ap
from engine.scenario import load_scenario, parse_scenario

SCENARIO = Path(__file__).parents[3] / "scenarios" / "confrontation-crossing.toml"


def test_cost_of_a_regular_fighter_with_skills_and_a_special_card() -> None:
    """Digest confrontation §9 E3: 38 AP, 4 skills, 1 special card -> 22 AP."""
    assert effective_ap(38, hero=False, skills=4, special_cards_without_cost=1) == 22


def test_cost_with_steam_equipment() -> None:
    """Digest confrontation §9 E4: 32 AP, 2 steam elements, 3 skills -> 13 AP."""
    assert effective_ap(32, hero=False, skills=3, equipment=(("steam", 2),)) == 13


def test_cost_of_a_hero() -> None:
    """Digest confrontation §9 X17: hero 40 AP with 2 skills -> 28 AP."""
    assert effective_ap(40, hero=True, skills=2) == 28


def test_the_crossing_scenario_builds_the_forces_of_section_12() -> None:
    """§12.1-§12.2: 36 x 36 cells, symmetric terrain, 94 and 98 AP."""
    game = Confrontation(load_scenario(SCENARIO))
    s = game.state
    assert (s.board.width, s.board.height) == (36, 36)
    for cell in s.board.cells():
        mirror = Cell(35 - cell.x, 35 - cell.y)
        assert s.board.kind(cell) is s.board.kind(mirror)
    assert s.board.kind(Cell(8, 16)) is Terrain.BLOCKING
    assert s.board.kind(Cell(13, 9)) is Terrain.IMPASSABLE  # low wall: sight passes
    assert sum(f.profile.ap for f in s.fighters_of(0)) == 94
    assert sum(f.profile.ap for f in s.fighters_of(1)) == 98
    assert [c for c in s.side(1).cards] == ["B1", "B2", "B3", "B4"]
    grish = s.fighters["B1"]
    assert grish.profile.mov == 5 and grish.profile.weapon is not None
    assert grish.profile.weapon.ranges == (4, 8, 12)
    assert s.rounds == 10
    assert "Wound table" in game.quick_reference()


def _with(replace: str, by: str) -> str:
    return SCENARIO.read_text(encoding="utf-8").replace(replace, by, 1)


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        ('profile = "aldric", count = 1', 'profile = "aldric", count = 2', "heroes alone"),
        ('profile = "spearman", count = 3', 'profile = "spearman", count = 4', "1-3 fighters"),
        ("budget = 100", "budget = 90", "over the budget"),
        ('profile = "slinger"', 'profile = "nobody"', "unknown profile"),
        ('mov = "12.5"', "mov = 12.5", "cm"),
        ('zones = ["South", "North"]', 'zones = ["South", "East"]', "confrontation.zones"),
        ('size = "small"', 'size = "tiny"', "size"),
    ],
)
def test_bad_scenarios_name_the_key(replace: str, by: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        Confrontation(parse_scenario(_with(replace, by), "bad.toml"))
