"""Fatigue's to-hit rolls: what they need, and the odds shown before shooting (issue #15)."""

from __future__ import annotations

from fractions import Fraction

from engine.rulesets.fatigue.activation import activate
from engine.rulesets.fatigue.checks import hit_check
from engine.rulesets.fatigue.shooting import shot_odds
from tests.rulesets.fatigue.test_shooting import longgun_table


def test_a_natural_6_always_hits_and_a_natural_1_always_misses() -> None:
    assert hit_check(-5, 3).chance() == Fraction(1, 6)
    assert hit_check(+5, 6).chance() == Fraction(5, 6)


def test_the_shooting_target_shows_the_chance_and_the_dice_line_says_why() -> None:
    """D14's Longguns shoot at the Road Spears, their only target: not asked, and the note
    saying so carries the exact chance of the check the shot is then rolled against."""
    table = longgun_table([(5, "shooting to-hit")])
    state = table.state
    longguns, spears = state.units[1], state.units[2]
    expected = shot_odds(state, longguns, spears)
    table.run(activate(state, table.ctx, longguns), ["SHOOT", "B1"])
    assert not any("choose the target" in d.prompt for d in table.decisions)
    note = f"Road Spears are the only target of Relic Longguns [{expected.describe()}]."
    assert (0, note) in table.ctx.notes and expected.hit is not None
    (roll,) = table.dice.rolls
    reading = roll.reading
    assert reading is not None and reading.chance == expected.hit
    assert roll.result().startswith("5 vs ") and "(Def " in roll.result()
