"""Apocalypse names a round of play as its spec does (§5.3: "Turn 1 begins with the
Initiative phase"): its log said "Turn 1: Orders phase" while the header, the replay's
bookmarks and `wargrid replay --text` said "Round 1" (issue #14 playtest)."""

from __future__ import annotations

from engine.save import read_save
from engine.timeline import build_timeline
from engine.transcript import timeline_transcript
from tests.replays.make import path_of


def test_the_apocalypse_replay_names_turns_in_its_bookmarks_headings_and_rows() -> None:
    timeline = build_timeline(read_save(path_of("apocalypse")))
    labels = [mark.label for mark in timeline.bookmarks[1:]]
    assert labels[:2] == ["Turn 1", "Turn 2"]
    headings = [line for line in timeline_transcript(timeline) if line.startswith("-- ")]
    assert "-- Turn 1 · Initiative" in headings and "-- Turn 2 · Orders" in headings
    assert not any("Round" in line for line in headings)
    first = timeline.round_start(1)
    assert first is not None
    view = timeline.at(first).view
    assert view is not None and view.round_word == "Turn"


def test_the_other_rulesets_keep_their_rounds() -> None:
    timeline = build_timeline(read_save(path_of("killteam")))
    assert timeline.bookmarks[1].label == "Round 1"
