"""The Apocalypse log as players read it: verbs agree with plural unit names (a Greek
letter after the name changes nothing), and no line repeats the dice line just before it
(issue #14: "Initiative dice: ..." under both initiative dice lines, hit counts under the
hit dice)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.save import read_save, replay
from engine.transcript import transcript

APOCALYPSE = Path(__file__).parents[2] / "replays" / "apocalypse.wargrid"


def test_plural_units_take_plural_verbs() -> None:
    texts = [e.text for e in replay(read_save(APOCALYPSE)).events]
    assert "Sky Raiders deploy at (34,26)" in texts
    assert "Scrap Gunners α are out of command: Deserter marker" in texts
    assert 'Scrap Gunners β move to (32,25) (3")' in texts
    assert "Scrap Gunners α shoot: Scrap cannons at Legion Captain α" in texts
    assert "Scrap Gunners β desert (out of command): destroyed" in texts
    plural = r"(Sky Raiders|Scrap Gunners [αβ])"
    wrong = re.compile(rf"^{plural} (is|has|[a-z]+(?<!s)s)\b|^{plural} .*\bits\b")
    assert not [t for t in texts if wrong.search(t)]


def test_no_line_repeats_the_dice_line_before_it() -> None:
    game = replay(read_save(APOCALYPSE))
    lines = list(transcript(game))
    repeated = re.compile(r"Initiative dice|to hit: \d|morale: \d|Precision Barrage on")
    assert not [line for line in lines if line.startswith("    *") and repeated.search(line)]
    first = next(n for n, line in enumerate(lines) if "1D12 for initiative" in line)
    assert lines[first + 2].endswith("has the Initiative")  # right after both dice lines
    assert any(re.search(r"now has \d small and \d large blast markers$", x) for x in lines)
