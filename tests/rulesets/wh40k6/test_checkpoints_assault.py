"""Checkpoints inside the Assault phase: before each charge declaration but the first and
before each combat but the first, so undo replays one charge's or one combat's choices;
the game goes on from them (and from their position files) as it did."""

from __future__ import annotations

import random
from pathlib import Path

from engine.game import Game
from engine.position import parse_position
from engine.rulesets.wh40k6.charge import CHARGING_ON
from engine.rulesets.wh40k6.fight import FIGHTING_ON
from tests.rulesets.wh40k6.test_checkpoints_inside import goes_on_alike

TWO_FIGHTS = """
scenario = "wh40k6-open-war.toml"
round = 2
phase = "{phase}"

[wh40k6]
player = 1

[[wh40k6.units]]
player = 1
unit = "warden_squad"
states = {states}
models = [{{ cell = [10, 20] }}, {{ cell = [11, 20] }}, {{ cell = [12, 20] }}]

[[wh40k6.units]]
player = 1
unit = "warden_squad"
states = {states}
models = [{{ cell = [40, 20] }}, {{ cell = [41, 20] }}, {{ cell = [42, 20] }}]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{{ cell = [11, {y}] }}, {{ cell = [12, {y}] }}]

[[wh40k6.units]]
player = 2
unit = "horde_mob"
models = [{{ cell = [41, {y}] }}, {{ cell = [42, {y}] }}]
"""


def _played(phase: str, states: str, y: int, seed: int) -> Game:
    """The position played on with random answers to the end of the player turn."""
    text = TWO_FIGHTS.format(phase=phase, states=states, y=y)
    position = parse_position(text, "assault.toml", base=Path("scenarios"))
    game = Game(position.scenario, seed, position=position)
    rng = random.Random(seed)
    while game.pending is not None and game.view().phase in ("Assault", "Fight"):
        game.choose_key(rng.choice(game.pending.keys()))
    return game


def _goes_on_from(whole: Game, phase: str) -> None:
    points = [i for i, c in enumerate(whole.checkpoints) if c.phase == phase]
    assert points, f"no {phase!r} checkpoint"
    for index in points:
        goes_on_alike(whole, index)
    at = whole.checkpoints[points[-1]]
    text = whole.position_text_at(at)
    assert f'phase = "{phase}"' in text
    position = parse_position(text, "inside.toml")
    again = Game(position.scenario, 0, position=position)
    assert again.state_hash() == whole.checkups[at.step - 1].state_hash


def test_two_combats_take_a_checkpoint_between_them() -> None:
    whole = _played("Fight", '["locked in combat"]', 21, 3)
    assert sum(e.kind == "CombatStarted" for e in whole.events) == 2
    between = [c for c in whole.checkpoints if c.phase == FIGHTING_ON]
    assert len(between) == 1  # before the second combat only
    fought = whole.events[: between[0].events]
    assert sum(e.kind == "CombatStarted" for e in fought) == 1
    _goes_on_from(whole, FIGHTING_ON)


def test_two_charges_take_a_checkpoint_between_them() -> None:
    for seed in range(20):
        whole = _played("Assault", "[]", 26, seed)
        if sum(e.kind == "ChargeDeclared" for e in whole.events) == 2:
            break
    else:
        raise AssertionError("no seed declared both charges")
    declared = [c for c in whole.checkpoints if c.phase == CHARGING_ON]
    assert len(declared) >= 1  # before every declaration question but the first
    for at in declared:
        assert whole.answered[at.step].prompt == "Declare a charge?"
        assert any(e.kind == "ChargeDeclared" for e in whole.events[: at.events])
    _goes_on_from(whole, CHARGING_ON)
