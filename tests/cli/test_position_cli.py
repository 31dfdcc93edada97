"""``wargrid position SAVE [--step N]``: the game at a phase start, as a position file."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.checkpoints import Checkpoint
from engine.decisions import Choice
from engine.game import Game
from engine.position import load_position
from engine.save import read_save, replay
from tests.hardening.playouts import SCENARIO_DIR
from tui.cli import main

SCENARIOS = sorted(str(p) for p in SCENARIO_DIR.glob("*.toml") if "-big" not in p.name)


def _simulated(tmp_path: Path, scenario: str, capsys: pytest.CaptureFixture[str]) -> Path:
    save = tmp_path / "game.wargrid"
    assert main(["simulate", scenario, "--seed", "4", "--save", str(save)]) == 0
    capsys.readouterr()
    return save


def _goes_on_as(path: Path, text: str, whole: Game, at: Checkpoint) -> None:
    """The position ``text``, written to ``path`` and loaded, plays ``whole``'s choices
    after ``at`` to the same end, state and rolls."""
    path.write_text(text, encoding="utf-8")
    position = load_position(path)
    game = Game(position.scenario, 999, position=position)
    for choice in whole.choices[at.step :]:
        game.choose(Choice(choice.decision_id - at.step, choice.key))
    assert game.outcome == whole.outcome
    assert game.state_hash() == whole.state_hash()
    assert [r.faces for r in game.rolls] == [r.faces for r in whole.rolls[at.rolls :]]


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if "crossroads" in s or "crossing.toml" in s]
)
def test_the_position_at_a_step_goes_on_as_the_save_did(
    tmp_path: Path, scenario: str, capsys: pytest.CaptureFixture[str]
) -> None:
    save = _simulated(tmp_path, scenario, capsys)
    whole = replay(read_save(save))
    step = len(whole.choices) // 2
    assert main(["position", str(save), "--step", str(step)]) == 0
    text = capsys.readouterr().out
    at = [c for c in whole.checkpoints if c.step <= step][-1]
    assert f"round = {at.round}\nphase = {at.phase!r}".replace("'", '"') in text
    _goes_on_as(tmp_path / "mid.position.toml", text, whole, at)


def test_without_a_step_it_is_the_last_phase_of_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = _simulated(tmp_path, SCENARIOS[-1], capsys)
    whole = replay(read_save(save))
    assert main(["position", str(save)]) == 0
    assert capsys.readouterr().out == whole.position_text()


def test_a_step_before_any_phase_or_past_the_end_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = _simulated(tmp_path, SCENARIOS[0], capsys)
    assert main(["position", str(save), "--step", "0"]) == 2
    assert "no phase has begun yet" in capsys.readouterr().err
    assert main(["position", str(save), "--step", "999999"]) == 2
    assert "--step must be 0 to" in capsys.readouterr().err


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if "broken-span" in s or "open-war" in s]
)
def test_a_step_in_set_up_writes_the_set_up_step_in_round_one(
    tmp_path: Path, scenario: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """fatigue (force choice, deployment) and wh40k6 (each unit deployed) checkpoint in
    set-up: such a position is written in round 1 and goes on as the save did."""
    save = _simulated(tmp_path, scenario, capsys)
    whole = replay(read_save(save))
    at = [c for c in whole.checkpoints if c.round == 0][-1]
    assert main(["position", str(save), "--step", str(at.step)]) == 0
    text = capsys.readouterr().out
    assert f'round = 1\nphase = "{at.phase}"' in text
    _goes_on_as(tmp_path / "setup.position.toml", text, whole, at)
