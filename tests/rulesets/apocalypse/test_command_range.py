"""Command range on screen: warnings on moves and arrivals, the view's ranges (§6.3.1).

Playtest 2: units more than 12" from their Commander quietly got Deserter markers and
died in the Damage phase; a move, an arrival or a deployment that ends out of range now
says so, and the view carries each Commander's range for the TUI's range key.
"""

from __future__ import annotations

from engine.board import Cell
from engine.footprints import rect_distance, square
from engine.rulesets.apocalypse.command import command_ranges
from engine.rulesets.apocalypse.geometry import command_warning
from engine.rulesets.apocalypse.movement import move_action
from engine.rulesets.apocalypse.state import RESERVE
from tests.rulesets.apocalypse.table import Table


def test_a_move_that_ends_out_of_command_range_says_so() -> None:
    t = Table()
    det = t.detachment(0, order="ADVANCE")
    captain = t.add(0, "legion_captain", (5, 5), det=det)
    squad = t.add(0, "legion_line_squad", (5, 14), det=det)
    t.run(move_action(t.state, t.ctx, squad, 6), ["stay"])
    labels = {o.key: o.label for o in t.decisions[0].options}
    assert labels["5,18"] == 'Move to (5,18) (4"): out of command range: 13" from the Commander'
    assert labels["5,17"] == 'Move to (5,17) (3")'
    assert "Deserter marker" in t.decisions[0].option("5,18").detail  # type: ignore[union-attr]
    assert command_warning(t.state, captain, Cell(5, 0)) == "leaves 1 unit out of command range"


def test_no_warning_while_the_commander_is_still_to_deploy_but_one_in_reserve() -> None:
    t = Table()
    det = t.detachment(0)
    captain = t.add(0, "legion_captain", None, det=det, location="UNDEPLOYED")
    squad = t.add(0, "legion_line_squad", (5, 14), det=det)
    assert command_warning(t.state, squad, Cell(20, 14)) == ""
    t.state.put(captain, RESERVE)
    assert command_warning(t.state, squad, Cell(20, 14)) == (
        "out of command range: the Commander is not on the battlefield"
    )


def test_the_view_carries_each_commanders_range_for_its_detachment() -> None:
    t = Table()
    det = t.detachment(0)
    captain = t.add(0, "legion_captain", (5, 5), det=det)
    squad = t.add(0, "legion_line_squad", (5, 14), det=det)
    other = t.add(1, "horde_warboss", (20, 20))
    ranges = command_ranges(t.state, {})
    mine = next(r for r in ranges if captain.uid in r.models)
    assert mine.models == frozenset({captain.uid, squad.uid})
    assert other.uid not in mine.models
    assert Cell(5, 17) in mine.cells and Cell(5, 18) not in mine.cells
    assert all(rect_distance(square(c, 1), captain.rect) <= 12 for c in mine.cells)
