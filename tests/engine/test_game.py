"""Game: choices are validated, rejected ones change nothing, undo replays minus one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.bot import RandomBot
from engine.decisions import Choice
from engine.dice import Dice
from engine.errors import (
    ChoiceRejection,
    DiceScriptError,
    EngineBugError,
    IllegalChoiceError,
    StaleChoiceError,
    UndoRefusedError,
)
from engine.events import Scalar
from engine.game import Game
from engine.ruleset import RuleContext
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


def _bot_game(scenario: Scenario, choices: int) -> Game:
    game = Game(scenario, 7)
    bot = RandomBot(2)
    for _ in range(choices):
        assert game.pending is not None
        game.choose(bot.choose(game.pending))
    return game


def test_an_engine_bug_mid_choice_leaves_the_game_as_before(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ruleset raises after rolling and changing state: the choice is undone whole."""
    reference = _bot_game(scenario, 80)
    # The first choice after the 40th that rolls dice and reports two or more events.
    step = next(
        i
        for i in range(40, 80)
        if reference.checkups[i].rolls > reference.checkups[i - 1].rolls
        and reference.checkups[i].events - reference.checkups[i - 1].events >= 2
    )
    game = reference.replayed(reference.choices[:step])
    heard: list[int] = []
    game.listeners.append(lambda g: heard.append(len(g.choices)))
    before = (game.state_hash(), game.pending, game.rolls, [e.text for e in game.events])
    calls = {"emit": 0}
    emit = RuleContext.emit

    def failing_emit(ctx: RuleContext, kind: str, text: str, **fields: Scalar) -> None:
        calls["emit"] += 1
        if calls["emit"] == 2:
            raise KeyError("boom in the rules")
        emit(ctx, kind, text, **fields)

    monkeypatch.setattr(RuleContext, "emit", failing_emit)
    with pytest.raises(EngineBugError, match="KeyError: 'boom in the rules'") as info:
        game.choose(reference.choices[step])
    assert "failing_emit" in info.value.trace and "Traceback" in info.value.trace
    assert game.rolls != () and len(game.choices) == step and heard == []
    assert (game.state_hash(), game.pending, game.rolls, [e.text for e in game.events]) == before
    # Other choices, and then the same one, still work and lead where they always did.
    pending = game.pending
    assert pending is not None
    other = next(o.key for o in pending.options if o.key != reference.choices[step].key)
    game.choose_key(other)
    game = game.undone() if game.can_undo else game.replayed(game.choices[:-1])
    for choice in reference.choices[step:]:
        game.choose(choice)
    assert game.state_hash() == reference.state_hash() and game.rolls == reference.rolls
    assert [e.text for e in game.events] == [e.text for e in reference.events]
    assert game.checkpoints == reference.checkpoints  # phase boundaries still recorded


def test_an_engine_bug_with_scripted_dice_restores_the_script(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule case's scripted dice are back where they were, so the case can go on."""
    reference = _bot_game(scenario, 31)
    faces = [r.total for r in reference.rolls]
    game = Game(scenario, 7, dice=Dice.scripted(faces))
    for choice in reference.choices[:-1]:
        game.choose(choice)
    unused = game.dice.unused  # type: ignore[attr-defined]
    monkeypatch.setattr(RuleContext, "emit", _raise_once(RuleContext.emit))
    with pytest.raises(EngineBugError):
        game.choose(reference.choices[-1])
    assert game.dice.unused == unused  # type: ignore[attr-defined]
    game.choose(reference.choices[-1])
    assert game.state_hash() == reference.state_hash()


def _raise_once(emit: Callable[..., None], error: Exception | None = None) -> Callable[..., None]:
    """``emit`` that raises ``error`` (a ZeroDivisionError by default) on its first call."""
    raised: list[bool] = []

    def failing(ctx: RuleContext, kind: str, text: str, **fields: Scalar) -> None:
        if not raised:
            raised.append(True)
            raise error or ZeroDivisionError("rules bug")
        emit(ctx, kind, text, **fields)

    return failing


def test_a_wargrid_error_inside_the_rules_is_raised_as_itself_and_undone(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = _bot_game(scenario, 31)
    game = reference.replayed(reference.choices[:-1])
    before = (game.state_hash(), game.pending, len(game.events))
    error = DiceScriptError("no scripted die left")
    monkeypatch.setattr(RuleContext, "emit", _raise_once(RuleContext.emit, error))
    with pytest.raises(DiceScriptError):
        game.choose(reference.choices[-1])
    assert (game.state_hash(), game.pending, len(game.events)) == before
