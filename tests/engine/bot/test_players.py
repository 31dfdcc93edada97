"""The computer players: seeded, legal, stronger than chance, and blind to the dice ahead."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bot.players import LEVELS, NormalPlayer, lookahead_copy, make_bot, worth
from engine.decisions import Choice
from engine.game import Game
from engine.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[3]


def scenario(name: str) -> Scenario:
    return load_scenario(ROOT / "scenarios" / f"{name}.toml")


def play(name: str, seed: int, levels: tuple[str, str], limit: int = 10_000) -> Game:
    game = Game(scenario(name), seed)
    players = (make_bot(levels[0], seed), make_bot(levels[1], seed + 1))
    while game.pending is not None and len(game.choices) < limit:
        game.choose(players[game.pending.player].decide(game))
    return game


def test_the_same_seed_plays_the_same_game() -> None:
    first = play("fatigue-crossroads", 4, ("normal", "easy"), limit=60)
    second = play("fatigue-crossroads", 4, ("normal", "easy"), limit=60)
    assert len(first.choices) == 60
    assert first.choices == second.choices
    assert first.state_hash() == second.state_hash()


def test_another_seed_plays_another_game() -> None:
    first = play("killteam-crossroads", 4, ("easy", "easy"), limit=120)
    other = play("killteam-crossroads", 5, ("easy", "easy"), limit=120)
    assert first.choices != other.choices


@pytest.mark.parametrize("seed", [1, 4])
def test_easy_beats_the_random_bot_at_kill_team(seed: int) -> None:
    game = play("killteam-crossroads", seed, ("easy", "random"))
    assert game.outcome is not None and game.outcome.winner == 0, game.outcome


def test_looking_ahead_leaves_the_game_untouched() -> None:
    game = play("fatigue-crossroads", 2, ("random", "random"), limit=60)
    assert game.checkpoints and game.pending is not None
    before = (list(game.choices), game.state_hash(), len(game.rolls), game.dice.draws)
    choice = NormalPlayer(9).decide(game)
    assert choice.decision_id == game.pending.id and choice.key in game.pending
    assert (list(game.choices), game.state_hash(), len(game.rolls), game.dice.draws) == before


def test_the_copy_does_not_foresee_the_dice() -> None:
    """The copy is at the same moment, but rolls from now on come from the bot's own seed."""
    game = play("killteam-crossroads", 3, ("random", "random"), limit=150)
    assert game.pending is not None
    copy = lookahead_copy(game, game.pending.player, 12345)
    assert copy is not None
    assert copy.state_hash() == game.state_hash() and copy.dice.draws == game.dice.draws
    assert copy.dice.seed == 12345 != game.dice.seed
    assert copy.pending == game.pending


def test_a_lost_game_is_the_worst_worth() -> None:
    game = play("fatigue-crossroads", 2, ("easy", "random"))
    assert game.outcome is not None and game.outcome.winner is not None
    assert worth(game, game.outcome.winner) > 0 > worth(game, 1 - game.outcome.winner)


def test_unknown_level_names_the_known_ones() -> None:
    assert LEVELS == ("easy", "normal", "random")
    with pytest.raises(ValueError, match="choose one of easy, normal, random"):
        make_bot("grandmaster", 1)


def test_the_choice_answers_the_pending_decision() -> None:
    game = play("confrontation-crossing", 1, ("random", "random"), limit=40)
    assert game.pending is not None
    for level in LEVELS:
        choice = make_bot(level, 1).decide(game)
        assert isinstance(choice, Choice) and choice.key in game.pending


@pytest.mark.parametrize(
    "ruleset", ["killteam", "wh40k6", "apocalypse", "confrontation", "fatigue"]
)
def test_the_readme_says_what_each_evaluation_counts(ruleset: str) -> None:
    """The note per ruleset (issue #20) is the evaluation's own list, so they cannot drift."""
    from engine.rulesets import find_ruleset

    counts = find_ruleset(ruleset).EVALUATION.counts
    assert counts and find_ruleset(ruleset).EVALUATION.name == ruleset
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ": " + "; ".join(counts) + "." in readme
