"""Where the Confrontation computer player moves its fighters: by the evaluation of the
position with the fighter standing there (engine.bot.players `placed`), not by the quick
worth's closeness alone."""

from __future__ import annotations

import pytest

from engine.board import Cell
from engine.bot.players import make_bot, scorer
from engine.rulesets.confrontation.geometry import has_line_of_sight, range_gap
from tests.rulesets.confrontation.test_evaluation import table, threats


def _cell(key: str) -> Cell:
    x, y = key.split(",")
    return Cell(int(x), int(y))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_crossbowman_walks_to_where_it_sees_the_goblin(seed: int) -> None:
    """The ruins (8-9, 16-19) hide the goblin at (9,23) from the crossbowman at (9,9).
    By closeness alone it walks behind them, out of sight (8,11); normal walks clear of
    them, into sight at medium range, out of the goblin's charge reach."""
    goblin = Cell(9, 23)
    game = table((1, "crossbowman", 9, 9), (2, "cutthroat", goblin.x, goblin.y))
    for key in ("me", "common", "walk"):
        game.choose_key(key)
    assert game.pending is not None and game.pending.prompt.startswith("Walk: where")
    quick = _cell(scorer(game).scored()[0][1].key)
    assert not has_line_of_sight(game.board, quick, goblin)
    walked = _cell(make_bot("normal", seed).decide(game).key)
    assert has_line_of_sight(game.board, walked, goblin)
    assert 2 * 4 < range_gap(walked, goblin) <= 12


def test_a_spearman_in_reach_of_three_goblins_charges_one_of_them() -> None:
    """A fighter counts in one charge: three goblins in the spearman's reach are worth
    no more to its side than one (each was counted, so a lone spearman walked into the
    reach of three)."""
    one = table((1, "spearman", 13, 3), (2, "cutthroat", 13, 10))
    three = table(
        (1, "spearman", 13, 3),
        (2, "cutthroat", 12, 10),
        (2, "cutthroat", 13, 10),
        (2, "cutthroat", 14, 10),
    )
    assert threats(three, 0) == threats(one, 0) > 0
