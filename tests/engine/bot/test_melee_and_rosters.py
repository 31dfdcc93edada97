"""What the normal player weighs beyond the quick worth: the melee edge of models in
contact, a charge against a walk, one charge target rather than all, and a roster that
spends the points (engine.bot.evaluation, engine.bot.heuristic, engine.bot.players)."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from engine.board import Cell
from engine.bot import players
from engine.bot.heuristic import OptionScorer
from engine.bot.players import NormalPlayer, make_bot
from engine.decisions import Choice, Decision, DecisionKind, Odds, Option
from engine.game import Game
from engine.position import parse_position
from engine.rulesets import find_ruleset
from engine.rulesets.killteam.evaluation import KillTeamEvaluation
from engine.scenario import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[3]
CROSSROADS = ROOT / "scenarios" / "killteam-crossroads.toml"


def no_markers() -> str:
    """The crossroads scenario with its two objective markers taken off the map (so a
    move onto a marker does not outweigh what the test is about)."""
    text = CROSSROADS.read_text()
    return re.sub(r'"([.#oP12]{30})"', lambda m: '"' + re.sub("[12]", ".", m.group(1)) + '"', text)


def brute_and_trooper(mover: str) -> Game:
    """Round 1, Movement: a Reaver Brute 4" from a Militia Trooper, far from the rest;
    ``mover`` ("A" the trooper's side, "B" the brute's) has the initiative and has picked
    its model: the pending Decision is that model's movement action."""
    text = f"""
scenario = "killteam-crossroads.toml"
round = 1
phase = "Movement"
[killteam]
initiative = {1 if mover == "A" else 2}
[[killteam.models]]
player = 1
datasheet = "trooper"
cell = [15, 2]
[[killteam.models]]
player = 1
datasheet = "sergeant"
specialism = "Leader"
cell = [3, 3]
[[killteam.models]]
player = 2
datasheet = "brute"
cell = [15, 6]
[[killteam.models]]
player = 2
datasheet = "boss"
specialism = "Leader"
cell = [25, 20]
"""
    scenario = parse_scenario(no_markers(), "crossroads without markers")
    position = parse_position(text, "brute and trooper", scenario=scenario)
    game = Game(position.scenario, 1, position=position)
    assert game.pending is not None
    game.choose(Choice(game.pending.id, f"{mover}1"))
    assert game.pending is not None
    assert [o.key for o in game.pending.options][:4] == ["normal", "advance", "ready", "charge"]
    return game


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_brute_charges_the_trooper_it_would_only_walk_past_before(seed: int) -> None:
    """The quick worth cannot tell the actions apart (no odds on any); the old player
    looked ahead on the first three only and advanced. Charge is now weighed (the best of
    the kinds, every tie) and the contact it ends in is a melee edge of 2 x (32 - 9)."""
    game = brute_and_trooper("B")
    assert make_bot("normal", seed).decide(game).key == "charge"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_trooper_does_not_charge_the_brute(seed: int) -> None:
    game = brute_and_trooper("A")
    assert make_bot("normal", seed).decide(game).key != "charge"


def test_the_melee_edge_counts_attacks_hit_chance_and_strength() -> None:
    """Brute: 2 attacks hitting on 3+ (4 of 6 faces) at S4: 32; Trooper: 1 on 4+ at S3:
    9. In contact the brute's side gains 2 x 23; apart, nothing."""
    game = brute_and_trooper("B")
    view = game.view()
    evaluation = KillTeamEvaluation()
    brute = next(m for m in view.models if m.id == "B1")
    trooper = next(m for m in view.models if m.id == "A1")
    assert (evaluation.melee(brute), evaluation.melee(trooper)) == (32, 9)
    blind = KillTeamEvaluation()
    blind.melee_weight = 0

    def edge(cell: Cell) -> int:
        moved = tuple(replace(m, cell=cell) if m.id == "B1" else m for m in view.models)
        seen = replace(view, models=moved)
        return evaluation.score(seen, game.board, 1) - blind.score(seen, game.board, 1)

    assert edge(Cell(15, 3)) == 2 * (32 - 9)
    assert edge(Cell(16, 3)) == 2 * (32 - 9)  # diagonal: still within 1"
    assert edge(Cell(15, 4)) == 0


def test_once_a_target_is_declared_done_beats_another_at_the_same_odds() -> None:
    """Every further charge target lets one more enemy react (overwatch) and the charge
    is no likelier: the old scorer declared all ten militia models."""
    game = brute_and_trooper("B")
    sure = Odds.of(("charge succeeds", Fraction(1)))
    decision = Decision(
        1,
        DecisionKind.PICK_TARGET,
        "B1 Reaver Brute charges: declare another target",
        (
            Option("done", "Done: charge A1", odds=sure),
            Option("A2", "A2 Militia Sergeant (Leader)", model="A2", odds=sure),
        ),
        subject="B1",
    )
    scorer = OptionScorer(decision, game.view(), game.board, KillTeamEvaluation())
    assert [o.key for o in scorer.ranked()] == ["done", "A2"]


def test_every_kind_of_option_and_every_tie_is_a_candidate() -> None:
    player = NormalPlayer(1)
    sure = Odds.of(("charge succeeds", Fraction(1)))
    scored = [
        (400, Option("charge:x", "Charge X", odds=sure)),
        (380, Option("charge:y", "Charge Y", odds=sure)),
        (0, Option("common", "Common actions")),
        (-100, Option("nothing", "Nothing")),
    ]
    keys = [o.key for o in player.candidates(scored)]
    assert keys == ["charge:x", "charge:y", "nothing", "common"]
    assert [o.key for o in player.candidates(scored, False)] == ["charge:x", "charge:y", "nothing"]
    # wh40k6 and Apocalypse: stopping only when it is among the best few
    assert [o.key for o in player.candidates(scored, stops=False)] == [
        "charge:x",
        "charge:y",
        "common",
    ]
    for name in ("wh40k6", "apocalypse"):
        assert not find_ruleset(name).EVALUATION.stops
    tied = [(0, Option(k, k)) for k in ("normal", "advance", "ready", "charge")]
    tied.append((-100, Option("stay", "Stay")))
    assert [o.key for o in player.candidates(tied)] == [
        "normal",
        "advance",
        "ready",
        "stay",
        "charge",
    ]
    evaluation = find_ruleset("confrontation").EVALUATION
    assert not (evaluation.kinds or evaluation.ties)  # its best few and stopping only
    assert [o.key for o in player.candidates(tied, ties=False)] == [
        "normal",
        "advance",
        "ready",
        "stay",
    ]


def test_normal_builds_a_roster_that_spends_the_points() -> None:
    """The prepared Reaver roster is 10 models for 71 of 100 points; looking ahead through
    a whole built roster, normal sees 100 points buy more models, and builds."""
    game = Game(load_scenario(CROSSROADS), 2)
    players = (make_bot("easy", 2), make_bot("normal", 3))
    while game.pending is not None and not game.checkpoints:
        game.choose(players[game.pending.player].decide(game))
    reavers = [m for m in game.view().models if m.player == 1]
    assert len(reavers) > 10
    assert any("Build a new roster" in line for line in _answers(game, 1))


def _answers(game: Game, player: int) -> list[str]:
    """The labels of the options ``player`` chose, in order."""
    labels = []
    replay = Game(game.scenario, game.seed)
    for choice in game.choices:
        pending = replay.pending
        assert pending is not None
        if pending.player == player:
            labels.append(next(o.label for o in pending.options if o.key == choice.key))
        replay.choose(choice)
    return labels


def test_a_kill_team_look_ahead_stops_where_the_next_model_is_picked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The option's own activation is played out (a walk: one cell), then the look stops
    at "choose a model to activate", so a charge (targets, reactions, the move) is not
    valued against a walk that had room for more models' moves."""
    game = brute_and_trooper("B")
    copies: list[Game] = []
    original = players.lookahead_copy

    def keep(game: Game, seat: int, dice_seed: int) -> Game | None:
        copy = original(game, seat, dice_seed)
        assert copy is not None
        copies.append(copy)
        return copy

    monkeypatch.setattr(players, "lookahead_copy", keep)
    option = next(o for o in game.pending.options if o.key == "normal")  # type: ignore[union-attr]
    NormalPlayer(1).look(game, option, 99)
    (copy,) = copies
    assert copy.pending is not None and copy.pending.kind is DecisionKind.PICK_MODEL
    assert copy.pending.prompt == "Movement: choose a model to activate"
    assert len(copy.choices) == len(game.choices) + 2  # the action, then its cell


@pytest.mark.parametrize("seed", [2, 4, 5])
def test_normal_agrees_to_the_scenarios_points_format(seed: int) -> None:
    """A yes/no question is no roster: a look-ahead through two rosters built on either
    answer refused the format on these seeds (and a hosted game's computer with them)."""
    game = Game(load_scenario(CROSSROADS), seed)
    assert game.pending is not None
    game.choose(Choice(game.pending.id, "100"))
    assert game.pending is not None and game.pending.kind is DecisionKind.YES_NO
    assert make_bot("normal", seed * 7 + 1).decide(game).key == "yes"


def test_the_best_of_each_targeted_action_is_a_candidate_but_not_each_dice_count() -> None:
    """Confrontation (`Evaluation.actions`): a sure charge's quick worth hid the shot
    behind "common"; a choice of how many defence dice stays with its best few."""
    player = NormalPlayer(1)
    sure = Odds.of(("charge succeeds", Fraction(1)))
    shot = Odds(Fraction(5, 6), Fraction(5, 6), Fraction(5, 6), Fraction(5, 54))
    scored = [
        (418, Option("charge:B1", "Charge B1", odds=sure)),
        (400, Option("charge:B2", "Charge B2", odds=sure)),
        (36, Option("common", "Common actions", odds=shot)),
        (-100, Option("nothing", "Nothing")),
    ]
    keys = [o.key for o in player.candidates(scored, False, False, actions=True)]
    assert keys == ["charge:B1", "charge:B2", "nothing", "common"]
    assert "common" not in [o.key for o in player.candidates(scored, False, False)]
    dice = [(325, "3"), (297, "2"), (233, "1"), (200, "1+counter"), (66, "0")]
    options = [(s, Option(k, k)) for s, k in dice]
    assert [o.key for o in player.candidates(options, False, False, actions=True)] == ["3", "2"]
    assert find_ruleset("confrontation").EVALUATION.actions
