"""A wounded leader weighs what the engine's threat says can reach it before it charges
or moves into enemy reach (engine.bot.peril)."""

from __future__ import annotations

from pathlib import Path

from engine.bot.peril import peril
from engine.bot.players import make_bot
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def played(seed: int, choices: int) -> Game:
    """Kill Team played by two random players for ``choices`` choices."""
    game = Game(load_scenario(ROOT / "scenarios" / "killteam-crossroads.toml"), seed)
    players = (make_bot("random", seed), make_bot("random", seed + 1))
    while game.pending is not None and len(game.choices) < choices:
        game.choose(players[game.pending.player].decide(game))
    return game


def test_a_leader_on_its_last_wound_does_not_charge_into_enemy_reach() -> None:
    game = played(104, 220)
    decision = game.pending
    assert decision is not None and "charge" in decision
    leader = game.view().model(decision.subject or "")
    assert leader is not None and game.ruleset.EVALUATION.is_leader(leader)
    assert (leader.wounds, leader.max_wounds) == (1, 2)
    threat = game.ruleset.threat(leader.id)
    assert threat is not None and any(menace.reaches for menace in threat.menaces)
    # before: it charged, its one wound weighed no more than a full leader's
    assert make_bot("normal", 104).decide(game).key != "charge"


def test_only_a_wounded_leader_within_enemy_reach_is_in_peril() -> None:
    game = played(104, 220)
    seat = 1  # the Reaver Boss's side
    threat = game.ruleset.threat("B1")
    assert threat is not None
    reaching = sum(1 for menace in threat.menaces if menace.reaches)
    assert reaching >= 1
    # its worth (two models) times the half of its wounds lost, for each enemy that
    # reaches it (none is in contact yet)
    assert peril(game, seat) == 200 * reaching // 2
    assert peril(game, 1 - seat) == 0  # the other side's leader is unhurt or out of reach
