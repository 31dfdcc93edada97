"""Facing geometry: directions, arcs and turning (engine/facing.py)."""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Choice
from engine.facing import (
    NAMES,
    ask_facing,
    cross,
    facing_options,
    in_arc,
    in_front_half,
    opposite,
    orthogonal_towards,
    step,
    towards,
    turned,
)

ORIGIN = Cell(5, 5)


def test_directions_follow_the_view_convention() -> None:
    """0 = north (+y), clockwise in eighths, like ModelView.facing."""
    assert step(ORIGIN, 0) == Cell(5, 6)
    assert step(ORIGIN, 2) == Cell(6, 5)
    assert step(ORIGIN, 4) == Cell(5, 4)
    assert step(ORIGIN, 6) == Cell(4, 5)
    assert step(ORIGIN, 1) == Cell(6, 6)
    assert turned(7, 2) == 1 and turned(0, -1) == 7 and opposite(1) == 5


def test_front_half_includes_cells_abeam() -> None:
    """Confrontation §11: dot >= 0 is in the front 180°, side cells count."""
    assert in_front_half(0, ORIGIN, Cell(5, 9))
    assert in_front_half(0, ORIGIN, Cell(9, 5))  # exactly abeam
    assert in_front_half(0, ORIGIN, Cell(1, 5))
    assert not in_front_half(0, ORIGIN, Cell(5, 4))
    assert in_front_half(1, ORIGIN, Cell(6, 4))  # NE facing: SE neighbour is abeam
    assert not in_front_half(1, ORIGIN, Cell(4, 4))


def test_arcs_of_several_widths() -> None:
    assert in_arc(0, ORIGIN, Cell(5, 9), 0)
    assert not in_arc(0, ORIGIN, Cell(6, 9), 0)
    assert in_arc(0, ORIGIN, Cell(7, 7), 1)  # exactly 45°
    assert not in_arc(0, ORIGIN, Cell(8, 7), 1)
    assert in_arc(0, ORIGIN, Cell(9, 5), 2)
    assert in_arc(0, ORIGIN, Cell(8, 2), 3)  # 135° boundary
    assert not in_arc(0, ORIGIN, Cell(6, 1), 3)
    assert in_arc(0, ORIGIN, Cell(5, 1), 4)


def test_cross_tells_left_from_right() -> None:
    assert cross(0, ORIGIN, Cell(3, 6)) > 0  # west of a north-facing model: left
    assert cross(0, ORIGIN, Cell(7, 6)) < 0


def test_towards_picks_the_nearest_of_eight() -> None:
    assert towards(ORIGIN, ORIGIN) is None
    assert towards(ORIGIN, Cell(5, 10)) == 0
    assert towards(ORIGIN, Cell(7, 10)) == 0  # 21.8° off north
    assert towards(ORIGIN, Cell(8, 10)) == 1  # 31° off north
    assert towards(ORIGIN, Cell(1, 1)) == 5
    assert towards(ORIGIN, Cell(0, 6)) == 6
    assert orthogonal_towards(ORIGIN, Cell(6, 5)) == 2
    assert orthogonal_towards(ORIGIN, Cell(4, 4)) == 4


def test_ask_facing_returns_the_chosen_direction() -> None:
    proc = ask_facing(1, "Face where?", marked=4)
    decision = next(proc)
    # Compass order at every prompt (a player who learnt "1 = north" keeps it); the
    # current facing is marked, not moved to the top.
    assert decision.keys() == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert decision.options[4].label == "Face south (current)"
    assert [o.label for o in decision.options].count("Face south (current)") == 1
    assert len(facing_options()) == 8
    try:
        proc.send(Choice(0, "W"))
    except StopIteration as stop:
        assert stop.value == NAMES.index("W")
    else:
        raise AssertionError("ask_facing asked twice")


def test_armour_arc_front_side_rear_with_boundaries_on_the_side() -> None:
    from engine.facing import FRONT, REAR, SIDE, armour_arc

    o = Cell(0, 0)
    assert armour_arc(0, o, Cell(1, 5)) == FRONT
    assert armour_arc(0, o, Cell(3, 3)) == SIDE  # exactly 45°
    assert armour_arc(0, o, Cell(5, 0)) == SIDE
    assert armour_arc(0, o, Cell(-3, -3)) == SIDE  # exactly 135°
    assert armour_arc(0, o, Cell(1, -5)) == REAR
    assert armour_arc(2, o, Cell(9, 1)) == FRONT
    assert armour_arc(1, o, Cell(4, 4)) == FRONT
    assert armour_arc(0, o, o) == FRONT


def test_half_planes_for_sponsons() -> None:
    from engine.facing import in_left_half, in_right_half

    o = Cell(0, 0)
    assert in_right_half(0, o, Cell(3, 1)) and not in_left_half(0, o, Cell(3, 1))
    assert in_left_half(0, o, Cell(-3, -1)) and not in_right_half(0, o, Cell(-3, -1))
    assert in_right_half(0, o, Cell(0, 4)) and in_left_half(0, o, Cell(0, 4))
