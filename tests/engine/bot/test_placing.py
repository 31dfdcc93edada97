"""Where the computer puts a unit: on a cell rather than by a roundabout way, and never
round in circles when a placement starts again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.bot.players import NormalPlayer, make_bot
from engine.decisions import Choice, Decision
from engine.game import Game
from engine.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def until(name: str, seed: int, asked: Callable[[Game, Decision], bool]) -> Game:
    """The random bots play ``name`` (seed) until ``asked`` says the question is pending."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed)
    bots = (make_bot("random", seed), make_bot("random", seed + 1))
    while game.pending is not None and not asked(game, game.pending):
        game.choose(bots[game.pending.player].decide(game))
    assert game.pending is not None
    return game


def formation(game: Game, decision: Decision) -> bool:
    """A wh40k6 unit moved in the battle: keep its formation, or place one by one."""
    battle = bool(game.checkpoints) and game.checkpoints[-1].round >= 1
    return battle and "keeping its formation" in decision.prompt and "one-by-one" in decision


def one_by_one(game: Game) -> Decision:
    """A person places the pending unit model by model, each on its first cell offered;
    the question then asked (finish or start again)."""
    assert game.pending is not None
    game.choose(Choice(game.pending.id, "one-by-one"))
    while "start again" not in game.pending.prompt:
        game.choose(Choice(game.pending.id, game.pending.options[0].key))
    return game.pending


def test_a_question_it_came_back_to_is_answered_another_way() -> None:
    """wh40k6 seed 1, Warden Squad Beta's first move, placed model by model: normal
    starts again; placed the same way, the same question returns and it finishes. (It
    answered a position the same way every time: a mob was re-placed 18,000 times.)"""
    game = until("wh40k6-open-war", 1, formation)
    normal = NormalPlayer(1)
    asked = one_by_one(game)
    assert asked.prompt == "Warden Squad Beta: finish or start again?"
    first = normal.decide(game)
    assert first.key == "reset"
    game.choose(first)
    assert game.pending is not None and formation(game, game.pending)
    again = one_by_one(game)
    assert (again.prompt, again.options) == (asked.prompt, asked.options)
    assert normal.decide(game).key == "done"


def test_a_wh40k6_unit_is_placed_by_a_cell_not_model_by_model() -> None:
    """Offered its formation's cells or the models one by one, normal picks a cell (one
    choice: placed model by model it took a dozen and often ended out of coherency)."""
    game = until("wh40k6-open-war", 3, formation)
    assert game.pending is not None
    picked = game.pending.option(NormalPlayer(3).decide(game).key)
    assert picked is not None and picked.cell is not None, picked


def test_an_apocalypse_army_deploys_rather_than_waiting_in_reserve() -> None:
    game = until("apocalypse-crossing", 1, lambda _, d: "reserve" in d)
    assert game.pending is not None and game.pending.prompt.startswith("Deploy")
    for level in ("easy", "normal"):
        picked = game.pending.option(make_bot(level, 1).decide(game).key)
        assert picked is not None and picked.cell is not None, (level, picked)
