"""Rolls and events in true order: each dice line right after the event that caused it,
in the transcript (``wargrid replay --text``), from new saves and from saves written
before events carried their roll stamp."""

from __future__ import annotations

from pathlib import Path

import msgpack

from engine.chronicle import in_order, shown, stamped
from engine.dice import Roll
from engine.events import Event
from engine.game import Checkup
from engine.save import decode, read_save, replay, to_bytes
from engine.timeline import timeline_of_file
from engine.transcript import timeline_transcript, transcript

REPLAYS = Path(__file__).parents[1] / "replays"
KILLTEAM = REPLAYS / "killteam.wargrid"
CONFRONTATION = REPLAYS / "confrontation.wargrid"


def line_of(lines: list[str], text: str) -> int:
    return next(n for n, line in enumerate(lines) if text in line)


def test_each_roll_follows_the_event_stamped_before_it() -> None:
    rolls = [Roll(i, 0, f"roll {i}", "1D6", (i + 1,)) for i in range(3)]
    charge = Event("ChargeDeclared", "B7 charges A3", rolls=0)
    overwatch = Event("Overwatch", "A3 fires overwatch", rolls=1)  # after roll 0 (hit)
    done = Event("ChargeRolled", "B7 rolls 3+4", rolls=3)
    merged = list(in_order(rolls, [charge, overwatch, done]))
    assert merged == [charge, rolls[0], overwatch, rolls[1], rolls[2], done]
    # Slices of the logs keep their absolute roll indices.
    assert list(in_order(rolls[2:], [done])) == [rolls[2], done]
    # Hostile stamps (negative, decreasing, huge) place every roll exactly once.
    odd = [Event("A", "a", rolls=99), Event("B", "b", rolls=-4)]
    assert list(in_order(rolls, odd)) == [*rolls, *odd]


def test_an_event_without_text_is_no_log_line() -> None:
    rolls = [Roll(0, 0, "nerve test of B8", "1D6", (3,))]
    test = Event("NerveTestRolled", "", {"total": 3}, rolls=1)  # after its dice
    shaken = Event("ModelShaken", "B8 is shaken", rolls=1)
    assert list(in_order(rolls, [test, shaken])) == [rolls[0], shaken]
    assert shown([test, shaken, test]) == 1


def test_old_saves_get_stamps_from_their_checkups() -> None:
    rolls = [Roll(i, 0, "r", "1D6", (1,)) for i in range(4)]
    events = [Event("E", str(n), seq=n) for n in range(4)]
    checkups = [Checkup(1, 1, "x"), Checkup(3, 3, "y")]
    assert [e.rolls for e in stamped(events, checkups, rolls)] == [1, 3, 3, 4]


def test_the_transcript_puts_the_nerve_test_after_the_morale_phase_starts() -> None:
    # Verified, the file is told from the replay.
    lines = list(timeline_transcript(timeline_of_file(KILLTEAM)))
    assert line_of(lines, "Round 1: Morale phase") < line_of(lines, "nerve test of A6")
    assert line_of(lines, "B8 Reaver Hex-caller attempts Psybolt") < line_of(
        lines, "psychic test of B8: 3, 6 = 9"
    )
    assert line_of(lines, "fires Plasma carbine (standard) at B2") < line_of(
        lines, "hit rolls vs B2: 4 vs"
    )


def test_new_saves_record_the_stamps() -> None:
    raw = msgpack.unpackb(KILLTEAM.read_bytes(), raw=False)
    assert {len(e) for e in raw["events"]} == {7}  # written with the stamp
    game = replay(read_save(KILLTEAM), verify=True)
    assert [e.rolls for e in decode(to_bytes(game), "x").events] == [e.rolls for e in game.events]
    morale = next(e for e in game.events if e.text == "Round 1: Morale phase")
    nerve = next(r for r in game.rolls if "nerve test of" in r.reason)  # the first one
    assert morale.rolls == nerve.index  # the test was rolled right after the phase began
    lines = list(transcript(game))
    assert line_of(lines, "Round 1: Morale phase") < line_of(lines, "nerve test of A6")


def test_old_saves_still_verify_and_are_told_in_order(tmp_path: Path) -> None:
    raw = msgpack.unpackb(CONFRONTATION.read_bytes(), raw=False)
    raw["events"] = [event[:6] for event in raw["events"]]  # written before the stamp
    old = tmp_path / "old.wargrid"
    old.write_bytes(msgpack.packb(raw, use_bin_type=True))
    game = replay(read_save(old), verify=True)
    stamps = [e.rolls for e in game.events]
    assert stamps == sorted(stamps) and stamps[-1] <= len(game.rolls)
    assert [e.rolls for e in decode(to_bytes(game), "x").events] == stamps
