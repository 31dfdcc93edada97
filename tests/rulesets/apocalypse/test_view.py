"""What an Apocalypse game shows: unit cards with what their types allow, named terrain.

Issue #23: the wh40k6 card said what Fast, Open-topped and Transport allow, the
Apocalypse card did not (a Carrier's capacity, Sky Raiders' drop, who may enter ruins);
and the cursor called ruins "difficult ground", obstacles "cover" (§4.2 names them).
"""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell, Terrain
from engine.game import Game
from engine.rulesets.apocalypse.profiles import load_catalogue
from engine.rulesets.apocalypse.view import FEATURES
from engine.scenario import load_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"


def _view() -> Game:
    return Game(load_scenario(SCENARIOS / "apocalypse-crossing-big.toml"), 3)


def test_the_unit_card_says_what_keywords_and_abilities_allow() -> None:
    by_name = {m.name: m for m in _view().view().models}
    carrier = by_name["Legion Carrier"].notes
    assert [n.split(":")[0] for n in carrier] == ["Heavy", "Vehicle", "Transport"]
    assert carrier[2].startswith("Transport: carries 1 unit (INFANTRY LEGION)")
    assert "may not enter ruins" in carrier[1]
    raiders = by_name["Sky Raiders"].notes
    assert any(n.startswith("Fly: moves over models and terrain") for n in raiders)
    assert any('anywhere more than 9" from the enemy' in n for n in raiders)
    captain = by_name["Legion Captain"].notes
    assert captain[1].startswith("Light character: obscured unless it is the closest")
    assert any(n.startswith('Rally (aura 6"): other units of its detachment') for n in captain)
    colossus = by_name["Scrap Colossus"].notes
    assert colossus[0].startswith("Super-heavy: wounded on the SAT roll")
    assert "Transport: carries 2 units" in colossus[-1]


def test_every_terrain_piece_is_named_and_drawn_unlike_any_unit() -> None:
    terrain = _view().view().terrain
    names = [f.name for f in terrain]
    assert names.count("ruins 2") == 1 and "obstacle 4" in names and "impassable 2" in names
    centre = next(f for f in terrain if Cell(23, 15) in f.cells)
    assert (centre.name, centre.glyph, centre.kind) == ("ruins 2", ":", Terrain.DIFFICULT)
    assert centre.cells == frozenset(Cell(x, y) for x in range(21, 27) for y in range(14, 18))
    assert centre.detail == 'infantry only, +1" to enter, obscures'
    wall = next(f for f in terrain if Cell(16, 19) in f.cells)
    assert wall.detail == "no unit ends here, blocks sight"
    glyphs = {glyph for _, glyph, _ in FEATURES.values()}
    assert len(glyphs) == len(FEATURES)
    assert not glyphs & {s.glyph for s in load_catalogue().values()}
    assert not glyphs & {".", "+", "o", "~"}


def test_a_unit_still_to_deploy_is_not_out_of_action() -> None:
    """At 80x24 the card read "Legion Carrier — out of action" while it was being deployed."""
    game = _view()
    carrier = next(m for m in game.view().models if m.name == "Legion Carrier")
    assert carrier.cell is None and not carrier.removed
    state = game.ruleset.state  # type: ignore[attr-defined]
    state.put(state.units[carrier.id], "DESTROYED", None)
    assert next(m for m in game.view().models if m.id == carrier.id).removed


def test_weapon_lines_name_melee_once() -> None:
    sheets = load_catalogue()
    assert sheets["legion_captain"].weapons[1].describe() == "Power sword Melee A2 SAP 5+ SAT 9+"
    assert sheets["legion_captain"].weapons[0].describe() == (
        'Command pistol 12" Small Arms A1 SAP 6+ SAT 11+'
    )
