"""The wargrid command line, run as a user would (no terminal needed)."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from tui.cli import main

CROSSROADS = str(Path(__file__).parents[2] / "scenarios" / "killteam-crossroads.toml")


def test_scenarios_lists_the_shipped_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert "Hold the Crossroads [killteam] 30x22" in out


def test_simulate_then_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's acceptance line: simulate --seed 7 --save, then replay --verify."""
    save = tmp_path / "x.msgpack"
    assert main(["simulate", CROSSROADS, "--seed", "7", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "Hold the Crossroads, seed 7:" in out and save.exists()
    assert main(["replay", str(save), "--verify"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== Hold the Crossroads (Kill Team (2018)), seed 7")
    assert "deployment roll-off" in out
    assert "[1] Vanguard Militia: " in out
    assert out.rstrip().splitlines()[-1].startswith("verified: ")


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert main(["simulate", CROSSROADS, "--seed", "3", "--text"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


def test_verify_names_the_first_divergence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "x.msgpack"
    main(["simulate", CROSSROADS, "--seed", "2", "--save", str(save)])
    capsys.readouterr()
    doc = msgpack.unpackb(save.read_bytes())
    doc["rolls"][0][4][0] = doc["rolls"][0][4][0] % 6 + 1
    save.write_bytes(msgpack.packb(doc))
    assert main(["replay", str(save), "--verify"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wargrid: replay diverged: step ")
    assert "roll #1: expected" in err


@pytest.mark.parametrize("content", [b"", b"garbage", b"\x93\x01\x02"])
def test_bad_save_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    bad = tmp_path / "bad.msgpack"
    bad.write_bytes(content)
    assert main(["replay", str(bad), "--verify"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wargrid: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_broken_scenario_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n')
    assert main(["simulate", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "broken.toml: missing key 'ruleset'" in err


def test_unknown_ruleset_names_the_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chess = tmp_path / "chess.toml"
    chess.write_text(Path(CROSSROADS).read_text().replace('"killteam"', '"chess"', 1))
    assert main(["simulate", str(chess)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"wargrid: {chess}: key 'ruleset': unknown ruleset 'chess'; ")
    assert "valid names: killteam" in err and err.count("\n") == 1
    assert main(["scenarios"]) == 0  # the listing still works


def test_a_message_with_line_breaks_is_printed_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weird = tmp_path / "two\nlines.msgpack"
    weird.write_bytes(b"garbage")
    assert main(["replay", str(weird), "--verify"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "two\\nlines.msgpack" in err
