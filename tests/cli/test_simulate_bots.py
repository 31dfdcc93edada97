"""``wargrid simulate --bots A,B [--games N]``: each side's computer player, and a tally."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.cli import main

ROOT = Path(__file__).resolve().parents[2]
CROSSROADS = str(ROOT / "scenarios" / "killteam-crossroads.toml")


def test_games_print_one_line_each_then_the_tally(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", CROSSROADS, "--bots", "easy,random", "--games", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Hold the Crossroads, seed 1: ")
    assert lines[1].startswith("Hold the Crossroads, seed 2: ")
    assert len(lines) == 4
    won = int(lines[2].split(": ")[1].split(" won")[0])
    assert lines[2].startswith("easy (Vanguard Militia): ")
    assert lines[3].startswith("random (Ashen Reavers): ")
    assert lines[2].endswith("drawn of 2") and lines[3].endswith("drawn of 2")
    winners = [line.split(": ")[1].split(" - ")[0] for line in lines[:2]]
    assert won == winners.count("Vanguard Militia")


def test_one_game_prints_the_result_line_as_before(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "bots.msgpack"
    assert main(["simulate", CROSSROADS, "--bots", "easy,easy", "--save", str(save)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Hold the Crossroads, seed 1: ") and out[1] == f"saved to {save}"
    assert main(["replay", str(save), "--verify"]) == 0  # replays need no bot
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("verified: ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "normal"], "--bots wants two names, side 1 first"),
        (["--bots", "normal,grandmaster"], "each one of easy, normal, random"),
        (["--games", "0"], "--games must be at least 1"),
        (["--games", "2", "--text"], "--save and --text show one game"),
    ],
)
def test_bad_bot_options_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", CROSSROADS, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wargrid: ") and message in err and err.count("\n") == 1
