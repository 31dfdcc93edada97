"""The auto-formation's ring-by-ring search against the whole scan of every follower's
reach (digest fatigue §6.5 step 2, §6.31): the same placement for every cell a lead
could move to, at every MOVE of bot games; and a placement the search calls linked is
coherent, so the move offers the cells it offered when it measured each one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.board import Cell
from engine.bot import RandomBot
from engine.game import Game
from engine.rulesets.fatigue import formation, movement
from engine.rulesets.fatigue.formation import (
    Reach,
    formed,
    is_coherent_placement,
    keep_shape,
)
from engine.rulesets.fatigue.state import FState, Unit
from engine.scenario import SHIPPED_SCENARIOS, load_scenario


@pytest.mark.parametrize("name", ["fatigue-crossroads", "fatigue-broken-span"])
def test_ring_search_places_as_the_whole_scan(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = {"cells": 0, "rings": 0}
    real, nearest = movement.move_destinations, formation._nearest

    def counted(*args: Any) -> Cell | None:
        found = nearest(*args)
        checked["rings"] += found is not None
        return found

    def destinations(state: FState, unit: Unit, reach: Reach) -> list[Cell]:
        lead = unit.alive()[0]
        allowed: Callable[[Cell], bool] = movement.not_next_to_enemy(state, unit)
        coherent = []
        for cell in sorted(reach.get(lead.id, {}), key=lambda c: (c.y, c.x)):
            if not allowed(cell) or len(unit.alive()) == 1:
                continue
            goal = keep_shape(state, lead, cell)
            placed, linked = formed(state, unit, reach, lead, cell, goal, allowed)
            whole, _ = formed(state, unit, reach, lead, cell, goal, allowed, scan=True)
            assert placed == whole, (unit.id, cell)
            measured = is_coherent_placement(state, placed)
            assert measured or not linked
            checked["cells"] += 1
            if measured:
                coherent.append(cell)
        got = real(state, unit, reach)
        if coherent:
            assert got == coherent
        return got

    monkeypatch.setattr(movement, "move_destinations", destinations)
    monkeypatch.setattr(formation, "_nearest", counted)
    scenario = load_scenario(SHIPPED_SCENARIOS / f"{name}.toml")
    for seed in range(3):
        game, bot = Game(scenario, seed), RandomBot(seed)
        while game.pending is not None:
            game.choose(bot.choose(game.pending))
    assert checked["cells"] > 500 and checked["rings"] > 50


def test_a_formation_moved_whole_is_offered_without_forming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`movement._shifts_whole` says yes only where forming the unit says it stays
    coherent, and answers most cells of a move by itself."""
    checked = {"cells": 0, "whole": 0}
    real = movement.move_destinations

    def destinations(state: FState, unit: Unit, reach: Reach) -> list[Cell]:
        lead = unit.alive()[0]
        allowed = movement.not_next_to_enemy(state, unit)
        if len(unit.alive()) > 1:
            shifts = movement._shifts_whole(state, unit, reach, lead, allowed)
            for cell in filter(allowed, reach.get(lead.id, {})):
                checked["cells"] += 1
                if shifts(cell):
                    checked["whole"] += 1
                    assert movement._coherent_from(state, unit, reach, lead, cell, allowed)
        return real(state, unit, reach)

    monkeypatch.setattr(movement, "move_destinations", destinations)
    for name in ("fatigue-crossroads", "fatigue-broken-span"):
        scenario = load_scenario(SHIPPED_SCENARIOS / f"{name}.toml")
        for seed in range(3):
            game, bot = Game(scenario, seed), RandomBot(seed)
            while game.pending is not None:
                game.choose(bot.choose(game.pending))
    assert checked["cells"] > 500 and checked["whole"] > checked["cells"] // 3, checked
