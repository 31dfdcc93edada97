"""Heights, climbing, jumping and falling (digest killteam §6.3.7, §11.3; ex. S13-S15)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from engine.board import Board, Cell, Terrain
from engine.rulesets.killteam.movement import activate, normal_move, snapshot_engagement
from engine.rulesets.killteam.moves import enemy_zone, falling_dice, move_area
from tests.rulesets.killteam.table import Table


@pytest.mark.parametrize(
    ("drop", "dice"),
    [(9, 2), (Fraction(124, 10), 3), (6, 0), (7, 1), (8, 1), (12, 3), (3, 0)],
)
def test_s13_s14_s15_falling_dice(drop: int | Fraction, dice: int) -> None:
    """S13: 9" -> 2D6; S14: 12.4" -> 3D6; S15: 6" -> no check (needs more than 6")."""
    assert falling_dice(drop) == dice


def ledge(t: Table, height: int) -> None:
    """Give the table a platform ``height``" tall on columns 0-1, open ground beyond."""
    width, rows = 8, 4
    terrain = tuple(
        tuple(Terrain.COVER if x <= 1 else Terrain.OPEN for x in range(width)) for _ in range(rows)
    )
    elevation = tuple(tuple(height if x <= 1 else 0 for x in range(width)) for _ in range(rows))
    t.state.board = Board(width, rows, terrain, elevation)


def test_s13_jump_down_9_rolls_two_falling_dice() -> None:
    """S13: a 9" jump: 2D6, each 5-6 one mortal wound; the opponent rolls the injury."""
    t = Table(dice=[(5, "falling"), (3, "falling"), (2, "injury")])
    ledge(t, 9)
    jumper = t.add(0, "trooper", (1, 1))
    t.add(1, "brute", (7, 3))
    t.run(normal_move(t.state, t.ctx, jumper), ["3,1"])
    assert jumper.cell == Cell(3, 1) and jumper.flesh_wounds == 1 and jumper.wounds == 1
    assert t.find("FallingChecked")[0].get("wounds") == 1
    assert t.dice.rolls[-1].player == 1  # §10 A23: the opponent makes the injury roll
    assert t.dice.unused == 0
    assert "falling check 2D6" in next(o.label for o in t.decisions[0].options if o.key == "3,1")


def test_s15_jump_down_6_is_safe_and_free() -> None:
    """S15: a 6" drop needs no falling check and costs nothing vertical."""
    t = Table()
    ledge(t, 6)
    jumper = t.add(0, "trooper", (1, 1))
    t.add(1, "brute", (7, 3))
    t.run(normal_move(t.state, t.ctx, jumper), ["6,1"])
    assert jumper.cell == Cell(6, 1) and not t.find("FallingChecked")


def test_climb_down_instead_of_jumping_when_affordable() -> None:
    """§6.3.7 item 4, §7 #12: climbing down costs the height but needs no falling check."""
    t = Table(dice=[(6, "Advance")])
    ledge(t, 9)
    climber = t.add(0, "trooper", (1, 1))
    t.add(1, "brute", (7, 3))
    snapshot_engagement(t.state)
    t.run(activate(t.state, t.ctx, climber), ["advance", "2,1", "climb"])
    assert t.decisions[-1].keys() == ("climb", "jump")
    assert climber.cell == Cell(2, 1) and not t.find("FallingChecked")
    assert t.dice.unused == 0


def test_climbing_up_costs_the_height() -> None:
    """§6.3.7 item 2, §11.3: up 3" costs 3 more inches; up 1" is free."""
    t = Table()
    ledge(t, 3)
    model = t.add(0, "trooper", (4, 1))
    t.add(1, "brute", (7, 3))
    area = move_area(t.state, model, 6, path_avoid=enemy_zone(t.state, model))
    assert area.ends[Cell(1, 1)].cost == 6  # 3 steps + 3" of climbing
    assert Cell(0, 1) not in area.ends


def test_fly_ignores_heights_and_crosses_models() -> None:
    """PROPOSED §6.3.7 item 6: FLY pays no climb, never falls, may pass over models."""
    t = Table()
    ledge(t, 9)
    flyer = t.add(0, "trooper", (4, 1))
    flyer.sheet = dataclasses.replace(flyer.sheet, keywords=flyer.sheet.keywords | {"FLY"})
    t.add(0, "trooper", (3, 1))
    t.add(1, "brute", (7, 3))
    area = move_area(t.state, flyer, 6, path_avoid=enemy_zone(t.state, flyer))
    assert area.ends[Cell(1, 1)].cost == 3 and area.ends[Cell(1, 1)].drop == 0
    assert Cell(3, 1) not in area.ends  # may pass a model, not end on it
