"""Checkpoints between two units' activations (Movement and Shooting) and before each unit
is deployed: undo replays one unit's choices, not the whole phase or deployment, and the
game goes on from them as it did."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from engine.game import Game
from engine.position import parse_position
from engine.rulesets.wh40k6.deployment import DEPLOYING_ON
from engine.rulesets.wh40k6.movement import MOVING_ON
from engine.rulesets.wh40k6.shooting import SHOOTING_ON
from engine.scenario import load_scenario

SCENARIO = Path(__file__).parents[3] / "scenarios" / "wh40k6-open-war.toml"


@cache
def _played() -> Game:
    game = Game(load_scenario(SCENARIO), 5)
    rng = random.Random(5)
    while game.pending is not None and len(game.choices) < 400:
        game.choose_key(rng.choice(game.pending.keys()))
    return game


def test_units_moving_and_shooting_each_get_a_checkpoint() -> None:
    game = _played()
    inside = [c for c in game.checkpoints if c.phase in (MOVING_ON, SHOOTING_ON)]
    assert {c.phase for c in inside} == {MOVING_ON, SHOOTING_ON}
    # Taken where the next unit is picked (or the phase ends, when none is left).
    prompts = {game.answered[at.step].prompt for at in inside if at.step < len(game.choices)}
    assert {"Which unit moves next?", "Which unit acts next?"} <= prompts


def test_the_game_goes_on_from_a_checkpoint_between_two_units() -> None:
    whole = _played()
    for phase in (MOVING_ON, SHOOTING_ON):
        index = max(i for i, c in enumerate(whole.checkpoints) if c.phase == phase)
        game = whole.restored(index, whole.choices)
        assert game.checkups == whole.checkups
        assert game.rolls == whole.rolls
        assert [e.text for e in game.events] == [e.text for e in whole.events]
        assert [(e.round, e.phase) for e in game.events] == [
            (e.round, e.phase) for e in whole.events
        ]
        # ... and written as a position file, too.
        at = whole.checkpoints[index]
        text = whole.position_text_at(at)
        assert f'phase = "{phase}"' in text
        position = parse_position(text, "inside.position.toml")
        again = Game(position.scenario, 0, position=position)
        assert again.state_hash() == (whole.checkups[at.step - 1].state_hash)


def test_the_game_goes_on_from_a_checkpoint_before_a_unit_is_deployed() -> None:
    whole = _played()
    deploying = [i for i, c in enumerate(whole.checkpoints) if c.phase == DEPLOYING_ON]
    assert len(deploying) >= 4  # one per unit placed, both armies
    for index in (deploying[0], deploying[len(deploying) // 2], deploying[-1]):
        game = whole.restored(index, whole.choices)
        assert game.checkups == whole.checkups
        assert [(e.text, e.round, e.phase) for e in game.events] == [
            (e.text, e.round, e.phase) for e in whole.events
        ]
        assert game.checkpoints == whole.checkpoints
