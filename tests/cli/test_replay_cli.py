"""``wargrid replay --text`` and ``--verify`` on the committed replays: no terminal UI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine.save import read_save
from tests.replays.make import path_of
from tui.cli import main


def edited(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of the Kill Team replay with its document changed."""
    doc = msgpack.unpackb(path_of("killteam").read_bytes())
    change(doc)
    path = tmp_path / "edited.wargrid"
    path.write_bytes(msgpack.packb(doc))
    return path


def test_text_prints_the_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    """Round and phase headings, who chose what, every roll with its reason and faces."""
    data = read_save(path_of("killteam"))
    assert main(["replay", str(path_of("killteam")), "--text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == [
        "== Hold the Crossroads (Kill Team (2018)), seed 21",
        "== verified: every roll and state matches this engine",
    ]
    assert "-- Setup · Deployment" in lines and "-- Round 4 · Shooting" in lines
    assert sum(line.startswith("[") for line in lines) == len(data.choices)
    first = data.rolls[0]
    faces = ", ".join(map(str, first.faces))
    # Written before rolls carried their checks: the verified re-run says what each was for.
    # Sides, as the events name them, not players ("Ann"): issue #14.
    line = f"      roll #1 Vanguard Militia: {first.dice} for {first.reason}: {faces} (roll-off)"
    assert line in lines
    decision_line = next(line for line in lines if line.startswith("[1] "))
    assert decision_line.startswith("[1] Vanguard Militia: ")
    assert " -> " in decision_line


def test_text_of_another_version_is_the_files_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def older(doc: dict[str, Any]) -> None:
        doc["engine_version"] = "0.0.1"

    assert main(["replay", str(edited(tmp_path, older)), "--text"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("== unverified: written by engine 0.0.1")


def test_verify_names_the_step_of_a_changed_die(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = read_save(path_of("killteam"))
    index = len(data.rolls) // 2
    step = next(s for s, c in enumerate(data.checkups, start=1) if c.rolls > index)

    def change(doc: dict[str, Any]) -> None:
        doc["rolls"][index][4][0] = doc["rolls"][index][4][0] % 6 + 1

    assert main(["replay", str(edited(tmp_path, change)), "--verify"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"wargrid: replay diverged: step {step}, roll #{index + 1}: expected")


def test_verify_passes_on_the_committed_replay(capsys: pytest.CaptureFixture[str]) -> None:
    choices = len(read_save(path_of("killteam")).choices)  # the replay is rewritten at times
    assert main(["replay", str(path_of("killteam")), "--verify"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith(f"verified: {choices} choices")


def test_a_newer_format_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def newer(doc: dict[str, Any]) -> None:
        doc["format_version"] = 3

    for flag in ("--text", "--verify"):
        assert main(["replay", str(edited(tmp_path, newer)), flag]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "written by a newer wargrid (save format 3)" in err
