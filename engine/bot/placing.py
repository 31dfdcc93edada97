"""Where the normal player moves a unit, weighed by the ruleset's whole evaluation.

A move among hundreds of cells is too many for a look-ahead, so both players went by the
quick worth of a cell (engine.bot.heuristic): nearness to an objective, cover, enemies.
That worth cannot see what the move does to the board: whether one more unit tips an
objective held by the other side, or a Warlord steps among the enemy. Where a ruleset asks
for it (`Evaluation.moves`), the normal player also values each of the best cells by
the evaluation of the public view with the unit standing there: the view is changed, not
the game, so it costs no copy of the game and no rule is asked twice.

Must not import tui, textual, rich or any ruleset.
"""

from __future__ import annotations

from dataclasses import replace

from engine.board import Cell, distance
from engine.bot.heuristic import ROUNDABOUT, passing
from engine.decisions import DecisionKind, Option
from engine.footprints import footprint_owner
from engine.game import Game
from engine.view import GameView

SHORTLIST = 40
"""The best cells by quick worth that are weighed again (the rest trail far behind)."""


def weighed_move(game: Game, scored: list[tuple[int, Option]], spots: int) -> Option | None:
    """The move the ruleset's way of weighing moves (`Evaluation.moves`) picks among
    ``scored`` (best first by quick worth); None where it picks none for this Decision
    (a "quick" ruleset, a shortlist asked no cell, a sample with no model of the seat)."""
    decision = game.pending
    assert decision is not None
    how = game.ruleset.EVALUATION.moves
    if how == "shortlist" and decision.kind is DecisionKind.PICK_CELL:
        return place(game, scored)
    if how == "sample":
        return placed(game, scored, spots)
    return None


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
    along = evaluation.alongside(view, decision)
    rest = scored[SHORTLIST:]
    roam = rest[:: len(rest) // evaluation.roam + 1] if evaluation.roam and rest else []
    totals: list[tuple[int, Option]] = []
    for value, option in scored[:SHORTLIST] + roam:
        moved = view if option.cell is None else moved_view(view, mover.id, option.cell, along)
        total = value + (here if moved is view else evaluation.score(moved, game.board, seat))
        totals.append((total, option))
    cells = [total for total, option in totals if option.cell is not None]
    if cells and evaluation.detours:  # another way ("one by one") is no better than a cell
        most = max(cells) - ROUNDABOUT
        totals = [(min(t, most) if _roundabout(o) else t, o) for t, o in totals]
    best, best_value = scored[0][1], None
    for total, option in totals:
        if best_value is None or total > best_value:
            best, best_value = option, total
    return best


def _roundabout(option: Option) -> bool:
    """Another way than a cell to where the unit goes ("Place the models one by one",
    "Put in Reserve"): valued by the view as it stands, it beat every cell whose move the
    evaluation found worse than standing still, and a Horde mob was placed model by
    model, circled and was put back (seed 5005)."""
    return option.cell is None and option.odds is None and not option.ends and not passing(option)


def moved_view(
    view: GameView, model_id: str, cell: Cell, along: frozenset[str] = frozenset()
) -> GameView:
    """``view`` with the model ``model_id`` (every cell of its footprint) standing with
    its anchor at ``cell``; a model not on the board (embarked, in reserve) is put there.
    The models named in ``along`` (its unit keeping formation) shift as far as it does,
    where it and they stand on the board."""
    owner = footprint_owner(model_id)
    anchor = next((m.cell for m in view.models if m.id == owner), None)
    models = []
    for model in view.models:
        if footprint_owner(model.id) != owner:
            if anchor is None or model.cell is None or model.id not in along:
                models.append(model)
            else:
                shifted = Cell(model.cell.x + cell.x - anchor.x, model.cell.y + cell.y - anchor.y)
                models.append(replace(model, cell=shifted))
        elif anchor is None or model.cell is None:
            models.append(replace(model, cell=cell if model.id == owner else None))
        else:
            shifted = Cell(model.cell.x + cell.x - anchor.x, model.cell.y + cell.y - anchor.y)
            models.append(replace(model, cell=shifted))
    return replace(view, models=tuple(models))


def placed(game: Game, scored: list[tuple[int, Option]], spots: int) -> Option | None:
    """The cell the evaluation likes best for the pending Decision's model of the seat
    (the position valued as if it stood there: its fights and shots, the enemies that
    may gang up on it there), among an even sample of ``spots`` cells offered and the
    best few by the quick worth, then among the cells next to the best two of those.
    Ties go to the better quick worth. None: no cell of a model of the seat is asked."""
    decision = game.pending
    assert decision is not None
    view = game.view()
    mover = view.model(decision.subject) if decision.subject else None
    if mover is None or mover.player != decision.player:
        return None
    order = {o.key: i for i, (_, o) in enumerate(scored)}
    cells = [o for o in decision.options if o.cell is not None and o.key in order]
    if len(cells) < 2:
        return None
    by_key = {o.key: o for o in cells}
    step = len(cells) // spots + 1
    chosen = {o.key: o for o in cells[::step]}
    chosen.update((o.key, o) for _, o in scored[:4] if o.cell is not None)
    evaluation = game.ruleset.EVALUATION
    seat = decision.player
    values: dict[str, int] = {}

    def weigh(options: list[Option]) -> None:
        for option in options:
            if option.key not in values and option.cell is not None:
                moved = moved_view(view, mover.id, option.cell)
                values[option.key] = evaluation.score(moved, game.board, seat)

    def ranked() -> list[str]:
        return sorted(values, key=lambda key: (-values[key], order[key]))

    weigh(list(chosen.values()))
    best_cells = [by_key[key].cell for key in ranked()[:2]]
    weigh([o for o in cells if o.cell and any(distance(o.cell, c) <= 1 for c in best_cells if c)])
    return by_key[ranked()[0]]
