"""Movement: difficult terrain, dangerous terrain, fall back, run, grid distance (§9)."""

from __future__ import annotations

from typing import Any

from engine.board import Cell, distance
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.charge import can_charge
from engine.rulesets.wh40k6.morale import fall_back, fall_back_dice
from engine.rulesets.wh40k6.movement import difficult_choice, move_unit, moved_text
from engine.rulesets.wh40k6.parsing import parse_profile
from engine.rulesets.wh40k6.profiles import Profile
from engine.rulesets.wh40k6.shooting import _can_smoke, shooting_move, shooting_move_row
from engine.rulesets.wh40k6.state import Model, Unit
from tests.rulesets.wh40k6.table import Table, catalogue, first_cell


def woods(table: Table, xs: range, ys: range) -> None:
    for x in xs:
        for y in ys:
            table.state.terrain[Cell(x, y)] = "woods"
    table.state.cache.clear()


def profile(pid: str, **spec: Any) -> Profile:
    base: dict[str, Any] = {
        "name": pid,
        "ws": 4,
        "bs": 3,
        "s": 5,
        "t": 5,
        "w": 4,
        "i": 3,
        "a": 3,
        "ld": 9,
        "sv": 3,
    }
    base.update(spec)
    return parse_profile(pid, base, catalogue().weapons, "test")


def lone(table: Table, player: int, prof: Profile, cell: tuple[int, int], uid: str) -> Unit:
    model = Model(f"{uid}.1", uid, player, prof, prof.w, Cell(*cell), hp=prof.hp)
    unit = Unit(uid, prof.name, player, "Elites", [model.id], 1)
    table.state.models[model.id] = model
    table.state.units[uid] = unit
    return unit


def test_tc05_infantry_rolls_2d6_pick_highest() -> None:
    """TC-05: infantry through woods rolls 2, 5: every model may move 5"."""
    table = Table([2, 5])
    woods(table, range(10, 13), range(20))
    squad = table.add(0, "warden_squad", [(8, 5), (8, 6), (8, 7), (8, 8), (8, 9)])
    row = t.MOVE_TABLE["infantry"]
    through, inches = table.run(difficult_choice(table.state, table.ctx, squad, row, 6), ["yes"])
    assert through and inches == 5


def test_tc05_monstrous_creature_rolls_3d6_pick_highest() -> None:
    """TC-05: a Monstrous Creature rolls 1, 3, 4: 4"."""
    table = Table([1, 3, 4])
    woods(table, range(10, 13), range(20))
    beast = lone(table, 0, profile("mc", type="monstrous_creature", size=2), (7, 5), "M1")
    row = t.MOVE_TABLE["monstrous_creature"]
    assert table.run(difficult_choice(table.state, table.ctx, beast, row, 6), ["yes"]) == (True, 4)


def test_tc05_walker_rolls_2d6() -> None:
    """TC-05: a Walker rolls 6, 1: 6"."""
    table = Table([6, 1])
    woods(table, range(10, 13), range(20))
    walker = table.add(1, "scrap_walker", [(7, 5)])
    row = t.MOVE_TABLE["walker"]
    assert table.run(difficult_choice(table.state, table.ctx, walker, row, 6), ["yes"]) == (True, 6)


def test_tc05_beasts_ignore_difficult_terrain() -> None:
    """TC-05: Beasts: no roll, 12"."""
    table = Table()
    woods(table, range(10, 13), range(20))
    hound = lone(table, 0, profile("hound", type="beast"), (8, 5), "H1")
    row = t.MOVE_TABLE["beast"]
    assert table.run(difficult_choice(table.state, table.ctx, hound, row, 12)) == (True, 12)


def test_tc05_bike_crossing_woods_takes_a_dangerous_terrain_test() -> None:
    """TC-05: a Bike crossing woods moves 12" but tests; a 1 is a wound with no armour save."""
    table = Table([(1, "dangerous terrain")])
    woods(table, range(10, 13), range(20))
    bikes = table.add(0, "warden_outriders", [(8, 5)])
    assert t.MOVE_TABLE["bike"].difficult == t.DANGEROUS
    table.run(
        move_unit(
            table.state,
            table.ctx,
            bikes,
            12,
            fly=False,
            through=True,
            verb="move",
            tests="difficult",
        ),
        ["14,5"],
    )
    assert table.state.unit_of(table.model(bikes.models[0])).destroyed
    assert "dangerous terrain" in table.texts("WoundSuffered")[0]


def test_tc06_infantry_falls_back_2d6_toward_its_edge() -> None:
    """TC-06: infantry rolls 3 + 4: each model moves 7" toward its own (south) edge."""
    table = Table([3, 4])
    squad = table.add(0, "warden_squad", [(10, 15), (11, 15), (12, 15), (13, 15), (14, 15)])
    table.run(fall_back(table.state, table.ctx, squad))
    assert squad.falling_back
    assert [table.model(m).cell for m in squad.models] == [Cell(x, 8) for x in range(10, 15)]


def test_tc06_jump_3d6_and_walkers_never() -> None:
    """TC-06: jump infantry falls back 3D6 (2+5+6 = 13"); a Walker never falls back."""
    table = Table([2, 5, 6])
    raiders = table.add(1, "sky_raiders", [(10, 2), (11, 2)])
    assert fall_back_dice(table.state, raiders) == 3
    table.run(fall_back(table.state, table.ctx, raiders))
    assert table.find("FellBack")[0].fields["inches"] == 13
    assert [table.model(m).cell for m in raiders.models] == [Cell(10, 15), Cell(11, 15)]
    walker = table.add(1, "scrap_walker", [(20, 10)])
    assert fall_back_dice(table.state, walker) is None


def test_tc06_off_the_table_removes_the_model() -> None:
    """§10 A-25: a model that would move past its edge is removed."""
    table = Table([3, 4])
    squad = table.add(0, "warden_squad", [(10, 3), (11, 9)])
    table.run(fall_back(table.state, table.ctx, squad))
    assert table.model(squad.models[0]).removed
    assert table.model(squad.models[1]).cell == Cell(11, 2)


def test_tc07_fleet_run_rerolls_the_die() -> None:
    """TC-07: a Fleet unit runs, rolls 2, re-rolls it to 5: it may run 5"; it cannot charge."""
    table = Table([(2, "Run"), (5, "re-rolled")])
    mob = table.add(1, "horde_mob", [(10, 10), (11, 10)])
    row = shooting_move_row(table.state, mob)
    assert row is not None and row.kind == "Run"

    table.run(shooting_move(table.state, table.ctx, mob, row), ["lowest-1", first_cell])
    assert table.find("RunRolled")[0].fields["inches"] == 5
    assert mob.ran and not can_charge(table.state, mob)


def test_tc07_turbo_boost_and_flat_out_distances() -> None:
    """TC-07: jetbikes 24", advanced jetbikes 36", fast skimmers 18", Heavy cannot."""
    moves = t.SHOOTING_MOVES
    assert moves["jetbike"] is not None and moves["jetbike"].inches == 24
    assert moves["adv_jetbike"] is not None and moves["adv_jetbike"].inches == 36
    assert moves["fast_skimmer"] is not None and moves["fast_skimmer"].inches == 18
    assert moves["heavy"] is None
    skimmer = profile(
        "sk",
        type="vehicle",
        vehicle_types=["fast", "skimmer"],
        av_front=10,
        av_side=10,
        av_rear=10,
        hp=2,
    )
    assert skimmer.run_class() == "fast_skimmer"


def test_tc07_no_smoke_after_flat_out() -> None:
    """TC-07: a vehicle that moved flat out may not fire its smoke launchers."""
    table = Table()
    tank = table.model(table.add(0, "bastion_tank", [(10, 10)]).models[0])
    from dataclasses import replace

    tank.profile = replace(tank.profile, rules=frozenset({"smoke_launchers"}))
    assert _can_smoke(tank)
    tank.speed = t.FLAT_OUT
    assert not _can_smoke(tank)


def test_tc24_grid_distance() -> None:
    """TC-24: d((0,0),(3,2)) = 4, d((0,0),(1,1)) = 1, d((0,0),(4,4)) = 6."""
    assert distance(Cell(0, 0), Cell(3, 2)) == 4
    assert distance(Cell(0, 0), Cell(1, 1)) == 1
    assert distance(Cell(0, 0), Cell(4, 4)) == 6


def test_tc24_a_charge_of_6_reaches_a_contact_cell_at_path_length_6() -> None:
    """TC-24: a 2D6 charge roll of 6 reaches a target whose adjacent cell is 6 away."""
    from engine.rulesets.wh40k6.charge_move import contact_cost
    from engine.rulesets.wh40k6.paths import Field

    table = Table()
    mob = table.add(1, "horde_mob", [(10, 10)])
    squad = table.add(0, "warden_squad", [(17, 10)])
    f = Field(table.state, 1, mob.models, spare=[squad.id])
    assert contact_cost(table.state, f, table.model(mob.models[0]), squad, False) == 6


def test_a_move_says_how_far_and_which_way() -> None:
    """'Horde Mob Red runs' alone left a player watching the computer to hunt for the mob
    on the map: the log says the distance and the heading, as Apocalypse's moves do."""
    table = Table([])
    bikes = table.add(0, "warden_outriders", [(8, 5)])
    move = move_unit(
        table.state, table.ctx, bikes, 12, fly=False, through=False, verb="run", tests="difficult"
    )
    table.run(move, ["13,10"])
    (text,) = table.texts("UnitMoved")
    assert text == 'Warden Outriders run 7" north-east', text  # 5 diagonal steps: 7"


def test_a_units_move_gives_its_farthest_model_and_a_heading_for_the_whole() -> None:
    starts = {"a": Cell(0, 0), "b": Cell(1, 0), "c": Cell(2, 0)}
    ends = {"a": Cell(0, 4), "b": Cell(1, 6), "c": Cell(2, 0)}
    spent = {"a": 4, "b": 6, "c": 0}
    assert moved_text("Horde Mob Red", "run", starts, ends, spent) == (
        'Horde Mob Red runs up to 6" north'
    )
    assert moved_text("Sky Raiders", "move", starts, starts, spent) == (
        "Sky Raiders stay where they are"
    )
    assert moved_text(
        "Scrap Hauler", "flat out", {"a": Cell(5, 5)}, {"a": Cell(0, 5)}, {"a": 5}
    ) == ('Scrap Hauler moves flat out 5" west')
