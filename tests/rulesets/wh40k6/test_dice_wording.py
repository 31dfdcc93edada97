"""Dice lines read as English (issue #14 playtest): "Iron Wardens rolled 3D6 for to wound:
Heavy repeater" was the log's line for a wound roll; the reason now names the rolls."""

from __future__ import annotations

from engine.rulesets.wh40k6.attacks import Group, roll_hits, roll_wounds
from engine.rulesets.wh40k6.movement import moving_phrase, moving_words
from tests.rulesets.wh40k6.table import Table, catalogue


def test_hit_re_roll_and_wound_lines_read_for_hit_rolls_and_wound_rolls() -> None:
    # BS 4 twin-linked: three shots 1, 5, 6 (one miss), the miss re-rolled 4 (a hit);
    # S4 against T4 wounds on 4+: 4, 3, 6.
    table = Table(
        [(1, "hit rolls"), 5, 6, (4, "re-rolls of missed hits"), (4, "wound rolls"), 3, 6]
    )
    rifle = catalogue().weapons["service_rifle"]
    group = Group("Service rifle (S4 AP5)", rifle, 4, 5, 4, reroll=4, shots=["a", "b", "c"])
    assert roll_hits(table.ctx, 0, group) == ["a", "b", "c"]
    assert roll_wounds(table.ctx, 0, group, 4) == ["a", "c"]
    lines = [roll.describe() for roll in table.dice.rolls]
    assert [line.split(": ")[0] for line in lines] == [
        "3D6 for hit rolls",
        "1D6 for re-rolls of missed hits",
        "3D6 for wound rolls",
    ]
    assert all(": Service rifle (S4 AP5): " in line for line in lines)
    assert not any(" for to " in line for line in lines)


def test_a_move_flat_out_reads_as_english() -> None:
    assert [moving_phrase(v) for v in ("move", "run", "flat out")] == [
        "moves",
        "runs",
        "moves flat out",
    ]
    assert moving_words("flat out") == "move flat out"
