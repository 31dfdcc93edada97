"""Shooting: field of vision, line of sight, bands, friendly fire, quick reload.

Digest confrontation §6.10; §9 X10, X11.
"""

from __future__ import annotations

from fractions import Fraction

from engine.board import Cell
from engine.decisions import Odds
from engine.rulesets.confrontation.actions import combination_odds, combinations
from engine.rulesets.confrontation.geometry import has_line_of_sight, supercover
from engine.rulesets.confrontation.shooting import (
    quick_reload,
    resolve_shot,
    shoot,
    success_chance,
    visible_targets,
)
from engine.rulesets.confrontation.tables import Wound
from tests.rulesets.confrontation.table import Table, profile, weapon

CROSSBOWMAN = profile("Crossbowman", aim=2, weapon=weapon("Crossbow", 5, 15, 30, 45))
GRISH = profile("Grish", is_hero=True, aim=3, weapon=weapon("Throwing knives", 3, 10, 20, 30))


def test_shooting_into_melee_can_hit_a_friend() -> None:
    """Digest confrontation §9 X10: AIM 2, crossbow, 20 cm (medium, 7): 5 -> 7 hits; the
    target touches the shooter's fighter; distribution roll 2: that fighter is hit."""
    t = Table([5, 2, 3, 4])  # aim, distribution, damage 3/4 (abdomen, 4 + 5 - 3 = 6)
    shooter = t.add(0, (2, 2), prof=CROSSBOWMAN)
    friend = t.add(0, (3, 11))
    target = t.add(1, (2, 11))  # 9 cells: gap 8 cells = 20 cm
    t.add(1, (15, 15))
    t.run(shoot(t.state, t.ctx, shooter), ["B1"])
    opt = t.decisions[0].options[0]
    assert "medium range, difficulty 7" in opt.label
    assert friend.wound is Wound.SERIOUS and target.wound is Wound.HEALTHY
    assert shooter.shots == 1


def test_distribution_four_to_six_hits_the_target() -> None:
    t = Table([5, 4, 1, 1])
    shooter = t.add(0, (2, 2), prof=CROSSBOWMAN)
    t.add(0, (3, 11))
    t.add(1, (2, 11))
    t.run(shoot(t.state, t.ctx, shooter), ["B1"])
    assert "B1 is hit" in t.find("DistributionRolled")[0].text


def test_quick_reload_two_shots_at_plus_two() -> None:
    """Digest confrontation §9 X11: AIM 3, knives 10-20-30; 7.5 cm (short, 6) and 25 cm
    (long, 12): 3 -> 6 hits; 6, re-roll 4 -> 13 hits."""
    t = Table([3, 1, 1, 6, 4, 1, 1])
    grish = t.add(0, (2, 2), prof=GRISH)
    t.add(1, (2, 6), res=20)  # gap 3 cells = 7.5 cm: short
    t.add(1, (2, 13), res=20)  # gap 10 cells = 25 cm: long
    t.run(quick_reload(t.state, t.ctx, grish), ["B1", "B2", "yes"])
    told, shots = t.find("ShotTaken"), t.find("ShotRolled")
    assert ["difficulty 6" in told[0].text, "difficulty 12" in told[1].text] == [True, True]
    assert [s.get("difficulty") for s in shots] == [6, 12]
    assert [s.get("hit") for s in shots] == [True, True]
    assert grish.shots == 2


def test_out_of_range_shot_is_spent() -> None:
    """§6.10 step 2 (A28): beyond long range the shot is used up, no dice."""
    t = Table()
    grish = t.add(0, (0, 0), prof=GRISH)
    t.add(1, (0, 14))
    t.run(resolve_shot(t.state, t.ctx, grish, t.state.fighters["B1"], 0))
    assert grish.shots == 1 and t.find("ShotMissed")


def test_targets_need_the_front_arc_and_sight() -> None:
    """§6.5: front 180° (abeam counts) and line of sight."""
    rows = ["." * 16] * 16
    rows[16 - 1 - 8] = "....#..........."  # a wall at (4, 8)
    t = Table(rows=rows)
    shooter = t.add(0, (4, 4), prof=CROSSBOWMAN, facing=0)
    t.add(1, (4, 12))  # behind the wall
    t.add(1, (10, 4))  # abeam
    t.add(1, (4, 0))  # behind the shooter
    t.add(1, (6, 10))
    assert [e.id for e in visible_targets(t.state, shooter)] == ["B2", "B4"]


def test_line_of_sight_through_a_corner() -> None:
    """§11: a line through a corner is blocked only if both corner cells block."""
    assert supercover(Cell(0, 0), Cell(2, 2)) == (
        [Cell(1, 1)],
        [(Cell(1, 0), Cell(0, 1)), (Cell(2, 1), Cell(1, 2))],
    )
    rows = ["....", "....", "#...", "...."]  # (0, 1) blocks
    t = Table(rows=rows)
    assert has_line_of_sight(t.state.board, Cell(0, 0), Cell(1, 1))
    rows = ["....", "....", "#...", ".#.."]  # (0, 1) and (1, 0) block
    t = Table(rows=rows)
    assert not has_line_of_sight(t.state.board, Cell(0, 0), Cell(1, 1))


def test_hit_chance_of_an_open_ended_test() -> None:
    """Odds shown on target options: a 1 fails, 6s re-roll while short."""
    assert success_chance(1) == Fraction(5, 6)
    assert success_chance(4) == Fraction(1, 2)
    assert success_chance(6) == Fraction(1, 6)
    assert success_chance(8) == Fraction(1, 6) * Fraction(5, 6)


def test_a_target_beyond_long_range_says_the_shot_cannot_hit() -> None:
    """T4, A28: a shot beyond long range is spent. Its option says so with odds of 0,
    as every target in range shows its odds (with none, the computer, which weighs
    options by their odds, took it for a shot of unknown worth and threw shots away);
    it is listed after those in range. With nothing in range, the combinations that
    shoot from here say the same; a walk first may bring a target into range."""
    t = Table()
    shooter = t.add(0, (0, 0), prof=GRISH)  # knives 4-8-12 cells
    t.add(1, (0, 14))  # gap 13 cells: out of range
    t.add(1, (0, 6))  # gap 5 cells: medium
    t.run(shoot(t.state, t.ctx, shooter), ["B1"])  # spent: no dice
    near, far = t.decisions[0].options
    assert "out of range" in far.label and far.odds is not None and far.odds.hit == 0
    assert near.odds is not None and near.odds.hit is not None and near.odds.hit > 0
    t = Table()
    shooter = t.add(0, (0, 0), prof=GRISH)
    t.add(1, (0, 14))
    keys = combinations(t.state, shooter)
    odds = dict(zip(keys, combination_odds(t.state, shooter, keys), strict=True))
    assert [k for k, o in odds.items() if o is not None] == ["shoot", "shoot_walk", "quick_reload"]
    assert odds["shoot"] == odds["shoot_walk"] == odds["quick_reload"] == Odds(hit=Fraction(0))
