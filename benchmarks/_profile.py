"""Where a ruleset's bot games spend their time, for the benchmark table (helper of run.py).

A figure that misses its target says little on its own; the row under it says what the
profile shows is left. The bot games are played again under cProfile and each function's
self time is summed by module. Time spent in C functions and the standard library (list
appends, msgpack, heapq, dataclass machinery) is credited to the project function that
called it, in proportion to the time each caller spent there: "engine/stateencoder 14%"
then means the encoder's own lines and the C calls it makes, which is what one would have
to change to win it back. cProfile charges every call a fixed cost, so a tiny function
called a hundred thousand times looks bigger here than it is: the rows say where to look;
judge a change by instruction counts (cachegrind) or interleaved timings.

Imports nothing of wargrid's: run.py hands it a callable that plays the games.
"""

from __future__ import annotations

import cProfile
import gc
import pstats
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("engine/", "tui/")
"""Paths (relative to the checkout) whose functions are named in a profile row."""
Func = tuple[str, int, str]
"""pstats' key of a function: file, first line, name."""
Stats = Mapping[Func, tuple[Any, ...]]
"""pstats' table: function -> (primitive calls, calls, self time, cumulative, callers)."""


def profile_stats(play: Callable[[int], object], seconds: float) -> tuple[Stats, int]:
    """Play games 0, 1, 2, ... under cProfile until ``seconds`` of CPU time have passed
    (at least one game); the table pstats makes of them and the number of games."""
    profiler = cProfile.Profile()
    games, start = 0, time.process_time()
    # The cyclic collector is held off meanwhile: its pauses (long after a benchmark has
    # filled the heap) land on whichever function happens to allocate, and showed a sort
    # key at 23% of a Confrontation profile.
    gc.collect()
    gc.disable()
    try:
        while games == 0 or time.process_time() - start < seconds:
            profiler.runcall(play, games)
            games += 1
    finally:
        gc.enable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]  # untyped in typeshed
    return stats, games


def label(path: str) -> str | None:
    """The module's short name if the file is the project's ("fatigue/formation",
    "engine/board"), else None."""
    try:
        rel = Path(path).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    if not rel.startswith(PROJECT) or not rel.endswith(".py"):
        return None
    rel = rel.removesuffix(".py").removesuffix("/__init__")
    return rel.removeprefix("engine/rulesets/")


def foreign(func: Func) -> str:
    """What to call time that no project function can be credited with."""
    path = func[0]
    if path == "~":
        return "builtins"
    parts = Path(path).parts
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].removesuffix(".py")
    return "python"


def owners(stats: Stats) -> dict[Func, dict[str, float]]:
    """For each function, the shares of its self time owed to each project function
    (named "module:function", or "module:<genexpr>:line"): its own name if it is the
    project's, else its callers' owners weighted by the time spent in it from each."""
    memo: dict[Func, dict[str, float]] = {}

    def owner(func: Func, seen: frozenset[Func]) -> dict[str, float]:
        if func in memo:
            return memo[func]
        mine = label(func[0])
        if mine is not None:
            memo[func] = {f"{mine}:{func[2]}" + (f":{func[1]}" if "<" in func[2] else ""): 1.0}
            return memo[func]
        callers = {c: v for c, v in stats[func][4].items() if c not in seen and c in stats}
        total = sum(v[2] for v in callers.values())
        if not callers or total <= 0:
            return {foreign(func): 1.0}
        shares: dict[str, float] = {}
        for caller, values in callers.items():
            for name, share in owner(caller, seen | {func}).items():
                shares[name] = shares.get(name, 0.0) + share * values[2] / total
        memo[func] = shares
        return shares

    return {func: owner(func, frozenset()) for func in stats}


def self_times(stats: Stats) -> dict[str, float]:
    """Seconds of self time per "module:function", C and library calls credited to
    their project callers."""
    times: dict[str, float] = {}
    for func, shares in owners(stats).items():
        for name, share in shares.items():
            times[name] = times.get(name, 0.0) + stats[func][2] * share
    return times


def regrouped(times: Mapping[str, float], key: Callable[[str], str]) -> dict[str, float]:
    """The same seconds summed under ``key`` of each name."""
    groups: dict[str, float] = {}
    for name, seconds in times.items():
        groups[key(name)] = groups.get(key(name), 0.0) + seconds
    return groups


def by_module(times: Mapping[str, float], ruleset: str = "") -> dict[str, float]:
    """The same seconds summed per module ("engine/board:_reachable" -> "engine/board");
    the ruleset's own modules without its name, which the row already gives
    ("fatigue/formation:formed" -> "formation")."""
    return regrouped(times, lambda name: name.split(":", 1)[0].removeprefix(f"{ruleset}/"))


def by_function(times: Mapping[str, float]) -> dict[str, float]:
    """The same seconds under short names ("board._reachable"), summed where they meet."""
    return regrouped(times, short)


def short(name: str) -> str:
    """A function's name for a row of functions: "engine/board:_reachable" ->
    "board._reachable", "fatigue/movement:<setcomp>:88" -> "movement.<setcomp>:88"."""
    if ":" not in name:  # "builtins", "msgpack": time no project function called
        return name
    module, function = name.split(":", 1)
    return f"{module.rsplit('/', 1)[-1]}.{function}"


def shares_text(times: Mapping[str, float], width: int, least: float = 0.02) -> str:
    """The largest entries as "name 14%, name 9%, ...", largest first, as many as fit in
    ``width`` characters with room for what is left ("rest 40%"); none under ``least``.

    Ties are broken by name, so the same profile gives the same text.
    """
    total = sum(times.values())
    if total <= 0:
        return "nothing measured"
    ranked = sorted(times.items(), key=lambda item: (-item[1], item[0]))
    parts: list[str] = []
    shown = 0.0
    for name, seconds in ranked:
        if seconds / total < least:
            break
        part = f"{name} {seconds / total:.0%}"
        rest = f"rest {(total - shown - seconds) / total:.0%}"
        if len(", ".join([*parts, part, rest])) > width:
            break
        parts.append(part)
        shown += seconds
    if total - shown > 0.005 * total:
        parts.append(f"rest {(total - shown) / total:.0%}")
    return ", ".join(parts)
