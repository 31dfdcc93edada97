"""Scenario and position keys: unknown ones, confined scenario references, one facing
convention, and bounded lists (issue #18 items 7, 8 and 9)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.errors import ScenarioError
from engine.facing import read_facing
from engine.game import Game
from engine.position import parse_position, position_from_data
from engine.scenario import parse_scenario
from engine.untrusted import MAX_LIST
from tests.rulesets.wh40k6.test_position import RIDERS
from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
TEXT = (SCENARIOS / "killteam-crossroads.toml").read_text()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("rounds = 4", "rouns = 4"), "unknown key 'rouns': did you mean 'rounds'?"),
        (("rounds = 4", "rounds = 4\nroster_bulding = true"), "unknown key 'roster_bulding'"),
        (("[map]", "[wh40k6]\nunits = []\n[map]"), "unknown key 'wh40k6'"),
        (("[map]", "[map]\nrow = []"), "in [map]: unknown key 'row': did you mean 'rows'?"),
        (('name = "South"', 'name = "South"\nwidth = 3'), "in [zones[0]]: unknown key 'width'"),
    ],
)
def test_unknown_scenario_keys_are_named_with_the_closest_known_one(
    edit: tuple[str, str], message: str
) -> None:
    assert edit[0] in TEXT
    with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("?", r"\?")):
        parse_scenario(TEXT.replace(edit[0], edit[1], 1), "s.toml")


POSITION = """scenario = "{scenario}"
round = 1
phase = "Morale"
{extra}
[killteam]
{killteam}
[[killteam.models]]
player = 1
datasheet = "trooper"
cell = [1, 1]
[[killteam.models]]
player = 2
datasheet = "brute"
cell = [5, 20]
"""


def position(scenario: str = "killteam-crossroads.toml", extra: str = "") -> Game:
    text = POSITION.format(scenario=scenario, extra=extra, killteam="")
    found = parse_position(text, "p.toml", base=SCENARIOS)
    return Game(found.scenario, 1, position=found)


def test_a_position_refuses_unknown_keys_and_other_rulesets_tables() -> None:
    position()
    with pytest.raises(ScenarioError, match=r"p\.toml: unknown key 'phse': did you mean 'phase'"):
        position(extra='phse = "Morale"')
    with pytest.raises(ScenarioError, match=r"p\.toml: unknown key 'wh40k6'"):
        position(extra="[wh40k6]\nunits = []")


@pytest.mark.parametrize(
    "ref",
    [
        "/etc/passwd",
        "../../../../etc/hostname",
        "../scenarios/killteam-crossroads.toml",
        "/dev/zero",
        "killteam-crossroads",
        ".hidden.toml",
    ],
)
def test_a_positions_scenario_is_confined_to_scenario_folders(ref: str) -> None:
    with pytest.raises(ScenarioError, match="key 'scenario' must be the file name of a scenario"):
        position(ref)


def test_one_facing_convention_for_every_ruleset() -> None:
    assert [read_facing(d) for d in (0, 45, 90, 315)] == [0, 1, 2, 7]
    assert [read_facing(n) for n in ("N", "NE", "SW")] == [0, 1, 5]
    for bad in (True, 45.0, 50, 360, -45, "north", "ne", None):
        with pytest.raises(ValueError, match=r"compass point .* or degrees clockwise"):
            read_facing(bad)
    text = RIDERS.format(rider="horde_chieftain", transport="B1", models="{}", facing='"NE"')
    found = parse_position(text, "riders.toml", base=SCENARIOS)
    hauler = Game(found.scenario, 0, position=found).view().model("B1.1")
    assert hauler is not None and hauler.facing == 1  # north-east, as 45 degrees is
    text = RIDERS.format(rider="horde_chieftain", transport="B1", models="{}", facing="45.0")
    found = parse_position(text, "riders.toml", base=SCENARIOS)
    with pytest.raises(ScenarioError, match=r"facing': must be a compass point"):
        Game(found.scenario, 0, position=found)  # the ruleset reads its table


def test_lists_beyond_what_any_ruleset_fields_are_refused_at_once() -> None:
    model = '[[killteam.models]]\nplayer = 2\ndatasheet = "brute"\ncell = [5, 20]\n'
    text = (
        POSITION.format(scenario="killteam-crossroads.toml", extra="", killteam="")
        + model * MAX_LIST
    )
    with pytest.raises(ScenarioError, match=f"key 'killteam.models': {MAX_LIST + 2} entries"):
        parse_position(text, "p.toml", base=SCENARIOS)


def test_a_huge_message_is_cut_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / ("x" * 200)
    for _ in range(15):
        deep = deep / ("y" * 200)
    assert main(["replay", str(deep / "missing.wargrid"), "--verify"]) == 2
    err = capsys.readouterr().err
    assert len(err) < 2_200 and "characters)" in err


@pytest.mark.parametrize(
    ("file", "header", "typo", "message"),
    [
        (
            "killteam-crossroads",
            "[killteam]",
            "roster_bulding = true",
            "in [killteam]: unknown key 'roster_bulding': did you mean 'roster_building'?",
        ),
        (
            "killteam-crossroads",
            "[[killteam.forces]]",
            'fation = "militia"',
            "in [killteam.forces[0]]: unknown key 'fation': did you mean 'faction'?",
        ),
        (
            "wh40k6-open-war",
            "[wh40k6]",
            "reserve = true",
            "in [wh40k6]: unknown key 'reserve': did you mean 'reserves'?",
        ),
        (
            "apocalypse-crossing",
            "[[apocalypse.forces.detachments]]",
            'nmae = "x"',
            "in [apocalypse.forces[0].detachments[0]]: unknown key 'nmae': did you mean 'name'?",
        ),
        (
            "confrontation-crossing",
            "[confrontation]",
            "budgt = 100",
            "in [confrontation]: unknown key 'budgt': did you mean 'budget'?",
        ),
        (
            "fatigue-crossroads",
            "[[fatigue.forces.units.models]]",
            "comander = true",
            "in [fatigue.forces[0].units[0].models[0]]: unknown key 'comander': "
            "did you mean 'commander'?",
        ),
        (
            "confrontation-crossing",
            "[[confrontation.profiles]]",
            "atk = 3",
            "in [confrontation.profiles[0]]: unknown key 'atk': did you mean 'att'?",
        ),
        (
            "killteam-crossroads",
            "",
            "[killteam.factions.x.datasheets.y]\nWSS = 3",
            "in [killteam.factions.x.datasheets.y]: unknown key 'WSS': did you mean 'WS'?",
        ),
        (
            "wh40k6-open-war",
            "",
            "[wh40k6.weapons.flamer]\nrnage = 8",
            "in [wh40k6.weapons.flamer]: unknown key 'rnage': did you mean 'range'?",
        ),
    ],
)
def test_a_rulesets_scenario_table_refuses_misspelt_keys(
    file: str, header: str, typo: str, message: str
) -> None:
    """A misspelt key of a ruleset's own table would silently leave its default."""
    text = (SCENARIOS / f"{file}.toml").read_text()
    Game(parse_scenario(text, "s.toml"), 1)
    if header:
        assert f"\n{header}\n" in text
        edited = text.replace(f"\n{header}\n", f"\n{header}\n{typo}\n", 1)
    else:  # a table of its own, at the end
        edited = f"{text}\n{typo}\n"
    scenario = parse_scenario(edited, "s.toml")
    with pytest.raises(ScenarioError, match=re.escape(f"s.toml: {message}")):
        Game(scenario, 1)


@pytest.mark.parametrize(
    ("case", "where", "typo", "message"),
    [
        (
            "killteam/d1-minus-three-never-hits.toml",
            ("models", 0),
            "flesh_wound",
            "in [killteam.models[0]]: unknown key 'flesh_wound': did you mean 'flesh_wounds'?",
        ),
        (
            "killteam/d1-minus-three-never-hits.toml",
            (),
            "initative",
            "in [killteam]: unknown key 'initative': did you mean 'initiative'?",
        ),
        (
            "wh40k6/q1-slain-before-its-initiative-step.toml",
            ("units", 1),
            "warlrod",
            "in [wh40k6.units[1]]: unknown key 'warlrod': did you mean 'warlord'?",
        ),
        (
            "apocalypse/d4-full-damage-resolution.toml",
            ("detachments", 0, "units", 0),
            "blast_smal",
            "in [apocalypse.detachments[0].units[0]]: unknown key 'blast_smal': "
            "did you mean 'blast_small'?",
        ),
        (
            "apocalypse/d4-full-damage-resolution.toml",
            ("datasheets", "tough_mob", "profile"),
            "Svv",
            "in [apocalypse.datasheets.tough_mob.profile]: unknown key 'Svv': did you mean 'Sv'?",
        ),
        (
            "confrontation/e11-master-strike.toml",
            ("fighters", 1),
            "wounds",
            "in [confrontation.fighters[1]]: unknown key 'wounds': did you mean 'wound'?",
        ),
        (
            "fatigue/d1-rest.toml",
            ("units", 2),
            "fatigeu",
            "in [fatigue.units[2]]: unknown key 'fatigeu': did you mean 'fatigue'?",
        ),
    ],
)
def test_a_rulesets_position_table_refuses_misspelt_keys(
    case: str, where: tuple[str | int, ...], typo: str, message: str
) -> None:
    """The same for a position's ruleset table, its sides, units and models."""
    data = tomllib.loads((ROOT / "tests" / "cases" / case).read_text())["position"]
    ruleset = case.split("/", 1)[0]
    found = position_from_data(data, "p.toml", "", base=SCENARIOS)
    Game(found.scenario, 1, position=found)
    table = data[ruleset]
    for step in where:
        table = table[step]
    table[typo] = 1
    found = position_from_data(data, "p.toml", "", base=SCENARIOS)
    with pytest.raises(ScenarioError, match=re.escape(f"p.toml: {message}")):
        Game(found.scenario, 1, position=found)
