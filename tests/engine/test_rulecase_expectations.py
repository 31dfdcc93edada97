"""Rule cases v2: the game-over event's fields and shared scenario files in a case folder."""

from __future__ import annotations

from pathlib import Path

from engine.rulecase import run_case

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
