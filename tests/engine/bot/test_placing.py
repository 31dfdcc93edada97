"""Where the computer puts a unit: on a cell rather than by a roundabout way, and never
round in circles when a placement starts again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.board import Cell
from engine.bot.placing import moved_view
from engine.bot.players import NormalPlayer, make_bot, scorer
from engine.decisions import Choice, Decision
from engine.footprints import footprint_owner
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


def test_a_question_it_came_back_to_is_answered_another_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """wh40k6 seed 1, Warden Squad Beta's first move, placed model by model: normal
    looking ahead starts again; placed the same way, the same question returns and it
    finishes. (It answered a position the same way every time: a mob was re-placed
    18,000 times. wh40k6 normal no longer looks ahead there, `foresight`; the answer a
    look-ahead gives is the one that can come back.)"""
    game = until("wh40k6-open-war", 1, formation)
    monkeypatch.setattr(game.ruleset.EVALUATION, "foresight", True)
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


def test_the_normal_apocalypse_player_moves_where_the_unit_takes_an_objective() -> None:
    # seed 2, the random bots' 93rd choice: the Horde's Scrap Gunners move up to 5". The
    # quick worth of a cell (nearness to an objective, cover) sent them to (30,24), where
    # no objective changes hands; weighed by the evaluation with the unit standing there,
    # (25,22) puts a unit within 3" of the empty O4 and the Horde holds it
    game = until("apocalypse-crossing", 2, lambda g, _: len(g.choices) == 93)
    decision = game.pending
    assert decision is not None and "Scrap Gunners: move where?" in decision.prompt
    evaluation = game.ruleset.EVALUATION
    goals = [objective.cell for objective in game.board.objectives]

    def held(key: str) -> int:
        option = next(o for o in decision.options if o.key == key)
        assert option.cell is not None and decision.subject is not None
        view = moved_view(game.view(), decision.subject, option.cell)
        standing = [m for m in view.models if not m.removed and m.cell is not None]
        return sum(evaluation._holder(goal, standing, game.board, 1) for goal in goals)

    quick = scorer(game).ranked()[0].key
    chosen = NormalPlayer(2).decide(game).key
    assert (quick, held(quick)) == ("30,24", 0)
    assert (chosen, held(chosen)) == ("25,22", 1)
    assert NormalPlayer(2).decide(game).key == chosen  # deterministic


def test_a_moved_view_shifts_every_cell_of_a_big_footprint() -> None:
    game = until("apocalypse-crossing", 1, lambda g, _: bool(g.checkpoints))
    view = game.view()
    big = next(m for m in view.models if footprint_owner(m.id) != m.id and m.cell is not None)
    owner = view.model(footprint_owner(big.id))
    assert owner is not None and owner.cell is not None and big.cell is not None
    target = Cell(owner.cell.x + 2, owner.cell.y + 1)
    moved = moved_view(view, owner.id, target)
    after = {m.id: m.cell for m in moved.models}
    assert after[owner.id] == target
    assert after[big.id] == Cell(big.cell.x + 2, big.cell.y + 1)
    untouched = [m for m in view.models if footprint_owner(m.id) != owner.id]
    assert all(after[m.id] == m.cell for m in untouched)
