"""Confrontation positions keep the flags their phase's start would clear: engaged at the
Activation phase (no disengaging from a combat entered this phase), fought at Combat (#19)."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game
from engine.position import parse_position
from engine.rulesets.confrontation.ruleset import Confrontation
from engine.rulesets.confrontation.state import CState

SCENARIOS = Path(__file__).parents[3] / "scenarios"

TEXT = """
scenario = "confrontation-crossing.toml"
round = 1
phase = "{phase}"
[confrontation]
tactical_winner = 1
[[confrontation.fighters]]
player = 1
profile = "spearman"
cell = [5, 5]
states = {states}
[[confrontation.fighters]]
player = 2
profile = "cutthroat"
cell = [5, 6]
"""


def start(phase: str, states: str) -> tuple[Game, CState]:
    position = parse_position(TEXT.format(phase=phase, states=states), "p.toml", base=SCENARIOS)
    game = Game(position.scenario, 0, position=position)
    assert isinstance(game.ruleset, Confrontation)
    return game, game.ruleset.state


def common_action(game: Game) -> str:
    """Player 1 goes first and declares A1's common action: the next question."""
    game.choose_key("me")
    game.choose_key("common")
    assert game.pending is not None
    return game.pending.prompt


def test_engaged_this_activation_phase_is_kept_and_forbids_disengaging() -> None:
    """§6.7: no disengagement for a fighter engaged during this Activation phase: A1's
    common action has nothing to offer, and B1's card comes next."""
    game, state = start("Activation", '["engaged"]')
    assert state.fighters["A1"].engaged
    assert common_action(game) == "What does Bogfen Cutthroat B1 do?"
    fresh, _ = start("Activation", "[]")
    assert common_action(fresh) == "What does Lantern Spearman A1 do?"
    assert fresh.pending is not None and "disengage_walk" in fresh.pending


def test_fought_is_kept_at_the_start_of_combat_and_undo_replays_the_position() -> None:
    game, state = start("Combat", '["fought"]')
    assert state.fighters["A1"].fought
    assert not [c for c in game.checkpoints if c.phase == "Combat" and c.round == 1]
    assert game.pending is not None
    game.choose_key(game.pending.keys()[0])
    back = game.undone()
    assert isinstance(back.ruleset, Confrontation)
    assert back.ruleset.state.fighters["A1"].fought
    assert back.state_hash() == start("Combat", '["fought"]')[0].state_hash()


def test_shot_this_round_is_kept() -> None:
    """§6.9: a fighter shoots once a round; a position says it has (the card shows it)."""
    game, state = start("Combat", '["shot"]')
    assert state.fighters["A1"].shots == 1
    view = game.view().model("A1")
    assert view is not None and "shot" in view.states
    _, fresh = start("Combat", "[]")
    assert fresh.fighters["A1"].shots == 0
