"""Where the normal player moves a unit, weighed by the ruleset's whole evaluation.

A move among hundreds of cells is too many for a look-ahead, so both players went by the
quick worth of a cell (engine.bot.heuristic): nearness to an objective, cover, enemies.
That worth cannot see what the move does to the board: whether one more unit tips an
objective held by the other side, or a Warlord steps among the enemy. Where a ruleset asks
for it (`Evaluation.placing`), the normal player also values each of the best cells by
the evaluation of the public view with the unit standing there: the view is changed, not
the game, so it costs no copy of the game and no rule is asked twice.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import replace

from engine.board import Cell
from engine.decisions import DecisionKind, Option
from engine.footprints import footprint_owner
from engine.game import Game
from engine.view import GameView

SHORTLIST = 40
"""The best cells by quick worth that are weighed again (the rest trail far behind)."""


def place(game: Game, scored: list[tuple[int, Option]]) -> Option:
    """The best of ``scored`` (the pending Decision's options, best first by quick
    worth) for a unit to stand at: quick worth plus the evaluation of the view with the
    unit moved there. Options that name no cell keep the view as it stands."""
    decision = game.pending
    assert decision is not None and decision.kind is DecisionKind.PICK_CELL
    view = game.view()
    mover = view.model(decision.subject) if decision.subject else None
    if mover is None:
        return scored[0][1]
    evaluation = game.ruleset.EVALUATION
    seat = decision.player
    here = evaluation.score(view, game.board, seat)
    best, best_value = scored[0][1], None
    for value, option in scored[:SHORTLIST]:
        moved = view if option.cell is None else moved_view(view, mover.id, option.cell)
        total = value + (here if moved is view else evaluation.score(moved, game.board, seat))
        if best_value is None or total > best_value:
            best, best_value = option, total
    return best


def moved_view(view: GameView, model_id: str, cell: Cell) -> GameView:
    """``view`` with the model ``model_id`` (every cell of its footprint) standing with
    its anchor at ``cell``; a model not on the board (embarked, in reserve) is put there."""
    owner = footprint_owner(model_id)
    anchor = next((m.cell for m in view.models if m.id == owner), None)
    models = []
    for model in view.models:
        if footprint_owner(model.id) != owner:
            models.append(model)
        elif anchor is None or model.cell is None:
            models.append(replace(model, cell=cell if model.id == owner else None))
        else:
            shifted = Cell(model.cell.x + cell.x - anchor.x, model.cell.y + cell.y - anchor.y)
            models.append(replace(model, cell=shifted))
    return replace(view, models=tuple(models))
