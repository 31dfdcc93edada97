"""A throwaway game (a computer player's look-ahead) skips the per-choice state hash and
otherwise plays exactly as a checked one."""

from __future__ import annotations

from pathlib import Path

from engine.bot import RandomBot
from engine.bot.players import lookahead_copy
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_without_hashes_has_the_same_rolls_events_and_log_lengths() -> None:
    scenario = load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml")
    checked, bare = Game(scenario, 4), Game(scenario, 4, hashes=False)
    bot = RandomBot(4)
    while checked.pending is not None:
        choice = bot.choose(checked.pending)
        checked.choose(choice)
        bare.choose(choice)
    assert bare.outcome == checked.outcome and bare.rolls == checked.rolls
    assert [e.text for e in bare.events] == [e.text for e in checked.events]
    assert [(c.rolls, c.events) for c in bare.checkups] == [
        (c.rolls, c.events) for c in checked.checkups
    ]
    assert {c.state_hash for c in bare.checkups} == {""}
    assert all(len(c.state_hash) == 16 for c in checked.checkups)


def test_a_look_ahead_copy_hashes_nothing_after_its_checkpoint() -> None:
    scenario = load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml")
    game = Game(scenario, 9)
    bot = RandomBot(9)
    while game.pending is not None and len(game.choices) < 60:
        game.choose(bot.choose(game.pending))
    copy = lookahead_copy(game, 0, 12345)
    assert copy is not None and copy.pending == game.pending
    since = max(at.step for at in game.checkpoints if at.written)  # where it starts
    assert since < len(game.choices)
    assert {c.state_hash for c in copy.checkups[since:]} == {""}
    assert copy.checkups[:since] == game.checkups[:since]


def test_a_throwaway_game_writes_no_checkpoint_until_one_is_read() -> None:
    """A look-ahead never reads its own checkpoints, so it writes none when taking them
    (wh40k6 wrote one every four choices); read, each is the one a checked game wrote."""
    scenario = load_scenario(ROOT / "scenarios" / "wh40k6-open-war.toml")
    checked, bare = Game(scenario, 6), Game(scenario, 6, hashes=False)
    bot = RandomBot(6)
    while checked.pending is not None and len(checked.choices) < 150:
        choice = bot.choose(checked.pending)
        checked.choose(choice)
        bare.choose(choice)
    first = next(i for i, at in enumerate(bare.checkpoints) if at.written)
    assert sum(at.written for at in checked.checkpoints[first + 1 :]) > 5
    assert not any(at.written for at in bare.checkpoints[first + 1 :])
    assert [at.to_record() for at in bare.checkpoints] == [
        at.to_record() for at in checked.checkpoints
    ]
    copy = lookahead_copy(checked, 0, 77)
    assert copy is not None and copy.pending == checked.pending
    while copy.pending is not None and len(copy.choices) < 190:
        copy.choose(bot.choose(copy.pending))
    ahead = copy.checkpoints[len(checked.checkpoints) :]
    assert ahead and not any(at.written for at in ahead)
