"""Movement, Giant Leap, coherency and flight (digest fatigue §6.5, §6.17, §6.27, §6.31,
§11; §9 T5)."""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.fatigue.activation import activate
from engine.rulesets.fatigue.flight import flee
from engine.rulesets.fatigue.geometry import dist, facing_of, leap, walk
from engine.rulesets.fatigue.lostgroup import lost_group_test
from engine.rulesets.fatigue.profiles import Modules
from engine.rulesets.fatigue.tables import COHERENCY
from engine.units import is_coherent
from tests.rulesets.fatigue.table import Table

LEGEND = '[map.legend]\n"H" = { terrain = "blocking", height = 5 }'


def test_giant_leap_four_over_a_wall_not_over_height_five() -> None:
    """Digest fatigue §9 T5 / §6.27: land up to 4 steps away along a straight line whose
    cells are at most X high: a height-3 wall is no bar, a height-5 block is."""
    rows = [".........", "....H....", ".........", "....#....", "........."]  # north first
    table = Table(rows=rows, legend=LEGEND)
    state = table.state
    # Wall (height 3) at (4, 1), height-5 block at (4, 3).
    cells = leap(state, Cell(4, 0), 4)
    assert Cell(4, 2) in cells
    assert Cell(4, 4) not in cells
    assert Cell(8, 0) in cells and Cell(0, 0) in cells
    assert all(dist(state, Cell(4, 0), c) <= 4 for c in cells)
    assert Cell(4, 2) not in leap(state, Cell(4, 0), 2)  # 3 > X = 2


def test_walking_costs_diagonals_and_difficult_ground() -> None:
    """§11.1: diagonals 1, 2, 1...; difficult ground doubles a step; Chebyshev switch."""
    rows = ["." * 8] * 3 + ["...~...."] + ["." * 8] * 3
    table = Table(rows=rows)
    reach = walk(table.state, Cell(0, 0), 4)
    assert reach[Cell(2, 2)] == 3
    assert Cell(3, 3) not in reach  # 1 + 2 + 2 (difficult, diagonal 1 doubled) = 5
    assert reach[Cell(3, 2)] == 4
    cheb = Table(rows=rows, modules=Modules(chebyshev=True))
    assert walk(cheb.state, Cell(0, 0), 4)[Cell(2, 2)] == 2
    assert dist(cheb.state, Cell(0, 0), Cell(3, 3)) == 3


def test_move_keeps_formation_and_never_ends_next_to_an_enemy() -> None:
    """§6.5 steps 3-6: auto-formation keeps coherency, no contact, faces the move."""
    table = Table()
    state = table.state
    spears = table.add(0, "Road Spears", [(2, 1), (3, 1), (4, 1), (5, 1), (6, 1)])
    table.add(1, "Ashfang Chief", [(4, 7)])
    state.side(0).fp = 1
    decision_cells: list[Cell] = []

    def dest(decision):  # type: ignore[no-untyped-def]
        decision_cells.extend(o.cell for o in decision.options if o.cell is not None)
        return "2,5"

    table.run(activate(state, table.ctx, spears), ["MOVE", dest, "auto"])
    assert all(max(abs(c.x - 4), abs(c.y - 7)) > 1 for c in decision_cells)
    cells = spears.cells()
    assert cells[0] == Cell(2, 5)
    assert is_coherent(cells, COHERENCY, lambda a, b: dist(state, a, b))
    assert all(max(abs(c.x - 4), abs(c.y - 7)) > 1 for c in cells)
    assert spears.moved and spears.facing == 0


def test_manual_placement_links_each_model() -> None:
    """Decision point 9: the owner may place every model, each within 2 of a placed one."""
    table = Table()
    state = table.state
    spears = table.add(0, "Road Spears", [(2, 1), (3, 1)])
    table.add(1, "Ashfang Chief", [(12, 10)])
    state.side(0).fp = 1

    def last(decision):  # type: ignore[no-untyped-def]
        return decision.options[-1].key

    table.run(activate(state, table.ctx, spears), ["MOVE", "2,3", "manual", last])
    assert dist(state, spears.cells()[0], spears.cells()[1]) <= COHERENCY


def test_flight_off_the_board_is_out_of_action() -> None:
    """§6.17 item 5: a step off the board takes the model out of action."""
    table = Table(dice=[(4, "flight distance")])
    spears = table.add(0, "Road Spears", [(1, 1)])
    table.add(1, "Ashfang Chief", [(3, 3)])
    flee(table.state, table.ctx, spears, Cell(3, 3))
    assert spears.destroyed
    assert table.state.out_of_action(0) == 1
    # Played at 200x60: "Road Spears are destroyed" came before "Road Spears flee 2 steps"
    kinds = [e.kind for e in table.events]
    assert kinds.index("UnitFled") < kinds.index("ModelOutOfAction") < kinds.index("UnitDestroyed")


def test_facing_is_the_nearest_of_eight() -> None:
    """§6.5 step 6 / §11.4: 8-way facing from a vector, 0 = north, clockwise."""
    assert facing_of(0, 3) == 0
    assert facing_of(3, 3) == 1
    assert facing_of(5, 1) == 2
    assert facing_of(-1, -5) == 4
    assert facing_of(0, 0) is None


def test_lost_group_test_optional_module() -> None:
    """§6.31 item 4 (EXT, switchable): stragglers test; fail flees, pass rejoins."""
    table = Table(
        dice=[(6, "lost group"), (1, "lost group")], modules=Modules(lost_group_test=True)
    )
    spears = table.add(0, "Road Spears", [(1, 1), (2, 1), (3, 1), (9, 1), (10, 9)])
    lost_group_test(table.state, table.ctx, spears)
    alive = spears.alive()
    assert len(alive) == 4
    # The straggler that passed walks its M4 back toward the group (11 -> 7 steps away).
    assert dist(table.state, alive[3].cell or Cell(0, 0), Cell(3, 1)) == 7


ELEVATED = (
    '[map.legend]\n"^" = { terrain = "open", height = 2 }\n"/" = { terrain = "open", height = 1 }'
)


def test_elevation_climbs_one_level_at_a_time() -> None:
    """§4.2 platform (ELEVATION): enter only from a cell at most 1 level lower or higher."""
    rows = ["........", "........", "..^^/...", "..^^....", "........"]
    table = Table(rows=rows, legend=ELEVATED, modules=Modules(elevation=True))
    reach = walk(table.state, Cell(2, 0), 6)
    assert Cell(2, 1) in reach  # height 2 next to ground: only through the ramp at (4,2)
    assert reach[Cell(3, 2)] > 2
    flat = Table(rows=rows, legend=ELEVATED)
    assert walk(flat.state, Cell(2, 0), 6)[Cell(2, 1)] == 1


def test_stupid_model_falls_off_a_ledge() -> None:
    """§6.25 3.3 / §10 #37 (FILL-IN, ELEVATION): a drop of 2 or more: D2 damage and stop."""
    from engine.rulesets.fatigue.stupidity import stupidity_test

    rows = ["........", "........", "........", "...^....", "...^...."]
    table = Table(
        dice=[(6, "stupidity test"), (2, "stupidity table"), (5, "fall damage")],
        rows=rows,
        legend=ELEVATED,
        modules=Modules(elevation=True),
    )
    brute = table.add(1, "Tunnel Brute", [(3, 0)], facing=0)
    table.add(0, "Warden-Captain", [(3, 7)])
    stupidity_test(table.state, table.ctx, brute)
    assert brute.models[0].cell == (3, 2)
    assert brute.models[0].wounds_taken == 2


def test_jumping_down_into_a_leap_attack() -> None:
    """§6.28 item 1 (ELEVATION): a jump down from height 2 next to an enemy is a Leap Attack."""
    from engine.rulesets.fatigue.charge import charge_reach, contact_cells

    rows = ["........", "........", "........", "..^^....", "..^^...."]
    table = Table(rows=rows, legend=ELEVATED, modules=Modules(elevation=True))
    spears = table.add(0, "Road Spears", [(3, 1)])
    table.add(1, "Ashfang Chief", [(5, 2)])
    reach = charge_reach(table.state, spears)
    assert reach.leap is not None
    assert Cell(4, 2) in contact_cells(table.state, table.state.units[2], reach.leap)
