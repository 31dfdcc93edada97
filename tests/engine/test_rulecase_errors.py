"""An engine crash in a rule case is that case's ERROR; the other cases still run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import engine.rulesets.confrontation.shooting as shooting
import engine.rulesets.confrontation.state as cstate
from engine.rulecase import run_case
from tui.cli import main

CASES = Path(__file__).parents[1] / "cases" / "confrontation"
SHOT = CASES / "x6-3-card-mate-shot-dead-does-not-act.toml"
STRIKE = CASES / "e11-master-strike.toml"


def _crash_when_aiming(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in rules bug: looking for targets fails (as §6.3 once did, issue 22)."""

    def broken(state: object, f: object) -> list[object]:
        raise AssertionError("a dead fighter looks for targets")

    monkeypatch.setattr(shooting, "visible_targets", broken)


def test_a_crash_inside_a_choice_is_an_error_naming_exception_place_and_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _crash_when_aiming(monkeypatch)
    result = run_case(SHOT)
    assert not result.passed and result.failures == []
    text = result.describe()
    assert text.startswith(f"ERROR {SHOT}: ")
    assert "AssertionError: a dead fighter looks for targets" in text
    assert "choice 'shoot'" in text and "What does Lantern Crossbowman A1.1 do?" in text
    assert "in broken" in text  # the innermost frame


def test_a_crash_before_any_choice_is_an_error_too(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: object, card: str) -> list[object]:
        raise KeyError(card)

    monkeypatch.setattr(cstate.CState, "card_fighters", broken)
    text = run_case(SHOT).describe()
    assert text.startswith("ERROR ") and "KeyError: 'A1'" in text
    assert "last decision:" in text


def test_check_runs_every_case_of_a_folder_with_a_crashing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SHOT, tmp_path / "a-crashes.toml")
    shutil.copy(STRIKE, tmp_path / "b-passes.toml")
    (tmp_path / "c-fails.toml").write_text(
        STRIKE.read_text().replace("strength = 10", "strength = 11")
    )
    _crash_when_aiming(monkeypatch)
    assert main(["check", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    verdicts = [line.split(" ", 1)[0] for line in lines if not line.startswith(" ")]
    assert verdicts == ["ERROR", "PASSED", "FAILED", "1"]
    assert lines[-1] == "1 passed, 2 failed (1 with an engine error)"
    monkeypatch.undo()
    assert main(["check", str(tmp_path / "a-crashes.toml")]) == 0
