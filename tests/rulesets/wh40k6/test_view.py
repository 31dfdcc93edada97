"""What a wh40k6 game shows: every terrain feature by name and glyph, placed objectives.

Playtest 2 found terrain placed while setting up, wrecks and craters drawn as open ground
and objectives never drawn: the view now lists all the terrain the rules use (§4.5).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from engine.board import Cell, Terrain
from engine.bot import RandomBot
from engine.decisions import Decision
from engine.game import Game
from engine.position import parse_position
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.catalogue import PROFILES
from engine.rulesets.wh40k6.damage import wreck
from engine.rulesets.wh40k6.view import FEATURE_GLYPHS
from engine.scenario import load_scenario
from tests.rulesets.wh40k6.table import Table

SCENARIOS = Path(__file__).parents[3] / "scenarios"


def _game(units: str, phase: str, player: int) -> Game:
    """A game from an Open War position of turn 2 with these units (and table keys)."""
    head = f'scenario = "wh40k6-open-war.toml"\nround = 2\nphase = "{phase}"\n\n'
    text = head + f"[wh40k6]\nplayer = {player}\n" + units
    position = parse_position(text, f"{phase}.toml", base=SCENARIOS)
    return Game(position.scenario, 0, position=position)


def _targets(units: str, player: int, shooter: str) -> Decision:
    """The target question of ``shooter`` in the Shooting phase of a position."""
    game = _game(units, "Shooting", player)
    game.choose_key(shooter)
    game.choose_key("shoot")
    assert game.pending is not None
    return game.pending


def test_the_fixed_map_names_woods_razor_wire_and_craters() -> None:
    game = Game(load_scenario(SCENARIOS / "wh40k6-emperors-will.toml"), 3)
    by_name = {f.name: f for f in game.view().terrain}
    woods = by_name["woods"]
    assert (woods.glyph, woods.kind, woods.detail) == (
        "&",
        Terrain.DIFFICULT,
        "difficult, 5+ cover",
    )
    assert Cell(15, 17) in woods.cells and Cell(13, 17) not in woods.cells
    assert by_name["razor wire"].detail == "difficult, dangerous to infantry, 6+ cover"
    assert by_name["crater"].glyph == ";"
    assert by_name["ruin wall"].kind is Terrain.BLOCKING


def test_every_feature_has_its_own_glyph_unlike_any_model() -> None:
    assert set(FEATURE_GLYPHS) == set(t.FEATURES) - {"open"}
    glyphs = list(FEATURE_GLYPHS.values())
    assert len(set(glyphs)) == len(glyphs)
    assert not set(glyphs) & {p["glyph"] for p in PROFILES.values()}
    assert not set(glyphs) & {".", "+", "o", "~"}  # open ground, options, cover, difficult


def test_terrain_placed_while_setting_up_is_in_the_view() -> None:
    """Open War: terrain set up by the rolls or by the players appears as it is placed."""
    game = Game(load_scenario(SCENARIOS / "wh40k6-open-war.toml"), 11)
    bot = RandomBot(11)
    while game.pending is not None and not any(e.kind == "TerrainPlaced" for e in game.events):
        game.choose(bot.choose(game.pending))
    while game.pending is not None and game.view().phase in ("Setup", ""):
        game.choose(bot.choose(game.pending))
        if game.view().objectives:
            break
    state = game.ruleset.state  # type: ignore[attr-defined]
    shown = {c for f in game.view().terrain for c in f.cells}
    placed = {c for c, k in state.terrain.items() if k != "open"}
    assert shown == placed and len(placed) > 16  # more than the map's one rock


def test_objectives_and_a_wreck_are_in_the_view() -> None:
    text = """
objectives = [{ cell = [30, 20], value = 3 }, { cell = [40, 30], value = 2 }]

[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
models = [{ cell = [10, 2] }]

[[wh40k6.units]]
player = 2
unit = "scrap_hauler"
models = [{ cell = [50, 40] }]
"""
    game = _game(text, "Shooting", 1)
    view = game.view()
    assert [(o.name, o.label, o.cell) for o in view.objectives] == [
        ("O1", "objective 1 (3 VP)", Cell(30, 20)),
        ("O2", "objective 2 (2 VP)", Cell(40, 30)),
    ]
    assert not any(name.startswith("Objective") for name, _ in view.zones)
    state = game.ruleset.state  # type: ignore[attr-defined]
    table = Table()
    wreck(state, table.ctx, state.models["B1.1"])
    wrecks = [f for f in game.view().terrain if f.name == "vehicle wreck"]
    assert len(wrecks) == 1 and wrecks[0].glyph == "%"
    assert wrecks[0].cells == frozenset(Cell(50 + x, 40 + y) for x in range(3) for y in range(3))
    assert wrecks[0].detail == "difficult, dangerous, 5+ cover"


def test_the_model_card_says_what_vehicle_types_and_rules_allow() -> None:
    game = Game(load_scenario(SCENARIOS / "wh40k6-open-war.toml"), 3)
    by_name = {m.name.split(" ", 1)[1]: m for m in game.view().models}
    hauler = by_name["Scrap Hauler"]
    assert [n.split(":")[0] for n in hauler.notes] == ["Fast", "Open-topped", "Transport"]
    assert "passengers fire out all round" in hauler.notes[1]
    assert "carries 12 models" in hauler.notes[2]
    assert by_name["Warden Outrider"].notes[0].startswith('Bike: moves 12"; may turbo-boost')
    assert any(n.startswith("Fleet:") for n in by_name["Raider"].notes)


OUTRIDERS = """

[[wh40k6.units]]
player = 1
unit = "warden_outriders"
models = [{ cell = [20, 10] }, { cell = [21, 10] }, { cell = [22, 10] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [20, 44] }]
"""


def _outriders() -> Game:
    return _game(OUTRIDERS, "Movement", 1)


def test_models_are_drawn_where_they_are_being_placed() -> None:
    """Playtest 2: a placement showed its models only after "Done"; now at every step."""
    game = _outriders()
    game.choose_key("A1")
    assert game.pending is not None and "keeping their formation" in game.pending.prompt
    game.choose_key("one-by-one")
    game.choose_key("20,14")
    first = game.view().model("A1.1")
    assert first is not None and first.cell == Cell(20, 14) and "being placed" in first.states
    second = game.view().model("A1.2")
    assert second is not None and second.cell == Cell(21, 10)
    game.choose_key("21,14")
    game.choose_key("22,14")
    assert game.pending is not None and "finish or start again?" in game.pending.prompt
    assert game.view().model("A1.3").cell == Cell(22, 14)  # type: ignore[union-attr]
    game.choose_key("done")
    placed = game.view().model("A1.1")
    assert placed is not None and placed.cell == Cell(20, 14)
    assert "being placed" not in placed.states


def test_a_formation_move_is_one_pick_and_staying_put_comes_first() -> None:
    text = """

[[wh40k6.units]]
player = 1
unit = "warden_squad"
models = [{ cell = [20, 10] }, { cell = [21, 10] }, { cell = [22, 10] }, { cell = [23, 10] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{ cell = [20, 44] }]
"""
    game = _game(text, "Movement", 1)
    game.choose_key("A1")
    pending = game.pending
    assert pending is not None
    assert [o.key for o in pending.options[:3]] == ["one-by-one", "then-adjust", "20,10"]
    assert "stays where it is" in pending.options[2].label
    game.choose_key("20,15")
    assert len(game.choices) == 2 and game.view().phase == "Shooting"  # moved: no "Done"
    assert [game.view().model(f"A1.{n}").cell for n in (1, 4)] == [Cell(20, 15), Cell(23, 15)]  # type: ignore[union-attr]


def test_an_incoherent_placement_may_adjust_a_model_not_only_start_again() -> None:
    game = _outriders()
    for key in ("A1", "one-by-one", "20,14", "21,14", "28,14"):
        game.choose_key(key)
    pending = game.pending
    assert pending is not None and "out of coherency" in pending.prompt
    assert pending.keys() == ("adjust", "reset")
    game.choose_key("adjust")
    game.choose_key("A1.3")
    game.choose_key("22,14")
    assert game.pending is not None and game.pending.keys()[0] == "done"


def test_a_target_that_cannot_be_hurt_says_so() -> None:
    """S5 + 6 never reaches the Bastion Tank's front armour 13 (§6.8.13)."""
    text = """

[[wh40k6.units]]
player = 1
unit = "bastion_tank"
models = [{ cell = [30, 30], facing = 180 }]

[[wh40k6.units]]
player = 1
unit = "warden_rangers"
models = [{ cell = [40, 20] }]

[[wh40k6.units]]
player = 2
unit = "scrap_walker"
models = [{ cell = [30, 20] }]
"""
    pending = _targets(text, 2, "B1")
    labels = {o.key: o.label for o in pending.options}
    assert labels["A1"] == 'Bastion Tank (9"; cannot damage it: S5 cannot reach front armour 13)'
    assert labels["A2"] == 'Warden Rangers (9")'
    assert not pending.option("A1").detail  # type: ignore[union-attr]  # said once


def test_a_target_says_how_far_it_is_and_how_many_models_reach_it() -> None:
    """Playtest: "hit 33%" for a Mob of ten read as ten shots; only the rocket reaches."""
    text = """

[[wh40k6.units]]
player = 1
unit = "warden_lexicar"
models = [{ cell = [30, 10] }]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [
  { cell = [30, 30] }, { cell = [31, 30] }, { cell = [32, 30] }, { cell = [33, 30] },
  { cell = [34, 30] }, { cell = [30, 31] }, { cell = [31, 31] }, { cell = [32, 31] },
  { cell = [33, 31] }, { cell = [34, 31] },
]
"""
    pending = _targets(text, 2, "B1")
    assert pending.option("A1").label == (  # type: ignore[union-attr]
        'Warden Lexicar (20", 1 of 10 models in range)'
    )


def test_a_tank_sees_its_odds_before_picking_a_target() -> None:
    """Playtest 3: a vehicle's targets came without odds (only its crew's did)."""
    text = """

[[wh40k6.units]]
player = 1
unit = "bastion_tank"
models = [{ cell = [30, 10], facing = 0 }]

[[wh40k6.units]]
player = 2
unit = "scrap_walker"
models = [{ cell = [30, 30], facing = 180 }]
"""
    pending = _targets(text, 1, "A1")
    odds = pending.option("B1").odds  # type: ignore[union-attr]
    assert odds is not None and odds.hit == Fraction(2, 3)  # BS4, stood still: full BS
    assert dict(odds.chances)["penetrating"] > 0  # the S9 las-lance on AV11
