"""The Kill Team log as players read it: verbs agree with plural team names, and no line
repeats the dice line just before it (issue #14 playtest: "Ashen Reavers ends its
movement", "B11 Reaver Brute nerve test: 2+4 = 6 against Ld 6, passes" under its dice)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.save import read_save, replay
from engine.transcript import transcript

KILLTEAM = Path(__file__).parents[2] / "replays" / "killteam.wargrid"


def test_team_names_take_agreeing_verbs_and_pronouns() -> None:
    game = replay(read_save(KILLTEAM))
    texts = [e.text for e in game.events]
    assert "Ashen Reavers end their movement" in texts
    assert "Vanguard Militia ends its movement" in texts
    assert "Ashen Reavers gain 2 CP (2 in all)" in texts
    assert "Vanguard Militia gains 2 CP (2 in all)" in texts
    wrong = re.compile(r"^Ashen Reavers (is|has|[a-z]+s) |Ashen Reavers .* its ")
    assert not [t for t in texts if wrong.search(t)]


def test_no_line_repeats_the_dice_line_before_it() -> None:
    game = replay(read_save(KILLTEAM))
    quiet = {"NerveTestRolled", "PsychicTestRolled", "DieRerolled", "WoundsRolled"}
    found = {e.kind for e in game.events if e.kind in quiet}
    assert found >= {"NerveTestRolled", "PsychicTestRolled", "WoundsRolled"}
    assert all(e.text == "" for e in game.events if e.kind in quiet)
    # The events stay, with their fields, for panels and tests.
    nerve = next(e for e in game.events if e.kind == "NerveTestRolled")
    assert isinstance(nerve.get("total"), int)
    lines = list(transcript(game))
    assert not [line for line in lines if re.search(r"nerve test:|succeed$|rolled \d$", line)]
    assert not [line for line in lines if line.strip() == "*"]
    # The dice lines themselves still say what each roll was for and how it read.
    nerve_line = next(n for n, line in enumerate(lines) if "for nerve test of A6" in line)
    assert re.search(r": \d vs \d or less \(Ld 6.*\): (passes|shaken)$", lines[nerve_line])
