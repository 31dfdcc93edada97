"""Deployment cells (fatigue §4.3): the cells near placed models, gathered around each of
them, are the ones measuring every zone cell against every placed model finds."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.board import Cell
from engine.bot import RandomBot
from engine.game import Game
from engine.rulesets.fatigue.deployment import free_cells, open_ground
from engine.rulesets.fatigue.geometry import dist, is_walkable
from engine.rulesets.fatigue.state import FState
from engine.rulesets.fatigue.tables import COHERENCY
from engine.scenario import SHIPPED_SCENARIOS, load_scenario


def _plain(state: FState, zone: frozenset[Cell], placed: list[Cell]) -> list[Cell]:
    """The rule as written: every empty walkable zone cell, those within 2 steps of a
    placed model if any, row by row."""
    taken = set(state.occupied())
    free = [c for c in zone if is_walkable(state, c) and c not in taken]
    linked = [c for c in free if any(dist(state, c, p) <= COHERENCY for p in placed)]
    return sorted(linked if placed and linked else free, key=lambda c: (c.y, c.x))


@pytest.mark.parametrize("chebyshev", [False, True])
def test_free_cells_near_placed_models_as_measured_from_every_cell(chebyshev: bool) -> None:
    scenarios = (load_scenario(p) for p in sorted(SHIPPED_SCENARIOS.glob("*.toml")))
    game, bot = Game(next(s for s in scenarios if s.ruleset == "fatigue"), 1), RandomBot(1)
    state = game.ruleset.state  # type: ignore[attr-defined]
    assert isinstance(state, FState)
    while state.step != "Deployment":  # both forces mustered
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
    state.modules = replace(state.modules, chebyshev=chebyshev)
    rng = random.Random(8)
    models = list(state.models.values())
    linked = 0
    for zone in state.zones.values():
        ground = open_ground(state, zone)
        for _ in range(25):
            for m in models:
                m.cell = None
            standing = rng.sample(models, rng.randrange(0, min(8, len(models))))
            cells = rng.sample(ground, len(standing) + rng.randrange(0, 4))
            for m, c in zip(standing, cells, strict=False):
                m.cell = c
            placed = cells[len(standing) - 2 :] if len(standing) > 2 else cells
            want = _plain(state, zone, placed)
            assert free_cells(state, ground, placed) == want
            linked += len(want) < len(ground) - len(standing)
    assert linked > 10
