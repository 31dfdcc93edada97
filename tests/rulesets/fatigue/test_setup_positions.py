"""fatigue positions at the set-up steps: force choice and deployment (§4.1-§4.3; #19).

A game's set-up checkpoints are written as positions (`Game.position_text_at`) that go on
exactly as the game did; a hand-written "Deployment" position is the game once both
forces are mustered, so with the same seed it plays as the game from its deployment."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.decisions import Choice
from engine.events import Event
from engine.game import Game
from engine.position import PositionError, parse_position
from engine.rulesets.fatigue.deployment import DEPLOYING, FORCES
from engine.scenario import load_scenario

SCENARIOS = Path(__file__).parents[3] / "scenarios"
SPAN = SCENARIOS / "fatigue-broken-span.toml"
"""Three forces on offer: each player picks one (§7 #1)."""


def played(seed: int) -> Game:
    """A whole game on the Broken Span, random but legal choices."""
    game = Game(load_scenario(SPAN), seed)
    rng = random.Random(seed)
    while game.pending is not None:
        game.choose_key(rng.choice(game.pending.keys()))
    return game


def logged(events: list[Event]) -> list[tuple[str, str, int, str, dict[str, object]]]:
    return [(e.kind, e.text, e.round, e.phase, dict(e.fields)) for e in events]


def goes_on_as(game: Game, whole: Game, step: int, events: int, rolls: int) -> None:
    """``game``, started ``step`` choices into ``whole``, makes the same choices after
    them with the same events, rolls and state hash after every one."""
    for offset, choice in enumerate(whole.choices[step:]):
        assert game.pending is not None
        assert game.pending.keys() == whole.answered[step + offset].keys()
        game.choose(Choice(choice.decision_id - step, choice.key))
        assert game.state_hash() == whole.checkups[step + offset].state_hash
    assert logged(game.events) == logged(whole.events[events:])
    assert [(r.faces, r.reason) for r in game.rolls] == [
        (r.faces, r.reason) for r in whole.rolls[rolls:]
    ]
    assert game.outcome == whole.outcome


def test_every_set_up_checkpoint_is_a_position_that_goes_on_as_the_game_did() -> None:
    """Before each force pick, before the deployment roll-off and before each unit is
    placed: written, read back and played with the game's remaining choices."""
    whole = played(5)
    setup = [c for c in whole.checkpoints if c.round == 0]
    phases = [c.phase for c in setup]
    assert phases[:3] == [*FORCES, "Deployment"]
    assert set(phases[3:]) == set(DEPLOYING)
    units = len(whole.ruleset.state.units)  # type: ignore[attr-defined]
    assert len(phases[3:]) == units  # one checkpoint before each unit is placed
    for at in (setup[1], setup[2], setup[3], setup[-1]):
        text = whole.position_text_at(at)
        assert f'round = 1\nphase = "{at.phase}"' in text
        position = parse_position(text, "setup.position.toml")
        game = Game(position.scenario, 999, position=position)  # the file's seed wins
        assert game.state_hash() == (
            whole.checkups[at.step - 1].state_hash if at.step else whole.start_checkup.state_hash
        )
        goes_on_as(game, whole, at.step, at.events, at.rolls)


def test_the_last_set_up_checkpoint_is_what_w_writes_during_deployment() -> None:
    whole = played(5)
    first_unit = next(c for c in whole.checkpoints if c.phase in DEPLOYING)
    game = Game(load_scenario(SPAN), 5)
    for choice in whole.choices[: first_unit.step]:
        game.choose(choice)
    assert game.checkpoints[-1].phase in DEPLOYING
    assert game.position_text() == whole.position_text_at(first_unit)


def test_a_hand_written_deployment_position_plays_as_the_game_from_its_deployment() -> None:
    """The forces the players picked, named: the same seed then rolls the same deployment
    roll-off, and the game goes on with the same events, rolls and hashes."""
    whole = played(5)
    at = next(c for c in whole.checkpoints if c.phase == "Deployment")
    state = whole.ruleset.state  # type: ignore[attr-defined]
    forces = [f'"{side.force}"' for side in state.sides]
    text = (
        'scenario = "fatigue-broken-span.toml"\nround = 1\nphase = "Deployment"\n'
        f"[fatigue]\nforces = [{', '.join(forces)}]\n"
    )
    position = parse_position(text, "deploy.toml", base=SCENARIOS)
    game = Game(position.scenario, 5, position=position)
    assert game.state_hash() == whole.checkups[at.step - 1].state_hash
    goes_on_as(game, whole, at.step, at.events, at.rolls)


def test_a_force_choice_position_is_the_start_of_the_game() -> None:
    whole = played(7)
    text = 'scenario = "fatigue-broken-span.toml"\nround = 1\nphase = "Force choice"\n'
    position = parse_position(text, "forces.toml", base=SCENARIOS)
    game = Game(position.scenario, 7, position=position)
    goes_on_as(game, whole, 0, 0, 0)


@pytest.mark.parametrize(
    ("phase", "table", "message"),
    [
        ("Deployment", 'forces = ["Dustroad Wardens", "Nobody"]', r"fatigue\.forces.*name two"),
        ("Deployment", "initiative = 1", r"fatigue\.initiative.*give none"),
        (
            "Deployment",
            '[[fatigue.units]]\nplayer = 1\nunit = "Road Spears"',
            r"fatigue\.units.*give none",
        ),
        ("Force choice", 'forces = ["Dustroad Wardens", "Ashfang Scavengers"]', r"choose"),
    ],
)
def test_bad_set_up_positions_are_refused(phase: str, table: str, message: str) -> None:
    text = f'scenario = "fatigue-broken-span.toml"\nround = 1\nphase = "{phase}"\n[fatigue]\n'
    position = parse_position(text + table, "bad.toml", base=SCENARIOS)
    with pytest.raises(PositionError, match=message):
        Game(position.scenario, 0, position=position)


def test_a_set_up_position_is_in_round_one() -> None:
    text = 'scenario = "fatigue-broken-span.toml"\nround = 2\nphase = "Deployment"\n'
    position = parse_position(text, "late.toml", base=SCENARIOS)
    with pytest.raises(PositionError, match=r"key 'round'.*use round 1"):
        Game(position.scenario, 0, position=position)
