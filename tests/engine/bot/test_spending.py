"""What the computer player spends a command point on: a re-roll only where the engine's
odds on it say it more likely than not does better (engine.bot.heuristic `SPEND`)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from engine.bot.heuristic import OptionScorer
from engine.bot.players import make_bot
from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Odds, Option
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def advance_reroll(seed: int, faces: tuple[int, ...]) -> Game:
    """Kill Team played by two random players (whose answers no odds change) to the first
    offer of a Command Re-roll of an Advance roll showing one of ``faces``."""
    game = Game(load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml"), seed)
    players = (make_bot("random", seed), make_bot("random", seed + 1))
    asked = tuple(f"Re-roll the Advance roll of {face}?" for face in faces)
    while game.pending is not None and not game.pending.prompt.startswith(asked):
        game.choose(players[game.pending.player].decide(game))
    assert game.pending is not None, "no Advance re-roll was offered"
    return game


def test_normal_keeps_its_command_point_on_an_advance_roll_of_4_or_5() -> None:
    # the playtest: normal spent its Command Re-roll on an Advance of 5 and got a 2
    game = advance_reroll(4, (4, 5))
    pending = game.pending
    assert pending is not None
    yes = pending.option("yes")
    assert yes is not None and yes.spends and yes.odds is not None
    assert yes.odds.chances[0][1] <= Fraction(2, 6)
    assert make_bot("normal", 4).decide(game).key == "no"


def test_normal_re_rolls_an_advance_roll_of_1() -> None:
    game = advance_reroll(2, (1,))
    assert make_bot("normal", 2).decide(game).key == "yes"


def test_a_re_roll_is_bought_only_on_better_than_even_odds() -> None:
    game = advance_reroll(1, (1, 2, 3, 4, 5))
    view = game.view()

    def ranked(chance: Fraction) -> list[str]:
        odds = Odds.of(("re-roll passes", chance))
        options = (Option("no", "No re-roll"), Option("0", "Re-roll", odds=odds, spends=True))
        decision = Decision(0, DecisionKind.PICK_OPTION, "Command Re-roll?", options)
        scorer = OptionScorer(decision, view, game.board, game.ruleset.EVALUATION)
        return [o.key for o in scorer.ranked()]

    assert ranked(Fraction(2, 3)) == ["0", "no"]
    assert ranked(Fraction(1, 2)) == ["no", "0"]  # even odds: the point is kept
    assert ranked(Fraction(1, 3)) == ["no", "0"]


def test_a_re_roll_does_better_by_the_numbers() -> None:
    advance = Check.purpose("Advance distance")
    assert [advance.better(face) for face in (1, 5, 6)] == [Fraction(5, 6), Fraction(1, 6), 0]
    charge = Check("charge", 9, "distance 9", dice=2, fails_on=frozenset())
    assert charge.better(5) == Fraction(10, 36)  # failed: any 9+
    assert charge.better(10) == Fraction(3, 36)  # passed: 11 or 12
