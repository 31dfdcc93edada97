"""benchmarks/bot_strength.py prints each figure beside its target (issue #20)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    "bot_strength", Path(__file__).resolve().parents[2] / "benchmarks" / "bot_strength.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)
"""A script, not a package module, so it is loaded by path."""


def test_a_win_rate_stands_beside_its_target_with_its_interval() -> None:
    line = bench.win_line("fatigue", "normal", "random", (19, 1, 0))
    assert line.endswith(
        "19 won, 1 lost, 0 drawn of 20: 95.0% (95% CI 76-99%) | target >= 95%: MET"
    )
    line = bench.win_line("killteam", "normal", "easy", (13, 6, 1))
    assert line.endswith("of 20: 65.0% (95% CI 43-82%) | target >= 70%: NOT MET")
    assert "target" not in bench.win_line("killteam", "easy", "random", (20, 0, 0))


def test_a_decision_time_stands_beside_its_target() -> None:
    times = [0.001 * ms for ms in range(1, 101)]
    line = bench.time_line("wh40k6", "normal", times)
    assert "100 decisions: p50 51.0 ms, p95 96.0 ms, max 100 ms" in line
    assert line.endswith("target p95 <= 250 ms: MET")
    assert bench.time_line("wh40k6", "easy", times).endswith("target p95 <= 50 ms: NOT MET")


def test_the_interval_of_a_perfect_small_sample_stays_wide() -> None:
    low, high = bench.wilson(4, 4)
    assert high == 1.0 and round(low, 2) == 0.51


def test_the_losses_are_told_by_side_and_by_setup() -> None:
    """A run's total hid where normal lost (most wh40k6 games on one deployment map):
    each side and each setup the games fell in gets its own won-lost-drawn."""
    results = [
        ("won", ["as Iron Wardens", "Mission: Crusade", "Deployment map: Dawn of War"]),
        ("lost", ["as Rustbound Horde", "Mission: Crusade", "Deployment map: Dawn of War"]),
        ("drawn", ["as Iron Wardens", "Mission: The Relic", "Deployment map: Dawn of War"]),
    ]
    lines = bench.breakdown("wh40k6", "normal", results)
    assert lines == [
        "wh40k6          normal Deployment map: Dawn of War: 1-1-1",
        "wh40k6          normal Mission: Crusade: 1-1-0",
        "wh40k6          normal Mission: The Relic: 0-0-1",
        "wh40k6          normal as Iron Wardens: 1-0-1",
        "wh40k6          normal as Rustbound Horde: 0-1-0",
    ]
