"""A game raises the collector's first threshold once, and never lowers a higher one."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.collector import YOUNG_THRESHOLD
from engine.game import Game
from engine.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "killteam-crossroads.toml"


@pytest.fixture
def thresholds() -> Iterator[None]:
    saved = gc.get_threshold()
    yield
    gc.set_threshold(*saved)


@pytest.mark.usefixtures("thresholds")
def test_a_game_raises_the_default_threshold_and_keeps_the_others() -> None:
    gc.set_threshold(700, 10, 10)
    Game(load_scenario(SCENARIO), 1)
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)


@pytest.mark.usefixtures("thresholds")
def test_a_higher_or_disabled_threshold_is_left_alone() -> None:
    gc.set_threshold(YOUNG_THRESHOLD * 5, 3, 4)
    Game(load_scenario(SCENARIO), 1)
    assert gc.get_threshold() == (YOUNG_THRESHOLD * 5, 3, 4)
    gc.set_threshold(0, 3, 4)
    Game(load_scenario(SCENARIO), 1)
    assert gc.get_threshold() == (0, 3, 4)
