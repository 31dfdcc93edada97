"""The benchmark table's profile rows: self time per module and function, C calls credited
to the project function that made them, as much as fits in the row."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engine.dice import face

_SPEC = importlib.util.spec_from_file_location(
    "bench_profile", Path(__file__).resolve().parents[2] / "benchmarks" / "_profile.py"
)
assert _SPEC is not None and _SPEC.loader is not None
prof = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(prof)
"""benchmarks/_profile.py is a script's helper, so it is loaded by path."""

ROOT = Path(__file__).resolve().parents[2]
BOARD = (str(ROOT / "engine" / "board.py"), 10, "_reachable")
FORMED = (str(ROOT / "engine" / "rulesets" / "fatigue" / "formation.py"), 5, "formed")
SETCOMP = (str(ROOT / "engine" / "rulesets" / "fatigue" / "movement.py"), 88, "<setcomp>")
APPEND = ("~", 0, "<method 'append' of 'list' objects>")
HEAPPUSH = ("/usr/lib/python3.11/heapq.py", 1, "heappush")
TOP = ("/usr/lib/python3.11/cProfile.py", 1, "runcall")


def stats() -> dict[tuple[str, int, str], tuple[object, ...]]:
    """A pstats table: 'append' called 3 s from board, 1 s from formation; heappush (a
    library function) called only by board; runcall by nobody we know."""
    return {
        BOARD: (1, 1, 2.0, 9.0, {TOP: (1, 1, 2.0, 9.0)}),
        FORMED: (1, 1, 1.0, 3.0, {TOP: (1, 1, 1.0, 3.0)}),
        SETCOMP: (1, 1, 0.5, 0.5, {FORMED: (1, 1, 0.5, 0.5)}),
        APPEND: (4, 4, 4.0, 4.0, {BOARD: (3, 3, 3.0, 3.0), FORMED: (1, 1, 1.0, 1.0)}),
        HEAPPUSH: (1, 1, 1.0, 1.0, {BOARD: (1, 1, 1.0, 1.0)}),
        TOP: (1, 1, 0.5, 12.5, {}),
    }


def test_c_and_library_time_is_credited_to_the_project_functions_that_called_it() -> None:
    times = prof.self_times(stats())
    assert times == {
        "engine/board:_reachable": 2.0 + 3.0 + 1.0,
        "fatigue/formation:formed": 1.0 + 1.0,
        "fatigue/movement:<setcomp>:88": 0.5,
        "python": 0.5,
    }


def test_modules_drop_the_rulesets_name_and_functions_their_path() -> None:
    times = prof.self_times(stats())
    assert prof.by_module(times, "fatigue") == {
        "engine/board": 6.0,
        "formation": 2.0,
        "movement": 0.5,
        "python": 0.5,
    }
    assert set(prof.by_function(times)) == {
        "board._reachable",
        "formation.formed",
        "movement.<setcomp>:88",
        "python",
    }


def test_shares_are_largest_first_and_as_many_as_fit_with_the_rest_named() -> None:
    times = {"engine/board": 6.0, "formation": 2.0, "movement": 1.5, "python": 0.5}
    assert prof.shares_text(times, 100) == (
        "engine/board 60%, formation 20%, movement 15%, python 5%"
    )
    assert prof.shares_text(times, 41) == "engine/board 60%, formation 20%, rest 20%"
    assert prof.shares_text(times, 40) == "engine/board 60%, rest 40%"
    assert prof.shares_text(times, 100, least=0.1) == (
        "engine/board 60%, formation 20%, movement 15%, rest 5%"
    )
    assert prof.shares_text({}, 50) == "nothing measured"


def test_a_profiled_game_names_the_project_functions_it_ran() -> None:
    seeds: list[int] = []

    def play(seed: int) -> object:
        seeds.append(seed)
        return [face(seed, i, 6) for i in range(2000)]

    table, games = prof.profile_stats(play, 0.0)
    assert (games, seeds) == (1, [0])
    functions = prof.by_function(prof.self_times(table))
    assert functions["dice.face"] > 0
    assert not [f for f in functions if "test_bench_profile" in f or "_profile." in f]
