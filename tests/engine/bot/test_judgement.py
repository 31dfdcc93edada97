"""What the computer player weighs: the engine's odds, moves that do nothing, fatigue and
a coming rout (engine.bot.heuristic, engine.bot.evaluation, the Fatigue evaluation)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from engine.board import Cell
from engine.bot.heuristic import OptionScorer, chance, passing
from engine.bot.players import RESTORE, NormalPlayer, make_bot
from engine.checkpoints import last_at
from engine.decisions import Decision, DecisionKind, Odds, Option
from engine.game import Game
from engine.rulesets import find_ruleset
from engine.scenario import load_scenario
from engine.view import GameView, ModelView, SideView

ROOT = Path(__file__).resolve().parents[3]


def battle(name: str, seed: int = 1) -> Game:
    """A game played by two easy players until the first battle round has begun."""
    game = Game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed)
    players = (make_bot("easy", seed), make_bot("easy", seed + 1))
    while game.pending is not None and not any(c.round >= 1 for c in game.checkpoints):
        game.choose(players[game.pending.player].decide(game))
    assert game.pending is not None
    return game


def test_a_named_kill_chance_says_more_than_the_first_named_outcome() -> None:
    odds = Odds.of(
        ("if undefended: lands", Fraction(5, 6)),
        ("wounds", Fraction(3, 4)),
        ("kills", Fraction(1, 10)),
    )
    assert chance(odds) == Fraction(1, 10)
    assert chance(Odds.of(("charge succeeds", Fraction(1, 3)))) == Fraction(1, 3)


def test_a_charge_the_engine_says_will_fail_scores_below_other_actions() -> None:
    game = battle("confrontation-crossing")
    view = game.view()
    enemy = next(m for m in view.models if m.player == 1 and m.cell is not None)
    decision = Decision(
        0,
        DecisionKind.PICK_OPTION,
        "Declare the action",
        (
            Option(
                f"charge:{enemy.id}",
                "far",
                model=enemy.id,
                odds=Odds.of(("charge succeeds", Fraction(0))),
            ),
            Option(
                f"near:{enemy.id}",
                "near",
                model=enemy.id,
                odds=Odds.of(("charge succeeds", Fraction(1))),
            ),
            Option("common", "Common actions"),
            Option("nothing", "Nothing"),
        ),
    )
    ranked = [
        o.key for o in OptionScorer(decision, view, game.board, game.ruleset.EVALUATION).ranked()
    ]
    assert ranked == [f"near:{enemy.id}", "common", f"charge:{enemy.id}", "nothing"]


def test_a_move_that_stays_put_costs_half_a_model() -> None:
    game = battle("fatigue-crossroads")
    view = game.view()
    evaluation = game.ruleset.EVALUATION
    rank_and_file = [
        m for m in view.models if m.player == 0 and m.cell and not evaluation.is_leader(m)
    ]
    mover, other = rank_and_file[:2]
    stay = Option("here", "stay", cell=mover.cell)

    def score(subject: str) -> int:
        decision = Decision(0, DecisionKind.PICK_CELL, "Move: where?", (stay,), subject=subject)
        return OptionScorer(decision, view, game.board, evaluation).score(stay)

    assert score(mover.id) == score(other.id) - 50


def test_fatigue_counts_tokens_and_the_rout_coming_near() -> None:
    game = battle("fatigue-crossroads")
    evaluation = game.ruleset.EVALUATION
    view = game.view()
    base = evaluation.score(view, game.board, 0)
    tired = tuple(
        replace(m, states=("fatigue 2", *m.states)) if m.player == 0 else m for m in view.models
    )
    own = sum(1 for m in view.models if m.player == 0 and m.cell is not None)
    assert evaluation.score(replace(view, models=tired), game.board, 0) == base - own * 40

    def losing(out: int) -> GameView:
        side = view.sides[0]
        resources = tuple(
            (k, f"{out} (rout at 6)" if k == "Out of action" else v) for k, v in side.resources
        )
        sides: tuple[SideView, SideView] = (replace(side, resources=resources), view.sides[1])
        return replace(view, sides=sides)

    assert dict(view.sides[0].resources)["Out of action"].startswith("0 (rout at ")
    costs = [base - evaluation.score(losing(out), game.board, 0) for out in (0, 3, 6)]
    assert costs == [0, 100, 400]


def test_look_aheads_keep_within_the_rulesets_budget_of_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted in choices (deterministic), never fewer than two looks; cheap rulesets
    spend the rest on more futures of the dice (each option the same number); passing is
    one of the options weighed."""
    game = battle("fatigue-crossroads", 2)
    looked: list[tuple[int, str]] = []
    stopping: list[str] = []
    original = NormalPlayer.look

    def look(self: NormalPlayer, game: Game, option: Option, dice_seed: int) -> int:
        assert game.pending is not None
        looked.append((game.pending.id, option.key))
        if option.ends or passing(option):
            stopping.append(option.label)
        return original(self, game, option, dice_seed)

    monkeypatch.setattr(NormalPlayer, "look", look)
    players = (NormalPlayer(3), make_bot("easy", 4))
    budget = game.ruleset.EVALUATION.budget
    most = 0
    for _ in range(120):
        if game.pending is None:
            break
        before, player = len(looked), players[game.pending.player]
        allowed = player.looks(game) if isinstance(player, NormalPlayer) else 0
        game.choose(player.decide(game))
        mine = looked[before:]
        if isinstance(player, NormalPlayer) and mine:
            index = last_at(game.checkpoints, mine[0][0])
            assert index is not None
            replay = mine[0][0] - game.checkpoints[index].step
            assert len(mine) <= max(2, budget // (RESTORE + replay + player.depth(game) + 1))
            assert len(mine) <= allowed
            options = {key for _, key in mine}
            assert len(mine) % len(options) == 0
            most = max(most, len(mine) // len(options))
    assert most == NormalPlayer.futures == 3
    assert "Pass (final for this round)" in stopping  # weighed though it scores lowest


@pytest.mark.parametrize("name", ["wh40k6-open-war", "apocalypse-crossing"])
def test_a_big_model_counts_once_however_many_cells_it_covers(name: str) -> None:
    """A vehicle's view is repeated on each cell of its footprint (engine.footprints):
    the copies add nothing to either side's worth (a 3x3 transport was worth nine)."""
    game = battle(name)
    view = game.view()
    parts = [m for m in view.models if "~" in m.id]
    assert parts  # a big model stands on the table
    evaluation = game.ruleset.EVALUATION
    alone = replace(view, models=tuple(m for m in view.models if "~" not in m.id))
    for seat in (0, 1):
        assert evaluation.score(view, game.board, seat) == evaluation.score(alone, game.board, seat)


def test_a_wh40k6_objective_is_held_only_where_no_enemy_contests_it() -> None:
    """wh40k6 §4.6: a model within 3" and no enemy within 3" holds a marker; Apocalypse
    (§12.5) gives it to the side with more units within 3"."""
    marker = Cell(10, 10)
    near = [
        ModelView("A1.1", 0, "Warden", "W", Cell(10, 8), 1, 1, ("Squad", "scoring unit")),
        ModelView("A1.2", 0, "Warden", "W", Cell(11, 9), 1, 1, ("Squad", "scoring unit")),
        ModelView("B1.1", 1, "Raider", "r", Cell(12, 11), 1, 1, ("Mob", "scoring unit")),
    ]
    board = Game(load_scenario(ROOT / "scenarios" / "wh40k6-open-war.toml"), 1).board
    wh40k6 = find_ruleset("wh40k6").EVALUATION
    apocalypse = find_ruleset("apocalypse").EVALUATION
    assert wh40k6._holder(marker, near, board, 0) == 0  # contested
    assert wh40k6._holder(marker, near[:2], board, 0) == 1
    assert wh40k6._holder(marker, near[2:], board, 0) == -1
    assert apocalypse._holder(marker, near, board, 0) == 1  # two against one


def test_an_apocalypse_unit_leaves_a_held_objective_for_an_empty_one() -> None:
    """Hold the Crossing (§12.5): with O3 (23,11) held by a second Legion unit, a unit
    beside it draws toward the empty O2 (38,16), in the quick worth of its move and in
    the evaluation. Before, every unit drew toward the nearest objective: the normal
    Legion's seven units stood around O3 all game (seeds 1-20 against easy: 1 of 10 won
    as the Legion)."""
    game = battle("apocalypse-crossing")
    evaluation = game.ruleset.EVALUATION
    view = game.view()
    legion = [m for m in view.models if m.player == 0 and "~" not in m.id and m.cell]
    holder, mover = legion[0], legion[1]
    away = [m for m in view.models if m.player == 0 and m not in (holder, mover)]
    here, east = Cell(24, 12), Cell(30, 12)

    def placed(cell: Cell) -> GameView:
        models = [replace(holder, cell=Cell(23, 11)), replace(mover, cell=cell)]
        models += [replace(m, cell=None, removed=True) for m in away]
        return replace(view, models=tuple(models + [m for m in view.models if m.player]))

    before = placed(here)
    assert evaluation.score(placed(east), game.board, 0) > evaluation.score(before, game.board, 0)
    stay, go = Option("stay", "stay", cell=here), Option("go", "go", cell=east)
    decision = Decision(0, DecisionKind.PICK_CELL, "Move: where?", (stay, go), subject=mover.id)
    assert OptionScorer(decision, before, game.board, evaluation).ranked()[0] is go
    # the one unit holding O3 is worth more there than on its way to O2

    def single(cell: Cell) -> GameView:
        return replace(placed(cell), models=placed(cell).models[1:])

    assert evaluation.score(single(here), game.board, 0) > evaluation.score(
        single(east), game.board, 0
    )


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_computer_vehicle_faces_where_the_engine_suggests(level: str) -> None:
    """Played: every computer tank deployed "facing north", its rear armour to an enemy in
    the south; the eight facings tie on quick worth, and the first one won."""
    game = Game(load_scenario(ROOT / "scenarios" / "wh40k6-open-war.toml"), 3)
    bots = (make_bot(level, 3), make_bot(level, 4))
    telling = 0  # facings asked whose suggestion is not the first option offered
    while game.pending is not None and telling < 1 and len(game.choices) < 400:
        pending = game.pending
        choice = bots[pending.player].decide(game)
        if pending.prompt.startswith("Which way does"):
            suggested = [o.key for o in pending.options if o.suggested]
            assert suggested and choice.key == suggested[0]
            telling += suggested[0] != pending.options[0].key
        game.choose(choice)
    assert telling
