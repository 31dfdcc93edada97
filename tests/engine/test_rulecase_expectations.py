"""Rule cases v2: the game-over event's fields and shared scenario files in a case folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.rulecase import case_files, run_case
from tui.cli import main

CASES = Path(__file__).parents[1] / "cases"
E7 = CASES / "apocalypse" / "e7-death-checked-after-each-marker.toml"


def test_game_over_names_winner_and_cause() -> None:
    text = E7.read_text()
    assert 'winner = 2\ncause = "points destroyed"' in text
    assert run_case(E7).passed


def test_a_wrong_winner_or_cause_fails(tmp_path: Path) -> None:
    for old, new in (("winner = 2", "winner = 1"), ('"points destroyed"', '"victory points"')):
        wrong = tmp_path / "wrong.toml"
        wrong.write_text(E7.read_text().replace(old, new))
        result = run_case(wrong)
        assert not result.passed
        assert "'kind': 'GameEnded'" in result.describe()
        assert "not found" in result.describe()


def test_a_draw_is_winner_zero(tmp_path: Path) -> None:
    rest = CASES / "fatigue" / "d1-rest.toml"
    assert run_case(rest).passed
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(rest.read_text().replace('result = "draw"', 'result = "win"'))
    assert not run_case(wrong).passed


def test_a_shared_scenario_beside_the_cases_is_not_run(tmp_path: Path) -> None:
    shared = CASES / "killteam" / "seed-examples.toml"
    d4 = CASES / "killteam" / "d4-invulnerable-ignores-ap.toml"
    found = list(case_files([CASES / "killteam"]))
    assert shared not in found
    assert d4 in found and 'scenario = "seed-examples.toml"' in d4.read_text()
    assert run_case(d4).passed
    # Named on its own it is run; a file that does not parse is still a case (it fails).
    assert list(case_files([shared])) == [shared]
    (tmp_path / "broken.toml").write_text("ruleset = ")
    assert list(case_files([tmp_path])) == [tmp_path / "broken.toml"]
    assert not run_case(tmp_path / "broken.toml").passed


def test_check_folder_counts_only_cases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("seed-examples.toml", "d4-invulnerable-ignores-ap.toml"):
        shutil.copy(CASES / "killteam" / name, tmp_path / name)
    assert main(["check", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().endswith("1 passed, 0 failed")


GRENADE = CASES / "killteam" / "d12-one-grenade-per-phase.toml"


def test_a_choice_may_say_what_its_decision_must_and_must_not_offer(tmp_path: Path) -> None:
    text = GRENADE.read_text()
    assert 'absent = ["grenade0"]' in text and run_case(GRENADE).passed
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(text.replace('absent = ["grenade0"]', 'absent = ["pass"]'))
    assert "choice 5 ('A2 Militia Trooper: fire which weapons?'): offers ['pass']" in (
        run_case(wrong).describe()
    )
    wrong.write_text(text.replace('offered = ["others"]', 'offered = ["grenade0"]'))
    assert "does not offer ['grenade0'] (options: others, pass)" in run_case(wrong).describe()


def test_the_next_decision_may_be_checked_for_offered_and_absent_keys(tmp_path: Path) -> None:
    """q1: B1 was slain before its fight, so B2, the only model left, is asked to fight."""
    case = CASES / "killteam" / "q1-slain-before-its-fight.toml"
    good = tmp_path / "good.toml"
    good.write_text(
        case.read_text().replace("[expect]\n", '[expect]\noffered = ["fight"]\nabsent = ["B1"]\n')
    )
    assert run_case(good).passed, run_case(good).describe()
    bad = tmp_path / "bad.toml"
    bad.write_text(case.read_text().replace("[expect]\n", '[expect]\nabsent = ["pass"]\n'))
    assert "next decision offers ['pass']" in run_case(bad).describe()
