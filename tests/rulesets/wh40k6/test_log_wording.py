"""The wh40k6 log as players read it: verbs agree with plural side and unit names, and no
line repeats the dice line just before it (issue #14: "Iron Wardens fails to seize the
initiative (1)" under its dice; "Sky Raiders rolls 6, 2 for difficult terrain: it may
move 6"")."""

from __future__ import annotations

import re
from pathlib import Path

from engine.rulesets.wh40k6.morale import go_to_ground
from engine.save import read_save, replay
from engine.transcript import transcript
from tests.rulesets.wh40k6.table import Table

WH40K6 = Path(__file__).parents[2] / "replays" / "wh40k6.wargrid"


def test_plural_units_and_sides_take_plural_verbs() -> None:
    game = replay(read_save(WH40K6))
    texts = [e.text for e in game.events]
    assert any(re.fullmatch(r'Sky Raiders move \d+" [a-z-]+', t) for t in texts)
    assert any(re.fullmatch(r'Sky Raiders run \d+" [a-z-]+', t) for t in texts)
    assert "Iron Wardens place objective 2 at (7,10) (3 VP)" in texts
    assert "Iron Wardens fail to seize the initiative" in texts
    assert any(
        re.fullmatch(r'Sky Raiders may move \d" through difficult terrain', t) for t in texts
    )
    plural = r"(Iron Wardens|Sky Raiders|Warden Rangers|Warden Outriders)"
    wrong = re.compile(rf"^{plural} (is|has|[a-z]+(?<!s)s)\b|^{plural} .*\bits\b")
    assert not [t for t in texts if wrong.search(t)]


def test_going_to_ground_agrees_with_the_unit() -> None:
    table = Table([])
    rangers = table.add(0, "warden_rangers", [(10, 5), (11, 5)], uid="A5")
    go_to_ground(table.state, table.ctx, rangers)
    assert table.texts("WentToGround") == ["Warden Rangers go to ground"]


def test_no_line_repeats_the_dice_line_before_it() -> None:
    game = replay(read_save(WH40K6))
    lines = list(transcript(game))
    repeated = re.compile(r"rolls? \d(, \d)* for|: rolled \d|\(\d\)$|against Ld \d+$|hit \(needed")
    assert not [line for line in lines if line.startswith("    *") and repeated.search(line)]
    assert any("End of game turn" in line and "goes on" in line for line in lines)
