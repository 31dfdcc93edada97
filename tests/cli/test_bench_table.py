"""The benchmark table holds each figure to its target and shows the previous release's."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))  # run.py imports its helper _profile as a script does
_SPEC = importlib.util.spec_from_file_location("bench_run", BENCHMARKS / "run.py")
assert _SPEC is not None and _SPEC.loader is not None
run = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(run)
"""benchmarks/run.py is a script (mypy checks it as one), so it is loaded by path."""
previous_figures, print_table, verdict = run.previous_figures, run.print_table, run.verdict


def test_figures_meet_or_miss_their_targets_by_a_stated_factor() -> None:
    assert verdict("  choices/s: killteam", "12,500 choices/s") == ">= 10,000: meets"
    assert verdict("  choices/s: wh40k6", "2000 choices/s") == ">= 10,000: MISSES (5.0x off)"
    assert verdict("bot games/s: wh40k6", "2.5 games/s") == ">= 10: MISSES (4.0x off)"
    assert verdict("bot games/s: killteam", "2.5 games/s") == ""
    assert verdict("  per 1,000 choices: fatigue", "300 ms") == "<= 100 ms: MISSES (3.0x off)"
    assert verdict("undo at the last choice: apocalypse", "2.5 ms") == "<= 16 ms: meets"


def test_the_table_shows_the_previous_figure_beside_the_new_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "previous.json"
    path.write_text(json.dumps({"measured": "then", "figures": {"  choices/s: fatigue": "676"}}))
    where, previous = previous_figures(path)
    print_table("t", [("  choices/s: fatigue", "1400 choices/s", "")], previous)
    row = capsys.readouterr().out.splitlines()[-1].split("|")
    assert where == "then"
    assert [c.strip() for c in row] == [
        "choices/s: fatigue",
        "1400 choices/s",
        ">= 10,000: MISSES (7.1x off)",
        "676",
        "",
    ]


def test_a_missing_or_broken_previous_file_gives_no_previous_figures(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    assert previous_figures(tmp_path / "bad.json") == ("", {})
    assert previous_figures(tmp_path / "absent.json") == ("", {})
