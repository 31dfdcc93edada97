"""Fewer questions with one meaningful answer, and options that say what they lead to.

Issue #23, playtest 3 (Apocalypse big game): a unit picked to act was asked "shoot or
fight?" with one action; Steady Nerves was offered for a test that could not fail; the
embark question led with "Embark"; "No more moves" was a digit next to the units; move
cells never said which end in base contact (where a unit may fight).
"""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.apocalypse.activation import _step_one, _step_two
from engine.rulesets.apocalypse.attacks import resolve_attacks
from engine.rulesets.apocalypse.card_effects import PLAYABLE
from engine.rulesets.apocalypse.movement import move_action
from engine.rulesets.apocalypse.window import Window
from tests.rulesets.apocalypse.table import Table


def test_a_unit_named_with_its_one_action_takes_it_when_picked() -> None:
    t = Table(dice=[(1, "hit"), (1, "hit"), (1, "hit")])
    det = t.detachment(0, order="ADVANCE")
    squad = t.add(0, "legion_line_squad", (10, 10), det=det)
    t.add(1, "horde_brute_mob", (10, 25))
    t.run(_step_two(t.state, t.ctx, det), [squad.uid, "B1"])
    pick = t.decisions[0]
    assert pick.option(squad.uid).label == f"{squad.name}: shoot"  # type: ignore[union-attr]
    assert "target for Battle rifles" in t.decisions[1].prompt  # no "shoot or fight?"
    assert squad.shot


def test_steady_nerves_is_offered_only_when_the_morale_test_can_fail() -> None:
    t = Table()
    mob = t.add(1, "horde_brute_mob", (5, 5))  # Ld 7
    win = Window("W-MORALE", (1,), unit=mob.uid)
    mob.blast_small = 1  # 6 + 1 = 7: never more than the Ld
    assert not PLAYABLE["steady_nerves"](t.state, 1, win)
    mob.blast_small = 2  # 6 + 2 = 8 fails
    assert PLAYABLE["steady_nerves"](t.state, 1, win)


def test_stay_leads_the_embark_question_and_moves_say_base_contact() -> None:
    t = Table()
    det = t.detachment(0, order="ADVANCE")
    carrier = t.add(0, "legion_carrier", (10, 10), det=det)
    squad = t.add(0, "legion_line_squad", (14, 10), det=det)
    mob = t.add(1, "horde_brute_mob", (14, 15))
    t.run(move_action(t.state, t.ctx, squad, 6), ["14,13", "no"])
    labels = {o.key: o.label for o in t.decisions[0].options}
    assert labels["14,13"] == f'Move to (14,13) (3"): base contact with {mob.name}'
    assert labels["14,11"] == 'Move to (14,11) (1")'
    embark = t.decisions[1]
    assert [o.key for o in embark.options] == ["no", carrier.uid]
    assert squad.anchor == Cell(14, 13)


def test_no_more_moves_is_an_ending_option() -> None:
    """It ends the move step for every unit left: 'e' with a confirmation, not a digit."""
    t = Table()
    det = t.detachment(0, order="ADVANCE")
    t.add(0, "legion_line_squad", (10, 10), det=det)
    t.add(0, "legion_line_squad", (20, 10), det=det)
    t.run(_step_one(t.state, t.ctx, det), ["done"])
    done = t.decisions[0].option("done")
    assert done is not None and done.ends


def test_attack_lines_use_a_plain_possessive() -> None:
    t = Table(dice=[(1, "hit"), (1, "hit")])
    raiders = t.add(1, "horde_sky_raiders", (10, 10), name="Sky Raiders")
    squad = t.add(0, "legion_line_squad", (10, 14))
    resolve_attacks(t.ctx, raiders, raiders.sheet.weapons[0], squad, 2, 5)
    assert any(
        r.reason == "hit rolls: Sky Raiders' Flame pistols at" + f" {squad.name}"
        for r in t.dice.rolls
    )


def test_a_transport_says_its_passengers_cannot_get_out_once_it_moves() -> None:
    """§6.8.2 step 1: playtest 3 moved the Carrier first and Line Squad β was stuck inside."""
    t = Table()
    det = t.detachment(0, order="ADVANCE")
    carrier = t.add(0, "legion_carrier", (10, 10), det=det, name="Legion Carrier")
    t.add(0, "legion_line_squad", None, det=det, name="Line Squad β", location="EMBARKED")
    squad = t.state.units["A2"]
    squad.transport, carrier.passengers = carrier.uid, [squad.uid]
    t.run(_step_one(t.state, t.ctx, det), ["done"])
    labels = {o.key: o.label for o in t.decisions[0].options}
    assert labels[carrier.uid] == "Legion Carrier (Line Squad β cannot get out once it moves)"
    assert labels[squad.uid] == "Line Squad β"
