"""Positions and rule cases: the conformance suite runs, and failures say what differed."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ScenarioError
from engine.game import Game
from engine.position import PositionError, load_position, parse_position
from engine.rulecase import case_files, run_case
from engine.save import decode, replay, to_bytes
from tui.cli import main

CASES = Path(__file__).parents[1] / "cases"
ALL_CASES = list(case_files([CASES]))
D6 = CASES / "killteam" / "d6-failed-charge-then-reroll.toml"


@pytest.mark.parametrize("path", ALL_CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rule_case(path: Path) -> None:
    result = run_case(path)
    assert result.passed, result.describe()


def test_every_ruleset_with_positions_has_rule_cases() -> None:
    """A ruleset that can start from positions ships its §9 examples as case files."""
    from engine.ruleset import Ruleset
    from engine.rulesets import RULESETS

    folders = {p.parent.name for p in ALL_CASES}
    with_positions = {r.INFO.name for r in RULESETS if r.load_position is not Ruleset.load_position}
    assert "killteam" in with_positions
    assert with_positions <= folders


def test_a_wrong_expectation_fails_with_expected_and_got(tmp_path: Path) -> None:
    case = tmp_path / "wrong.toml"
    case.write_text(
        D6.read_text()
        .replace('CP = "0"', 'CP = "3"')
        .replace("cell = [6, 0]", "cell = [5, 0]")
        .replace("total = 7", "total = 8")
    )
    result = run_case(case)
    assert not result.passed
    text = result.describe()
    assert text.startswith("FAILED ")
    assert "side 1 CP: expected '3', got '0'" in text
    assert "model A1 cell: expected [5, 0], got [6, 0]" in text
    assert "'total': 8" in text and "not found" in text


def test_a_wrong_die_label_names_both(tmp_path: Path) -> None:
    case = tmp_path / "label.toml"
    case.write_text(
        D6.read_text().replace('{ face = 3, reason = "charge" }', '{ face = 3, reason = "save" }')
    )
    text = run_case(case).describe()
    assert "labelled 'save'" in text and "charge" in text


def test_check_command_reports_and_exits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(CASES / "killteam")]) == 0
    assert "0 failed" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(D6.read_text().replace('CP = "0"', 'CP = "9"'))
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "0 passed, 1 failed" in out


POSITION = D6.read_text().split("[position]\n", 1)[1].split("[expect]", 1)[0]
POSITION = POSITION.replace("[position.killteam]", "[killteam]").replace(
    "[[position.killteam.models]]", "[[killteam.models]]"
)


def position_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "p.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("cell = [7, 0]", "cell = [0, 0]"), "two models in one cell"),
        (('datasheet = "brute"', 'datasheet = "brute"\nstates = ["dizzy"]'), "unknown state"),
        (('phase = "Movement"', 'phase = "Tea"'), "not a Kill Team phase"),
        (("round = 1", "round = 9"), "key 'round'"),
        (("cell = [7, 0]", "cell = [99, 0]"), "off the map"),
        (('datasheet = "brute"', 'datasheet = "ork"'), "not a Ashen Reavers datasheet"),
    ],
)
def test_bad_positions_name_file_key_and_why(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    assert edit[0] in POSITION
    path = position_file(tmp_path, POSITION.replace(*edit))
    with pytest.raises(ScenarioError, match=message) as info:
        position = load_position(path)
        Game(position.scenario, 1, position=position)
    assert str(info.value).startswith(str(path))


def test_a_game_from_a_position_saves_and_replays(tmp_path: Path) -> None:
    position = load_position(position_file(tmp_path, POSITION))
    game = Game(position.scenario, 5, position=position)
    assert game.pending is not None and game.pending.player == 0
    while game.pending is not None and len(game.choices) < 12:
        game.choose_key(game.pending.options[-1].key)
    again = replay(decode(to_bytes(game), "pos"))
    assert again.state_hash() == game.state_hash()
    assert again.position is not None and again.position.round == 1


def test_position_text_must_be_toml() -> None:
    with pytest.raises(PositionError, match="not valid TOML"):
        parse_position("round = ", "x.toml")


def test_next_options_are_compared_as_a_set(tmp_path: Path) -> None:
    case = CASES / "killteam" / "q1-slain-before-its-fight.toml"
    assert run_case(case).passed
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(
        case.read_text().replace(
            'next_options = ["fight", "pass"]', 'next_options = ["pass", "fight", "stay"]'
        )
    )
    described = run_case(wrong).describe()
    reordered = tmp_path / "reordered.toml"
    reordered.write_text(
        case.read_text().replace(
            'next_options = ["fight", "pass"]', 'next_options = ["pass", "fight"]'
        )
    )
    assert run_case(reordered).passed
    assert "next options: expected ['pass', 'fight', 'stay'], got ['fight', 'pass']" in described
