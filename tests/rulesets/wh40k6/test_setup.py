"""Pre-game steps: fortifications, terrain, infiltrate, scout, reserves (wh40k6 §4)."""

from __future__ import annotations

from pathlib import Path

from engine.board import Cell
from engine.decisions import Decision
from engine.footprints import rect_distance, square
from engine.game import Game
from engine.rulesets.wh40k6 import maps
from engine.rulesets.wh40k6.deployment import _infiltrate_cells, scout_move
from engine.rulesets.wh40k6.fortifications import legal_spots, place_fortifications
from engine.rulesets.wh40k6.reserves import declare_reserves, roll_reserves
from engine.rulesets.wh40k6.terrain_setup import AREA, auto_terrain
from engine.rulesets.wh40k6.transports import disembark, embark
from engine.scenario import load_scenario
from tests.rulesets.wh40k6.table import Table, first_cell

BIG = ["." * 72] * 48


def test_fortifications_wholly_in_own_half_and_3_inches_apart() -> None:
    """§4.4: wholly within the owner's half, not within 3" of another fortification."""
    table = Table(rows=BIG)
    table.state.sides[0].half, table.state.sides[1].half = "south", "north"
    spots = legal_spots(table.state, 0, 4, 4)
    assert all(c.y + 3 < 24 for c in spots)
    table.run(
        place_fortifications(table.state, table.ctx, 0, (((4, 4),), ((4, 4),))), ["10,10", "10,24"]
    )
    assert table.state.terrain[Cell(13, 13)] == "fortification"
    assert Cell(10, 16) not in legal_spots(table.state, 0, 4, 4)  # 3" away
    assert Cell(10, 17) in legal_spots(table.state, 0, 4, 4)


def test_auto_terrain_respects_the_density_of_each_area() -> None:
    """§4.5: a D3 per 2'x2' area caps the pieces whose centre lies in it."""
    from engine.dice import Dice
    from engine.ruleset import RuleContext

    table = Table(rows=BIG)
    table.ctx = RuleContext(Dice(5), table.events.append)
    auto_terrain(table.state, table.ctx)
    density = table.find("TerrainDensityRolled")[0].text
    assert density.count(":") == 7  # 6 areas
    assert table.state.terrain
    assert len(table.find("TerrainPlaced")) <= 18
    assert AREA == 24


def test_infiltrators_stay_18_inches_away_or_12_out_of_sight() -> None:
    """§4.9: more than 18" from every enemy, or more than 12" out of their sight."""
    rows = ["." * 60] * 30
    rows = [r[:30] + "#" + r[31:] for r in rows]  # a wall down the middle
    table = Table(rows=rows)
    for y in range(30):
        table.state.terrain[Cell(30, y)] = "ruin_wall"
    enemy = table.add(1, "horde_mob", [(20, 15)])
    ranger = table.model(table.add(0, "warden_rangers", [(59, 29)]).models[0])
    ranger.cell = None
    cells = _infiltrate_cells(table.state, ranger)
    foe = table.model(enemy.models[0])
    assert Cell(20, 2) not in cells  # 13" away in plain sight
    assert Cell(34, 15) in cells  # 14" away behind the wall
    assert Cell(32, 15) not in cells  # 12" away: too close even out of sight
    assert all(rect_distance(foe.rect, square(c, 1)) > 12 for c in cells)


def test_scouts_may_not_end_within_12_inches_of_an_enemy() -> None:
    """§4.9: bikes scout up to 12" but never end within 12" of an enemy."""
    table = Table(rows=BIG)
    bikes = table.add(0, "warden_outriders", [(30, 5)])
    table.add(1, "horde_mob", [(30, 30)])

    def furthest(decision: Decision) -> str:
        return decision.options[-1].key

    table.run(scout_move(table.state, table.ctx, bikes), ["yes", furthest])
    cell = table.model(bikes.models[0]).cell
    assert cell is not None and 30 - cell.y > 12 and cell != Cell(30, 5)


def test_reserves_at_most_half_and_rolls_from_turn_two() -> None:
    """§4.9: up to half the units (rounded down); turn 2 and 3 need 3+, turn 4 is automatic."""
    table = Table([(2, "reserve"), (3, "reserve")])
    for n in range(5):
        table.add(0, "warden_squad", [(n, 0)])
    table.run(declare_reserves(table.state, table.ctx, 0), ["A1", "A2"])
    assert sum(u.in_reserve for u in table.state.units.values()) == 2
    table.state.game_turn = 1
    assert roll_reserves(table.state, table.ctx, 0) == []
    table.state.game_turn = 2
    arriving = roll_reserves(table.state, table.ctx, 0)
    assert [u.id for u in arriving] == ["A2"]
    table.state.game_turn = 4
    assert len(roll_reserves(table.state, table.ctx, 0)) == 2


def test_embark_and_disembark_within_6_inches() -> None:
    """§6.15: embarked units leave the table; disembarking places them within 6" of the hull."""
    table = Table()
    hauler = table.model(table.add(1, "scrap_hauler", [(10, 10)]).models[0])
    mob = table.add(1, "horde_mob", [(9, 9), (9, 10)])
    embark(table.state, table.ctx, mob, hauler)
    assert all(table.model(m).cell is None for m in mob.models)
    mob.embarked = False
    table.run(disembark(table.state, table.ctx, mob), [first_cell])
    assert mob.disembarked and mob.left_open_topped
    for mid in mob.models:
        assert rect_distance(table.model(mid).rect, hauler.rect) <= 6
    assert maps.EDGES["north"] == ("north",)


def test_infiltrators_are_asked_and_logged_in_plain_words() -> None:
    """Playtest: "Infiltrat Warden Rangers keeping its formation" and "Iron Wardens's"."""
    from engine.rulesets.wh40k6.deployment import infiltrate
    from engine.wording import possessive

    table = Table(rows=BIG)
    table.add(1, "horde_mob", [(30, 45)])
    rangers = table.add(0, "warden_rangers", [(5, 5), (6, 5), (7, 5), (8, 5)])
    rangers.infiltrating = True
    for mid in rangers.models:
        table.model(mid).cell = None
    table.run(infiltrate(table.state, table.ctx), [first_cell])
    assert table.decisions[0].prompt.startswith("Infiltrate Warden Rangers keeping their formation")
    assert table.texts("UnitDeployed") == ["Warden Rangers are infiltrated"]
    assert (possessive("Iron Wardens"), possessive("Rustbound Horde")) == (
        "Iron Wardens'",
        "Rustbound Horde's",
    )


def test_the_scout_question_says_how_far() -> None:
    """Playtest 3 read "Redeploy the scouts Warden Outriders?"."""
    table = Table(rows=BIG)
    bikes = table.add(0, "warden_outriders", [(30, 5)])
    table.run(scout_move(table.state, table.ctx, bikes), ["no"])
    assert table.decisions[0].prompt == (
        'Scout move: move Warden Outriders up to 12" before the first turn?'
    )


def test_terrain_anchors_skip_full_areas_as_the_plain_search_does() -> None:
    """The anchor search that skips whole areas offers exactly the anchors (in the same
    order) that asking `fits` of every cell does, on tables of odd sizes partly covered,
    with areas full, empty and not yet rolled."""
    import random

    from engine.rulesets.wh40k6.terrain_setup import PIECES, _anchors, _anchors_plain, areas

    rng = random.Random(17)
    found = 0
    for trial in range(12):
        width, height = rng.choice((72, 50, 31)), rng.choice((48, 30, 25))
        table = Table(rows=["." * width] * height)
        state = table.state
        for _ in range(rng.randrange(0, 40)):
            x, y = rng.randrange(width), rng.randrange(height)
            for dx in range(rng.randrange(1, 7)):
                state.terrain[Cell(min(width - 1, x + dx), y)] = "woods"
        state.cache.clear()
        density = {a: rng.randrange(0, 4) for a in areas(state) if rng.random() < 0.9}
        counts = {a: rng.randrange(0, 3) for a in density}
        for piece in PIECES:
            plain = _anchors_plain(state, piece, counts, density)
            assert _anchors(state, piece, counts, density) == plain, (trial, piece.key)
            assert _anchors(state, piece, counts, density, limit=1) == plain[:1]
            found += len(plain)
    assert found > 1000


def test_scout_ends_measure_only_enemies_near_the_move_as_measuring_all_does() -> None:
    """A scout's ends leave out the enemies too far from the whole move to matter and
    keep the ones every enemy allows: the same ends as measuring every enemy, for bikes
    and a tank among enemies near, far and in between."""
    import random

    from engine.rulesets.wh40k6.deployment import scout_ends
    from engine.rulesets.wh40k6.tables import SCOUT_ENEMY_GAP

    table = Table(rows=BIG)
    bike = table.model(table.add(0, "warden_outriders", [(30, 20)]).models[0])
    tank = table.model(table.add(0, "bastion_tank", [(50, 10)]).models[0])
    rng = random.Random(4)
    kept = refused = 0
    for _ in range(30):
        foes = [square(Cell(rng.randrange(70), rng.randrange(46)), 1) for _ in range(5)]
        for model, budget in ((bike, 12), (tank, 6)):
            assert model.cell is not None
            x, y = model.cell
            reach = [
                Cell(x + dx, y + dy)
                for dx in range(-budget, budget + 1)
                for dy in range(-budget, budget + 1)
            ]
            plain = frozenset(
                c
                for c in reach
                if c == model.cell
                or all(
                    rect_distance(square(c, model.profile.size), e) > SCOUT_ENEMY_GAP for e in foes
                )
            )
            assert scout_ends(model, reach, budget, foes) == plain
            kept += len(plain)
            refused += len(reach) - len(plain)
    assert kept > 1000 and refused > 1000


def test_a_vehicle_deployed_logs_the_facing_its_player_chose() -> None:
    """Issue #14: "Scrap Walker is deployed" left out which way it faced (the other player
    saw no prompt, only the board)."""
    game = Game(load_scenario(Path(__file__).parents[3] / "scenarios" / "wh40k6-open-war.toml"), 3)
    while game.pending is not None and not any(
        e.kind == "UnitDeployed" and "Walker" in e.text for e in game.events
    ):
        decision = game.pending
        turn = decision.prompt.startswith("Which way does") and "NE" in decision
        game.choose_key("NE" if turn else next(o.key for o in decision.options if not o.ends))
    (walker,) = [e for e in game.events if e.kind == "UnitDeployed" and "Walker" in e.text]
    assert walker.text == "Scrap Walker is deployed, facing north-east"
