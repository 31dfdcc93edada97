"""Checkpoints between two units' activations (Movement and Shooting), inside a unit's
move or run and before each unit is deployed: undo replays a few choices, not the whole phase,
move or deployment, and the game goes on from them as it did."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from engine.game import Game
from engine.position import parse_position
from engine.rulesets.wh40k6.deployment import DEPLOYING_ON, DEPLOYING_UNIT
from engine.rulesets.wh40k6.movement import MOVING_ON, MOVING_UNIT
from engine.rulesets.wh40k6.placement import ADJUST, EVERY, ONE_BY_ONE, RESET, THEN_ADJUST
from engine.rulesets.wh40k6.ruleset import Wh40k6
from engine.rulesets.wh40k6.shooting import RUNNING, SHOOTING_ON
from engine.scenario import load_scenario

SCENARIO = Path(__file__).parents[3] / "scenarios" / "wh40k6-open-war.toml"


@cache
def _played() -> Game:
    game = Game(load_scenario(SCENARIO), 5)
    rng = random.Random(5)
    while game.pending is not None and len(game.choices) < 400:
        game.choose_key(rng.choice(game.pending.keys()))
    return game


def goes_on_alike(whole: Game, index: int) -> None:
    """Restored at checkpoint ``index`` and given the same choices, the game makes the same
    rolls, events (with their round and phase) and checkpoints as ``whole``."""
    game = whole.restored(index, whole.choices)
    assert game.checkups == whole.checkups
    assert [(e.text, e.round, e.phase) for e in game.events] == [
        (e.text, e.round, e.phase) for e in whole.events
    ]
    assert game.checkpoints == whole.checkpoints


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


@pytest.mark.slow
def test_the_game_goes_on_from_a_checkpoint_before_a_unit_is_deployed() -> None:
    whole = _played()
    deploying = [i for i, c in enumerate(whole.checkpoints) if c.phase == DEPLOYING_ON]
    assert len(deploying) >= 4  # one per unit placed, both armies
    for index in (deploying[0], deploying[len(deploying) // 2], deploying[-1]):
        goes_on_alike(whole, index)


FUSSY = (ONE_BY_ONE, THEN_ADJUST, ADJUST, RESET)
"""Placement answers that make a unit's move long: one by one, adjusting, starting again."""


@cache
def _fussy(from_turn: int = 1) -> Game:
    """A game whose players often place models one by one, adjust them and start again
    (from turn ``from_turn`` on; 0: deployment too), so single moves run to dozens of
    choices."""
    game = Game(load_scenario(SCENARIO), 2)
    rng = random.Random(2)
    while game.pending is not None and len(game.choices) < 500:
        keys = game.pending.keys()
        fussy = [k for k in keys if k in FUSSY]
        moving = game.ruleset.state.game_turn >= from_turn  # type: ignore[attr-defined]
        pick = rng.choice(fussy) if fussy and moving and rng.random() < 0.5 else rng.choice(keys)
        game.choose_key(pick)
    return game


def _game_for(phase: str) -> Game:
    return _fussy(0) if phase == DEPLOYING_UNIT else _fussy()


@pytest.mark.parametrize("phase", [MOVING_UNIT, RUNNING, DEPLOYING_UNIT])
def test_a_long_move_takes_checkpoints_inside_its_placement(phase: str) -> None:
    game = _game_for(phase)
    points = game.checkpoints
    inside = [i for i, c in enumerate(points) if c.phase == phase]
    assert len(inside) >= (3 if phase == DEPLOYING_UNIT else 10)  # most units wait in reserve
    # From the unit's pick on, undo never replays more than a few of its choices: a
    # checkpoint every EVERY decisions, taken at the next question that can resume.
    gaps = [points[i].step - points[i - 1].step for i in inside]
    assert max(gaps) <= EVERY + 3
    prompts = [game.answered[points[i].step].prompt for i in inside]
    assert any(
        "(model by model)" in p or "finish, adjust a model, or start again?" in p for p in prompts
    )


@pytest.mark.slow
@pytest.mark.parametrize("phase", [MOVING_UNIT, RUNNING, DEPLOYING_UNIT])
def test_the_game_goes_on_from_a_checkpoint_inside_a_move(phase: str) -> None:
    whole = _game_for(phase)
    inside = [i for i, c in enumerate(whole.checkpoints) if c.phase == phase]
    for index in inside[:: max(1, len(inside) // 6)]:
        goes_on_alike(whole, index)
    # ... and as a position file: the placement so far comes back with it.
    at = whole.checkpoints[inside[-1]]
    position = parse_position(whole.position_text_at(at), "moving.position.toml")
    again = Game(position.scenario, 0, position=position)
    assert again.state_hash() == whole.checkups[at.step - 1].state_hash
    assert again.pending is not None
    assert again.pending.prompt == whole.answered[at.step].prompt


def test_a_wh40k6_game_writes_a_checkpoint_at_most_four_choices_after_the_last() -> None:
    """Its choices cost milliseconds to re-run, so it keeps its own gap (Ruleset.EAGER_GAP):
    undo re-runs at most three choices to reach the checkpoint it starts from."""
    game = Game(load_scenario(SCENARIO), 3)
    rng = random.Random(3)
    while game.pending is not None and len(game.choices) < 150:
        game.choose_key(rng.choice(game.pending.keys()))
    assert game.eager_gap == Wh40k6.EAGER_GAP == 4
    last = 0
    unwritten = 0
    for at in game.checkpoints:
        if at.written:
            last = at.step
        else:
            unwritten += 1
            assert at.step - last < 4
    assert unwritten  # the gap is used, not every checkpoint written at once
    assert Game(load_scenario(SCENARIO), 3, eager_gap=12).eager_gap == 12
