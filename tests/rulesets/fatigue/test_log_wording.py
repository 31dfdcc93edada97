"""The fatigue log as players read it: verbs agree with plural side and unit names, and no
line repeats the dice line just before it (issue #14 playtest: "Dustroad Wardens has 7
FP", "Ashfang Scavengers passes", "Road Spears deploys: ...", "Road Spears moves: ...")."""

from __future__ import annotations

import re
from pathlib import Path

from engine.save import read_save, replay
from engine.transcript import transcript
from tests.replays.make import play

BROKEN_SPAN = Path(__file__).parents[2] / "replays" / "fatigue.wargrid"


def test_side_and_unit_names_take_agreeing_verbs() -> None:
    texts = [e.text for e in play("fatigue-crossroads.toml", 1).events]
    assert "Dustroad Wardens have 7 FP" in texts
    assert "Ashfang Scavengers pass" in texts
    assert "Dustroad Wardens take the North edge" in texts
    assert "Road Spears brace for the enemy" in texts
    assert "Relic Longguns are no longer camouflaged" in texts
    assert any(t.startswith("Road Spears deploy: A2 at") for t in texts)
    assert any(t.startswith("Relic Longguns move: A7 to") for t in texts)
    plural = r"(Dustroad Wardens|Ashfang Scavengers|Road Spears|Relic Longguns)"
    wrong = re.compile(rf"^{plural} (is|has|[a-z]+(?<!s)s)\b|^{plural} .*\bits\b")
    assert not [t for t in texts if wrong.search(t)]


def test_no_line_repeats_the_dice_line_before_it() -> None:
    game = replay(read_save(BROKEN_SPAN))
    tests = [e for e in game.events if e.kind == "MoraleTested"]
    assert tests and all(e.text == "" for e in tests)
    assert all(isinstance(e.get("roll"), int) for e in tests)  # kept for panels and tests
    lines = list(transcript(game))
    assert not [line for line in lines if re.search(r"test: rolled \d|\(\d\):", line)]
    strikes = [line for line in lines if " strikes " in line]
    assert strikes and all(re.search(r"\(step \d\) strikes .*: \d+ hits$", s) for s in strikes)
    stupid = next(n for n, line in enumerate(lines) if "for stupidity test of" in line)
    assert re.search(r": \d vs 3 or less \(Morale 3\): (passes|fails)$", lines[stupid])
