"""The replay timeline over the committed replays: verdicts, seeking, moving, forking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack
import pytest

from engine.errors import ReplayMismatchError, SaveError
from engine.rulesets import RULESETS
from engine.save import SaveData, decode, read_save, replay
from engine.timeline import Timeline, Verdict, build_timeline
from engine.transcript import timeline_transcript
from tests.replays.make import GAMES, HERE, path_of

NAMES = [ruleset.INFO.name for ruleset in RULESETS]


def edited(name: str, change: Callable[[dict[str, Any]], None]) -> SaveData:
    """The committed replay of ``name`` with its msgpack document changed by ``change``."""
    doc = msgpack.unpackb(path_of(name).read_bytes())
    change(doc)
    return decode(msgpack.packb(doc), f"edited {name}")


def middle_roll_step(data: SaveData) -> tuple[int, int]:
    """A roll half way through the game, and the step whose checkup covers it."""
    index = len(data.rolls) // 2
    step = next(s for s, c in enumerate(data.checkups, start=1) if c.rolls > index)
    return index, step


def test_every_registered_ruleset_has_a_committed_replay() -> None:
    """A ruleset that lands needs a line in tests/replays/make.py (and its file)."""
    assert sorted(name for name, _, _ in GAMES) == sorted(NAMES)
    assert sorted(p.stem for p in HERE.glob("*.wargrid")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_committed_replay_is_verified_and_every_step_is_kept(name: str) -> None:
    data = read_save(path_of(name))
    tl = build_timeline(data)
    assert tl.verdict is Verdict.VERIFIED, tl.status()
    assert tl.last == len(data.choices) == tl.reach
    assert all(m.view is not None for m in tl.moments)
    assert [m.step for m in tl.moments] == list(range(tl.last + 1))
    rolls = [m.rolls for m in tl.moments]
    events = [m.events for m in tl.moments]
    assert rolls == sorted(rolls) and events == sorted(events)
    assert (rolls[-1], events[-1]) == (len(data.rolls), len(data.events))
    assert tl.pending(tl.last) is None and data.result is not None  # the games are over
    assert [b.round for b in tl.bookmarks] == list(range(tl.bookmarks[0].round, len(tl.bookmarks)))


@pytest.mark.parametrize("name", NAMES)
def test_seeking_shows_what_re_running_to_that_step_gives(name: str) -> None:
    """A lookup equals the slow way: replay the first ``s`` choices and look."""
    data = read_save(path_of(name))
    tl = build_timeline(data)
    for step in (0, 1, tl.last // 3, tl.last - 1, tl.last):
        game = replay(data, verify=False, upto=step)
        assert tl.view(step) == game.view()
        assert tl.at(step).rolls == len(game.rolls) and tl.at(step).events == len(game.events)
        assert tl.pending(step) == game.pending
        if step:
            assert tl.decision(step) == game.answered[-1]
            assert tl.choice(step) == game.choices[-1]


def test_moving_by_phase_and_round() -> None:
    tl = build_timeline(read_save(path_of("killteam")))
    second = tl.round_start(2)
    assert second is not None and tl.at(second).round == 2 and tl.at(second - 1).round == 1
    assert tl.round_start(99) is None
    assert tl.next_round(second) == tl.round_start(3)
    assert tl.previous_round(second) == tl.round_start(1)
    assert tl.previous_round(second + 1) == second  # first back to this round's start
    start = tl.next_phase(second)
    assert (tl.at(start).round, tl.at(start).phase) != (tl.at(second).round, tl.at(second).phase)
    assert tl.previous_phase(start) == tl.previous_phase(start - 1) < start
    assert tl.next_phase(tl.last) == tl.last and tl.previous_phase(0) == 0


def test_luck_up_to_a_step_grows_into_the_whole_game() -> None:
    tl = build_timeline(read_save(path_of("killteam")))
    assert tl.luck(0) == ()
    assert tl.luck(tl.last) == tl.luck() != ()
    dice = [sum(x.dice for x in tl.luck(s)) for s in range(0, tl.last + 1, 10)]
    assert dice == sorted(dice)


def test_a_changed_die_is_reported_as_diverged_at_its_step() -> None:
    """The issue's acceptance line: one die edited in a save names the right step."""
    original = read_save(path_of("killteam"))
    index, step = middle_roll_step(original)

    def change(doc: dict[str, Any]) -> None:
        faces = doc["rolls"][index][4]
        faces[0] = faces[0] % 6 + 1

    tl = build_timeline(edited("killteam", change))
    assert tl.verdict is Verdict.DIVERGED
    assert tl.diverged_at == step
    assert tl.status().startswith(f"diverged at step {step}: roll #{index + 1}: expected ")
    assert tl.reach == tl.last  # the board goes on as this engine re-runs the choices
    assert tl.rolls[index] != original.rolls[index]  # the log is the file's own record


def test_another_version_is_shown_unverified_from_its_records() -> None:
    def older(doc: dict[str, Any]) -> None:
        doc["engine_version"] = "0.0.1"

    tl = build_timeline(edited("killteam", older))
    assert tl.verdict is Verdict.UNVERIFIED and tl.diverged_at is None
    assert "written by engine 0.0.1" in tl.status() and tl.reach == tl.last


def test_an_unverified_file_this_engine_cannot_follow_keeps_its_log() -> None:
    data = read_save(path_of("killteam"))
    _, step = middle_roll_step(data)

    def older_and_odd(doc: dict[str, Any]) -> None:
        doc["ruleset_version"] = "0"
        doc["choices"][step - 1][1] = "no such option"

    tl = build_timeline(edited("killteam", older_and_odd))
    assert tl.verdict is Verdict.UNVERIFIED
    assert tl.reach == step - 1
    assert f"refuses the recorded choice of step {step}" in tl.status()
    refused = tl.decision(step)  # the question is known, the recorded answer is not in it
    assert refused is not None and tl.chosen(step) is None and tl.decision(step + 1) is None
    assert tl.view(tl.last) == tl.view(step - 1)
    assert tl.at(tl.last).events == len(data.events)  # the record is shown to the end
    text = list(timeline_transcript(tl))
    asked = f"{refused.prompt} -> no such option"
    assert any(line.startswith(f"[{step}] ") and line.endswith(asked) for line in text)
    choice = data.choices[step]
    assert f"[{step + 1}] option {choice.key!r} (a decision this engine did not reach)" in text
    with pytest.raises(ReplayMismatchError, match="only follows the file to step"):
        tl.fork(step)


def test_fork_is_a_live_game_at_the_step() -> None:
    data = read_save(path_of("killteam"))
    tl = build_timeline(data)
    step = tl.last // 2
    game = tl.fork(step)
    assert game.choices == list(data.choices[:step])
    assert game.state_hash() == data.checkups[step - 1].state_hash
    assert game.pending is not None and game.pending == tl.pending(step)


def test_a_newer_format_is_refused_with_a_clear_message() -> None:
    def newer(doc: dict[str, Any]) -> None:
        doc["format_version"] = 99

    with pytest.raises(SaveError, match=r"written by a newer wargrid \(save format 99\).*upgrade"):
        edited("killteam", newer)


def test_transcript_has_the_verdict_rounds_phases_choices_rolls_and_events() -> None:
    tl: Timeline = build_timeline(read_save(path_of("killteam")), views=False)
    lines = list(timeline_transcript(tl))
    assert lines[0] == "== Hold the Crossroads (Kill Team (2018)), seed 21"
    assert lines[1] == "== verified: every roll and state matches this engine"
    assert "-- Round 2 · Shooting" in lines
    assert sum(line.startswith("[") for line in lines) == tl.last
    assert any(line.startswith("      roll #1 Vanguard Militia: 1D6 for ") for line in lines)
    assert lines[-1] == "    * Game over. Vanguard Militia wins on VP, 2 to 0."
