"""The fatigue log as players read it: verbs agree with plural side and unit names, and no
line repeats the dice line just before it (issue #14 playtest: "Dustroad Wardens has 7
FP", "Ashfang Scavengers passes", "Road Spears deploys: ...", "Road Spears moves: ...")."""

from __future__ import annotations

import re
from pathlib import Path

from engine.board import Cell
from engine.rulesets.fatigue.damage import wound
from engine.rulesets.fatigue.flight import flee
from engine.save import read_save, replay
from engine.transcript import transcript
from tests.replays.make import play
from tests.rulesets.fatigue.table import Table

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
    assert strikes and all(re.search(r"\(step \d\) strikes .*: \d+ hits?$", s) for s in strikes)
    stupid = next(n for n, line in enumerate(lines) if "for stupidity test of" in line)
    assert re.search(r": \d vs 3 or less \(Morale 3\): (passes|fails)$", lines[stupid])


def test_one_step_and_one_wound_are_said_in_the_singular() -> None:
    """Played: "Scav Pack flees 1 steps", "... takes 1 damage (...), 1 wounds left"."""
    table = Table(dice=[(1, "flight distance")])
    spears = table.add(0, "Road Spears", [(10, 10), (11, 10)])
    chief = table.add(1, "Ashfang Chief", [(10, 14)])
    flee(table.state, table.ctx, spears, Cell(10, 14))
    wound(table.state, table.ctx, chief.models[0], 2, "a test")
    texts = [e.text for e in table.events]
    assert "Road Spears flee 1 step" in texts
    assert "B1 Ashfang Chief takes 2 damage (a test), 1 wound left" in texts
