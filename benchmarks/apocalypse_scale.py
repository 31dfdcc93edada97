"""Apocalypse at scale: a generated 300-unit battle on a 120 x 80 map.

Run: ``.venv/bin/python benchmarks/apocalypse_scale.py [--repeat N]``. Single process,
one core. Figures are CPU time of this process (``time.process_time``), the best of N
runs (default 3): other processes on a shared machine only ever make a run slower.

Measures (target: each <= 100 ms):

1. sight lines for every pair of units (44,850 pairs: target 50 ms, issue 17), in one
   table (`TerrainMap.sight_table`, arrays) and one pair at a time (`TerrainMap.visible`,
   as the rules ask), and for every enemy pair (22,500) one at a time, from a cold cache
   (digest apocalypse §11.4, engine.footprints);
2. one full turn of bot play (initiative, orders, every activation, the damage phase)
   through `Game`, which also hashes the whole state after every choice; reported in
   total, per Decision, and without `Game` (the ruleset's procedure driven directly),
   which separates the rules' own cost from the per-choice replay checkup;
3. one repaint of the whole board as text rows, if the TUI package is importable
   (``tui.cells.render_rows``, the pure renderer behind the battlefield widget);
   otherwise engine figures only.
"""

from __future__ import annotations

import argparse
import importlib.util
import time

from engine.board import Cell
from engine.bot import RandomBot
from engine.dice import Dice
from engine.events import Event
from engine.footprints import square
from engine.game import Game
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.ruleset import Apocalypse
from engine.rulesets.apocalypse.terrain import TerrainMap
from engine.scenario import Scenario, parse_scenario

COLS, ROWS = 120, 80
DETACHMENTS = 25
"""Per side; 6 units each: 150 units a side, 300 in all."""


def battle_map() -> list[str]:
    """Rows (north first) with a lattice of ruins, walls and impassable blocks mid-field."""
    grid = [["."] * COLS for _ in range(ROWS)]
    for i, x0 in enumerate(range(4, COLS - 8, 12)):
        for j, y0 in enumerate(range(32, 48, 8)):
            kind = (i + j) % 3
            w, h, ch = ((5, 4, "R"), (4, 1, "o"), (3, 3, "#"))[kind]
            for y in range(y0, y0 + h):
                for x in range(x0, x0 + w):
                    grid[y][x] = ch
    return ["".join(row) for row in reversed(grid)]


def force(faction: str, units: tuple[str, ...], seat: int) -> str:
    """25 detachments of 6 units placed in a 5 x 5 block layout in the side's zone."""
    lines = ["[[apocalypse.forces]]", f'faction = "{faction}"']
    for d in range(DETACHMENTS):
        bx, by = (d % 5) * 24, (d // 5) * 6
        lines += ["[[apocalypse.forces.detachments]]", f'name = "{faction.title()} {d + 1}"']
        lines.append("units = [")
        for u, sheet in enumerate(units):
            x = bx + 3 * (u % 3) + 1
            y = by + 3 * (u // 3) + 1
            if seat == 1:
                y = ROWS - 2 - y - 1
            cmd = ", commander = true" if u == 0 else ""
            lines.append(f'  {{ datasheet = "{sheet}", at = [{x}, {y}]{cmd} }},')
        lines.append("]")
    return "\n".join(lines)


def scenario() -> Scenario:
    rows = ",\n".join(f'  "{r}"' for r in battle_map())
    text = f"""
name = "Scale test"
ruleset = "apocalypse"
description = "300 units"
rounds = 5
sides = ["Legion", "Horde"]
[map]
rows = [
{rows}
]
[map.legend]
"R" = {{ terrain = "difficult" }}
[[zones]]
name = "South"
y = [0, 30]
[[zones]]
name = "North"
y = [49, 79]
[apocalypse]
zones = ["South", "North"]
max_detachments = {DETACHMENTS}
{force("LEGION", ("legion_captain",) + ("legion_line_squad",) * 4 + ("legion_battle_tank",), 0)}
{force("HORDE", ("horde_warboss",) + ("horde_brute_mob",) * 4 + ("horde_scrap_walker",), 1)}
"""
    return parse_scenario(text, "<apocalypse_scale>")


def sight_lines(sc: Scenario) -> tuple[float, float, float, int]:
    """Seconds for all pairs (in one table, and one pair at a time) and for enemy pairs
    (cold caches), and how many pairs see each other."""
    ruleset = Apocalypse(sc)
    rects = []
    for unit in ruleset.state.units.values():
        x, y = (int(v) for v in unit.start.split(","))
        rects.append((unit.owner, square(Cell(x, y), unit.sheet.footprint)))
    terrain = TerrainMap(sc.board)
    plain = [r for _, r in rects]
    t0 = time.process_time()
    table = terrain.sight_table(plain)
    all_pairs = time.process_time() - t0
    seen = sum(sum(row[i + 1 :]) for i, row in enumerate(table))
    t0 = time.process_time()
    each = sum(terrain.visible(a, b) for i, (_, a) in enumerate(rects) for _, b in rects[i + 1 :])
    one_by_one = time.process_time() - t0
    assert each == seen, (each, seen)
    terrain = TerrainMap(sc.board)
    t0 = time.process_time()
    for pa, a in rects:
        for pb, b in rects:
            if pa == 0 and pb == 1:
                terrain.visible(a, b)
    enemy_pairs = time.process_time() - t0
    return all_pairs, one_by_one, enemy_pairs, seen


def one_turn(sc: Scenario, seed: int) -> tuple[float, int]:
    """Seconds and Decisions for turn 1 of a bot game (deployment excluded)."""
    game = Game(sc, seed)
    bot = RandomBot(seed)
    ruleset = game.ruleset
    assert isinstance(ruleset, Apocalypse)
    state = ruleset.state
    while game.pending is not None and state.turn < 1:
        game.choose(bot.choose(game.pending))
    start_choices = len(game.choices)
    t0 = time.process_time()
    while game.pending is not None and state.turn < 2:
        game.choose(bot.choose(game.pending))
    return time.process_time() - t0, len(game.choices) - start_choices


def one_turn_direct(sc: Scenario, seed: int) -> float:
    """Seconds for turn 1 driving the ruleset's procedure without `Game` (no hashing)."""
    ruleset = Apocalypse(sc)
    events: list[Event] = []
    procedure = ruleset.play(RuleContext(Dice(seed), events.append))
    bot = RandomBot(seed)
    decision = next(procedure)
    while ruleset.state.turn < 1:
        decision = procedure.send(bot.choose(decision))
    t0 = time.process_time()
    try:
        while ruleset.state.turn < 2:
            decision = procedure.send(bot.choose(decision))
    except StopIteration:
        pass
    return time.process_time() - t0


def repaint(sc: Scenario) -> float | None:
    """Seconds to render every row of the board with every unit, or None without a TUI."""
    if importlib.util.find_spec("tui") is None:
        return None
    try:
        from tui.cells import render_rows
    except ImportError:
        return None
    view = Apocalypse(sc).view()
    t0 = time.process_time()
    render_rows(sc.board, view.models, 2)
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sc = scenario()
    units = len(Apocalypse(sc).state.units)
    print(f"apocalypse scale test: {units} units on a {COLS} x {ROWS} map")
    sight_lines(sc)  # numpy's import is not a sight line
    runs = [sight_lines(sc) for _ in range(args.repeat)]
    all_pairs, one_by_one, enemy_pairs = (min(r[k] for r in runs) for k in range(3))
    seen = runs[0][3]
    pairs = units * (units - 1) // 2
    print(
        f"sight lines, all {pairs} pairs: {all_pairs * 1000:.0f} ms (target 50 ms; "
        f"{seen} visible; TerrainMap.sight_table); one pair at a time: "
        f"{one_by_one * 1000:.0f} ms; {(units // 2) ** 2} enemy pairs one at a time: "
        f"{enemy_pairs * 1000:.0f} ms"
    )
    turns = [one_turn(sc, args.seed) for _ in range(args.repeat)]
    turn, decisions = min(turns)
    direct = min(one_turn_direct(sc, args.seed) for _ in range(args.repeat))
    print(
        f"one full turn of bot play: {turn * 1000:.0f} ms, {decisions} decisions "
        f"({turn * 1000 / max(1, decisions):.2f} ms per decision); "
        f"without Game's per-choice state hash: {direct * 1000:.0f} ms"
    )
    paints = [repaint(sc) for _ in range(args.repeat)]
    paint = None if paints[0] is None else min(p for p in paints if p is not None)
    if paint is None:
        print("board repaint: tui not importable, engine figures only")
    else:
        print(f"one repaint of the board (text rows, 2 chars per cell): {paint * 1000:.1f} ms")


if __name__ == "__main__":
    main()
