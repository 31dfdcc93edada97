"""Scenario files: the shipped ones load; broken ones name the file, the key and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.board import Cell, Terrain
from engine.errors import ScenarioError
from engine.game import Game
from engine.scenario import load_scenario, parse_scenario

SCENARIOS = sorted((Path(__file__).parents[2] / "scenarios").glob("*.toml"))
CROSSROADS = Path(__file__).parents[2] / "scenarios" / "killteam-crossroads.toml"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenarios_load_and_start(path: Path) -> None:
    scenario = load_scenario(path)
    game = Game(scenario, 1)
    assert game.pending is not None


def test_crossroads_map_matches_the_digest() -> None:
    """Digest killteam §12.4: walls, barricades, platforms and objectives where listed."""
    board = load_scenario(CROSSROADS).board
    assert (board.width, board.height) == (30, 22)
    assert all(board.kind(Cell(x, 8)) is Terrain.BLOCKING for x in range(13, 17))
    assert board.kind(Cell(10, 10)) is Terrain.BLOCKING
    assert board.kind(Cell(19, 11)) is Terrain.BLOCKING
    assert all(board.is_low_cover(Cell(x, 7)) for x in range(5, 9))
    assert board.z(Cell(3, 13)) == 3 and board.z(Cell(26, 8)) == 3
    assert [(o.name, o.cell) for o in board.objectives] == [
        ("O1", Cell(7, 10)),
        ("O2", Cell(22, 11)),
    ]
    # point symmetry (x, y) <-> (29 - x, 21 - y)
    for cell in board.cells():
        mirror = Cell(29 - cell.x, 21 - cell.y)
        assert board.kind(cell) is board.kind(mirror) or cell in (Cell(7, 10), Cell(22, 11))


BASE = """name = "x"
ruleset = "killteam"
description = "d"
rounds = 4
sides = ["a", "b"]
[map]
rows = ["....", "....", "....", "...."]
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (BASE.replace('name = "x"\n', ""), "missing key 'name'"),
        (BASE.replace("rounds = 4", 'rounds = "four"'), "key 'rounds' must be an integer"),
        (BASE.replace("rounds = 4", "rounds = 0"), "key 'rounds' is 0"),
        (BASE.replace('sides = ["a", "b"]', 'sides = ["a"]'), "exactly two"),
        (
            BASE.replace('"....", "....", "....", "...."', '"....", "...", "....", "...."'),
            "row 2 (y=2) has 3 cells",
        ),
        (
            BASE.replace('"....", "....", "....", "...."', '"..?.", "....", "....", "...."'),
            "unknown map character '?'",
        ),
        (BASE + '[[zones]]\nname = "S"\ny = [0, 9]\n', "zones[0].y' = [0, 9] lies outside"),
        (BASE + "[[zones]]\ny = [0, 1]\n", "missing key 'zones[0].name'"),
        (BASE + '[map.legend]\n"W" = "lava"\n', "unknown terrain 'lava'"),
        ("name = ", "not valid TOML"),
        ("a = " + "[" * 600 + "]" * 600, "nested too deeply"),  # tomllib's RecursionError
        ("rounds = " + "9" * 5000, "too many digits"),  # int()'s 4,300-digit limit
    ],
)
def test_broken_scenarios_name_file_and_key(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=r"^broken\.toml: ") as info:
        parse_scenario(text, "broken.toml")
    assert message in str(info.value)


def test_unknown_ruleset_lists_the_valid_ones() -> None:
    scenario = parse_scenario(BASE.replace('"killteam"', '"chess"'), "x.toml")
    with pytest.raises(Exception, match="valid names: killteam"):
        Game(scenario, 1)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("format = 100", "format = 150"), "killteam.format"),
        (('zones = ["South", "North"]', 'zones = ["South", "East"]'), "killteam.zones"),
        (('faction = "militia"', 'faction = "orks"'), "unknown faction 'orks'"),
        (
            ('{ datasheet = "seer" },', '{ datasheet = "seer" }, { datasheet = "seer" },'),
            "at most 1",
        ),
        (('specialism = "Comms"', 'specialism = "Heavy"'), "specialisms repeat: Heavy"),
        (
            ('{ datasheet = "trooper", count = 3 },', '{ datasheet = "trooper", count = 9 },'),
            "11 x Militia Trooper; at most 10",
        ),
        (
            (
                '{ datasheet = "scrapling", count = 2 },',
                '{ datasheet = "scrapling", count = 6 }, { datasheet = "brute", count = 3 },',
            ),
            "101 points is over the 100-point format",
        ),
        (
            ('specialism = "Leader", options = ["shock_axe"]', 'options = ["shock_axe"]'),
            "exactly one model must be the Leader",
        ),
        (('options = ["flame_projector"]', 'options = ["laser"]'), "no wargear option"),
    ],
)
def test_roster_rules_are_enforced(edit: tuple[str, str], message: str) -> None:
    """Digest killteam §4.2: every roster rule refused with the key that breaks it."""
    text = CROSSROADS.read_text()
    assert edit[0] in text
    scenario = parse_scenario(text.replace(edit[0], edit[1], 1), "c.toml")
    with pytest.raises(ScenarioError, match=r"^c\.toml: key '") as info:
        Game(scenario, 1)
    assert message in str(info.value)


def test_shipped_scenarios_describe_themselves_in_a_players_words() -> None:
    """Played: the New game screen read "The FILL-IN mission of the Apocalypse digest
    (§4.4, §12)": section marks and the digest's work notes mean nothing to a player."""
    assert SCENARIOS
    words = ("FILL-IN", "digest", "§", "SEED", "PROPOSED")
    said = {p.name: load_scenario(p).description for p in SCENARIOS}
    assert {name: text for name, text in said.items() if any(w in text for w in words)} == {}
