"""Game: choices are validated, rejected ones change nothing, undo replays minus one."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.decisions import Choice
from engine.errors import ChoiceRejection, IllegalChoiceError, StaleChoiceError, UndoRefusedError
from engine.game import Game
from engine.scenario import Scenario, load_scenario

CROSSROADS = Path(__file__).parents[2] / "scenarios" / "killteam-crossroads.toml"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(CROSSROADS)


def test_unknown_option_changes_nothing(scenario: Scenario) -> None:
    game = Game(scenario, 3)
    before = (game.state_hash(), game.pending, len(game.rolls), len(game.events))
    assert game.pending is not None
    with pytest.raises(IllegalChoiceError) as info:
        game.choose(Choice(game.pending.id, "no such option"))
    assert info.value.reason is ChoiceRejection.UNKNOWN_OPTION
    assert (game.state_hash(), game.pending, len(game.rolls), len(game.events)) == before
    assert game.choices == []


def test_stale_choice_is_refused(scenario: Scenario) -> None:
    game = Game(scenario, 3)
    assert game.pending is not None
    old = game.pending
    game.choose_key(old.options[0].key)
    with pytest.raises(StaleChoiceError, match=f"#{old.id}"):
        game.choose(Choice(old.id, old.options[0].key))
    assert len(game.choices) == 1


def test_same_seed_and_choices_same_game(scenario: Scenario) -> None:
    games = []
    for _ in range(2):
        game = Game(scenario, 11)
        bot = RandomBot(5)
        for _ in range(60):
            if game.pending is None:
                break
            game.choose(bot.choose(game.pending))
        games.append(game)
    a, b = games
    assert a.rolls == b.rolls and a.state_hash() == b.state_hash()
    assert [e.text for e in a.events] == [e.text for e in b.events]


def test_undo_without_dice_restores_the_previous_state(scenario: Scenario) -> None:
    game = Game(scenario, 3)
    assert game.pending is not None
    game.choose_key(game.pending.options[0].key)  # choose a zone: no dice after it
    before = game.state_hash()
    assert game.pending is not None
    game.choose_key(game.pending.options[-1].key)
    assert game.can_undo
    back = game.undone()
    assert back.state_hash() == before
    assert len(back.choices) == 1


def test_undo_is_refused_once_dice_were_rolled(scenario: Scenario) -> None:
    game = Game(scenario, 3)
    bot = RandomBot(1)
    while True:  # deployment rolls no dice; the first initiative roll-off does
        rolls = len(game.rolls)
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
        if len(game.rolls) > rolls:
            break
    assert not game.can_undo
    with pytest.raises(UndoRefusedError, match="dice were rolled"):
        game.undone()


def test_nothing_to_undo(scenario: Scenario) -> None:
    with pytest.raises(UndoRefusedError, match="nothing to undo"):
        Game(scenario, 3).undone()


def test_finished_game_accepts_no_choice(scenario: Scenario) -> None:
    game = Game(scenario, 2)
    bot = RandomBot(2)
    while game.pending is not None:
        game.choose(bot.choose(game.pending))
    assert game.outcome is not None
    with pytest.raises(IllegalChoiceError) as info:
        game.choose_key("anything")
    assert info.value.reason is ChoiceRejection.NO_DECISION
    assert game.events[-1].kind == "GameEnded"
