"""Sight lines between footprints (§11.4 1-3): the fast path equals brute force."""

from __future__ import annotations

import random

from engine.board import Cell
from engine.footprints import Rect, square
from engine.rulesets.apocalypse.terrain import TerrainMap
from engine.scenario import parse_scenario
from engine.sight_lines import clear_lines, segment_crosses

WIDTH, HEIGHT = 24, 18


def random_map(rng: random.Random) -> TerrainMap:
    """A map with a few wall blocks, strips and single wall cells at random."""
    grid = [["."] * WIDTH for _ in range(HEIGHT)]
    for _ in range(rng.randrange(1, 7)):
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        w, h = rng.randrange(1, 5), rng.randrange(1, 4)
        for yy in range(y, min(HEIGHT, y + h)):
            for xx in range(x, min(WIDTH, x + w)):
                grid[yy][xx] = "#"
    return terrain_of(["".join(r) for r in grid])


def terrain_of(rows: list[str]) -> TerrainMap:
    listed = ", ".join(f'"{r}"' for r in rows)
    text = "\n".join(
        [
            'name = "t"',
            'ruleset = "apocalypse"',
            'description = "t"',
            "rounds = 5",
            'sides = ["Legion", "Horde"]',
            f"[map]\nrows = [{listed}]",
        ]
    )
    return TerrainMap(parse_scenario(text, "<sight>").board)


def brute_force(terrain: TerrainMap, a: Rect, b: Rect) -> bool:
    """Every wall cell tried against every centre-to-centre line, one cell at a time."""
    walls = [
        Rect(x, y, x, y)
        for y in range(terrain.rows)
        for x in range(terrain.cols)
        if terrain.walls[Cell(x, y)]
    ]
    for s in a.cells():
        for t in b.cells():
            p, q = (2 * s.x + 1, 2 * s.y + 1), (2 * t.x + 1, 2 * t.y + 1)
            if not any(segment_crosses(*p, *q, w) for w in walls):
                return True
    return False


def test_visible_equals_brute_force_on_random_maps() -> None:
    rng = random.Random(17)
    hidden = seen = 0
    for _ in range(40):
        terrain = random_map(rng)
        rects = [
            square(Cell(rng.randrange(WIDTH - 2), rng.randrange(HEIGHT - 2)), rng.randrange(1, 4))
            for _ in range(14)
        ]
        for a in rects:
            for b in rects:
                expected = brute_force(terrain, a, b)
                assert terrain.visible(a, b) == expected, (a, b, terrain.wall_rects)
                assert bool(clear_lines(a, b, terrain.wall_rects)) == expected
                hidden += not expected
                seen += expected
    # Both outcomes are exercised, many times over.
    assert hidden > 200 and seen > 200


def test_a_wall_between_hides_and_a_line_past_its_end_shows() -> None:
    terrain = terrain_of(["." * 9] * 3 + ["...###..."] + ["." * 9] * 3)
    below = Rect(4, 0, 4, 0)
    assert not terrain.visible(below, Rect(4, 6, 4, 6))
    # Doubled centres (9, 1) -> (17, 13) are at x = 12.33 on the wall's south edge: past it.
    assert terrain.visible(below, Rect(8, 6, 8, 6))
    # A 2 x 2 footprint half behind the wall is seen by its uncovered cells.
    assert terrain.visible(Rect(5, 0, 6, 1), Rect(6, 5, 7, 6))


def test_behind_terrain_asked_again_answers_as_a_fresh_trace() -> None:
    """§11.4 4: behind terrain is traced once per ordered pair of footprints and kept
    (terrain never moves): asked again, in any order, each pair answers what a map that
    never traced it answers, both ways round (the shooter's own piece is ignored)."""
    rng = random.Random(29)
    behind = clear = 0
    for _ in range(25):
        grid = [["."] * WIDTH for _ in range(HEIGHT)]
        for _ in range(rng.randrange(2, 9)):
            x, y, mark = rng.randrange(WIDTH), rng.randrange(HEIGHT), rng.choice("#o~")
            for yy in range(y, min(HEIGHT, y + rng.randrange(1, 4))):
                for xx in range(x, min(WIDTH, x + rng.randrange(1, 5))):
                    grid[yy][xx] = mark
        rows = ["".join(r) for r in grid]
        kept, fresh = terrain_of(rows), terrain_of(rows)
        rects = [
            square(Cell(rng.randrange(WIDTH - 2), rng.randrange(HEIGHT - 2)), rng.randrange(1, 4))
            for _ in range(10)
        ]
        pairs = [(a, b) for a in rects for b in rects]
        for a, b in pairs + pairs[::-1]:
            fresh._behind.clear()  # as a map that never traced a pair
            want = fresh.behind_terrain(a, b)
            assert kept.behind_terrain(a, b) == want, (a, b, rows)
            behind += want
            clear += not want
    assert behind > 100 and clear > 100
