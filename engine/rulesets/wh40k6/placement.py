"""Placing a whole unit: formation moves plus per-model adjustment (digest wh40k6 §7 D19).

Every way models of a unit change place (deployment, the Movement phase, Run, scouting,
disembarking, regrouping, consolidating, arriving from reserve) asks the same Decisions:

1. "Move the unit keeping its formation": pick where the first model goes; every model
   is translated by the same offset, and only offsets where *each* model lands on a
   cell it may reach are offered (so every model's own limit still holds). That one
   pick places the unit. The player may instead place the models one by one, or ask to
   adjust single models after the formation pick.
2. Adjusting: move single models (each at most once per round, for at most three
   rounds, so the loop is bounded), start again, or finish. Finishing is offered only
   when the unit ends in coherency (§6.1 item 4), or, for a unit that began out of
   coherency, no less coherent; a refused placement may always adjust a model.

The caller computes which cells each model may end on; this module does not know why.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.board import Cell
from engine.decisions import (
    Choice,
    Decision,
    DecisionKind,
    Option,
    Procedure,
    cell_keys,
    new_option,
)
from engine.footprints import rect_distance, square
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.state import Model, Moving, Unit
from engine.rulesets.wh40k6.tables import COHERENCY
from engine.units import block_offsets, coherency_groups, formation_offsets
from engine.wording import its, says

ONE_BY_ONE = "one-by-one"
THEN_ADJUST = "then-adjust"
ADJUST_ROUNDS = 3
"""Rounds of single-model adjustment per attempt (each model once a round)."""
DONE = "done"
RESET = "reset"
ADJUST = "adjust"


def cell_key(cell: Cell) -> str:
    return f"{cell.x},{cell.y}"


def parse_cell(key: str) -> Cell:
    x, y = key.split(",")
    return Cell(int(x), int(y))


@dataclass(slots=True)
class Placement:
    """One placement problem: which cells each model may end on, and how to ask."""

    unit: Unit
    models: list[Model]
    allowed: dict[str, frozenset[Cell]]
    """Model id -> anchor cells it may end on (its start included when staying is legal)."""
    verb: str = "move"
    starts: dict[str, Cell] = field(default_factory=dict)
    """Model id -> where it stands now (empty when deploying from off the table)."""
    costs: dict[str, dict[Cell, int]] = field(default_factory=dict)
    coherent: bool = True
    accept: Callable[[dict[str, Cell]], str | None] | None = None
    """Extra check of a finished placement: a reason to refuse it, or None."""
    menus: dict[str, list[tuple[Cell, Option]]] = field(default_factory=dict, repr=False)
    """Model id -> every allowed cell as an option, in the order offered: built once, as a
    placement model by model asks for each model again and again (deployment offers
    hundreds of cells)."""
    formation: list[Option] | None = field(default=None, repr=False)
    """The formation pick's cell options, built once (each fresh start asks again)."""
    progress: Moving | None = None
    """Set where the placement may take checkpoints part way (`mark`): how far it got,
    kept in the state so a game restored there goes on from it."""
    mark: Callable[[], None] | None = None
    """Takes the checkpoint (``ctx.boundary``) a `progress` placement resumes at."""
    resumed: bool = False
    """Restored at such a checkpoint: the placement goes on from `progress`, and takes
    that checkpoint again first (as `engine.game.Game` expects)."""


EVERY = 4
"""Decisions of a placement between two of its checkpoints: undo replays at most this
many, and a checkpoint costs about what a choice does."""


def _checkpoint(p: Placement, stage: str, adjusted: set[str], rounds: int) -> None:
    """A checkpoint here if `EVERY` decisions were asked since the last one (or this is
    where the placement was restored: it reports the checkpoint again)."""
    progress = p.progress
    if progress is None or p.mark is None or (progress.asked < EVERY and not p.resumed):
        return
    p.resumed = False
    progress.stage = stage
    progress.adjusted = sorted(adjusted)
    progress.rounds = rounds
    progress.asked = 0
    p.mark()


def _ask(p: Placement, decision: Decision) -> Procedure[Choice]:
    """Ask, counting the decision towards the next checkpoint."""
    choice = yield decision
    if p.progress is not None:
        p.progress.asked += 1
    return choice


def groups(models: list[Model], cells: dict[str, Cell]) -> int:
    """Number of coherency groups the models would form on these anchors (§6.1 item 4)."""
    anchors = [cells[m.id] for m in models]
    sizes = {cells[m.id]: m.profile.size for m in models}

    def measure(a: Cell, b: Cell) -> int:
        return rect_distance(square(a, sizes[a]), square(b, sizes[b]))

    return len(coherency_groups(anchors, COHERENCY, measure))


def refusal(p: Placement, cells: dict[str, Cell]) -> str | None:
    """Why this placement may not be finished, or None if it may."""
    if p.coherent and len(p.models) > 1:
        limit = groups(p.models, p.starts) if len(p.starts) == len(p.models) else 1
        if groups(p.models, cells) > max(1, limit):
            return "the unit would end out of coherency"
    return p.accept(cells) if p.accept else None


def place_unit(ctx: RuleContext, p: Placement) -> Procedure[dict[str, Cell]]:
    """Ask where every model of the unit ends (§7 D16, D19); returns model id -> anchor.

    A placement with `Placement.progress` takes checkpoints before a fresh attempt,
    before each model placed one by one, and before each adjustment question; restored
    at one, it goes on from the stage `progress` names."""
    if len(p.models) == 1:
        model = p.models[0]
        cell = yield from pick_model_cell(ctx, p, model, {}, f"{p.verb.capitalize()} {model.name}")
        if cell is None:  # a lone model's own allowed cells are never taken by others
            raise RuntimeError(f"no cell allowed for {model.name}")
        return {model.id: cell}
    stage = p.progress.stage if p.resumed and p.progress is not None else ""
    while True:
        cells: dict[str, Cell] | None = dict(p.unit.placing)
        adjusted: set[str] = set()
        rounds = 1
        if stage == ADJUST:
            assert p.progress is not None
            adjusted, rounds = set(p.progress.adjusted), p.progress.rounds
        elif stage != ONE_BY_ONE:
            p.unit.placing = {}
            _checkpoint(p, "", adjusted, rounds)
            cells, adjust = yield from _formation(p)
            if cells is not None and not adjust and refusal(p, cells) is None:
                return cells  # one pick places the whole unit
        if cells is None or stage == ONE_BY_ONE:
            cells = yield from _one_by_one(ctx, p, cells or {})
            if cells is None:
                stage = ""
                continue  # start this unit's placement again
            adjusted = {m.id for m in p.models}
        stage = ""
        finished = yield from _adjust(ctx, p, cells, adjusted, rounds)
        if finished is not None:
            p.unit.placing = {}
            return finished


def _one_by_one(
    ctx: RuleContext, p: Placement, cells: dict[str, Cell]
) -> Procedure[dict[str, Cell] | None]:
    """Each model not yet in ``cells`` in turn; None if one has no cell left."""
    for m in p.models:
        if m.id in cells:
            continue  # placed before the checkpoint this placement was restored at
        _checkpoint(p, ONE_BY_ONE, set(), 1)
        cell = yield from pick_model_cell(
            ctx, p, m, cells, f"{p.verb.capitalize()} {m.name} (model by model)"
        )
        if cell is None:  # earlier models took every cell this one may use
            return None
        cells[m.id] = cell
        p.unit.placing = dict(cells)
    return cells


def _pattern(p: Placement) -> list[Cell]:
    if len(p.starts) == len(p.models):
        return [p.starts[m.id] for m in p.models]
    spacing = max(m.profile.size for m in p.models)
    return [Cell(dx, dy) for dx, dy in block_offsets(len(p.models), 5, spacing)]


def _formation(p: Placement) -> Procedure[tuple[dict[str, Cell] | None, bool]]:
    """The formation pick: (cells, adjust after) or (None, True) to go model by model."""
    pattern = _pattern(p)
    anchor = p.models[0]
    if p.formation is None:
        p.formation = _formation_options(p, pattern)
    cell_options = p.formation
    if not cell_options:
        return None, True
    adjust = False
    prompt = (
        f"{p.verb.capitalize()} {p.unit.name} keeping {its(p.unit.name)} formation: "
        f"where does {anchor.name} go?"
    )
    while True:
        extra = [Option(ONE_BY_ONE, "Place the models one by one instead")]
        if not adjust:
            extra.append(Option(THEN_ADJUST, "Keep the formation, then adjust single models"))
        choice = yield from _ask(
            p,
            Decision(
                p.unit.player,
                DecisionKind.PICK_CELL,
                prompt + (" (then adjust single models)" if adjust else ""),
                tuple(extra + cell_options),
                subject=anchor.id,
                why_not=lambda cell: _out_of_formation(p, pattern, cell),
            ),
        )
        if choice.key == ONE_BY_ONE:
            return None, True
        if choice.key != THEN_ADJUST:
            break
        adjust = True
    target = parse_cell(choice.key)
    dx, dy = target.x - pattern[0].x, target.y - pattern[0].y
    placed = {m.id: Cell(c.x + dx, c.y + dy) for m, c in zip(p.models, pattern, strict=True)}
    return placed, adjust


def _out_of_formation(p: Placement, pattern: list[Cell], target: Cell) -> str:
    """Why the first model may not go to ``target`` keeping the formation: the first
    model (itself, or another) whose matching cell it may not end on."""
    dx, dy = target.x - pattern[0].x, target.y - pattern[0].y
    for m, at in zip(p.models, pattern, strict=True):
        end = Cell(at.x + dx, at.y + dy)
        if end not in p.allowed[m.id]:
            where = (
                "" if m is p.models[0] else f"keeping the formation, {m.name} would be at {end}: "
            )
            return where + _unreachable(p, m, end)
    return ""


def _unreachable(p: Placement, model: Model, cell: Cell) -> str:
    """Why ``model`` may not end on ``cell``, as far as this placement knows: out of its
    reach (its move, terrain it may not or chose not to cross), or reached but not a cell
    to end on (an enemy within 1", another model, the table's edge)."""
    costs = p.costs.get(model.id)
    if costs and cell not in costs:
        return f"out of {model.name}'s reach"
    return f"{model.name} may not end there"


def _formation_options(p: Placement, pattern: list[Cell]) -> list[Option]:
    """Where the first model may go with every model translated alike, staying put first."""
    areas = [p.allowed[m.id] for m in p.models]
    anchor = p.models[0]
    start = p.starts.get(anchor.id)
    costs = p.costs.get(anchor.id, {})
    cells = [
        Cell(pattern[0].x + dx, pattern[0].y + dy) for dx, dy in formation_offsets(pattern, areas)
    ]
    cells.sort(key=lambda c: c != start)  # staying put first: the cursor starts on the unit
    stays = ": the unit stays where it is"
    return _cell_options(cells, f"{anchor.name} to ", stays, anchor.id, start, costs)


def _cell_options(
    cells: list[Cell],
    head: str,
    stays: str,
    model: str,
    start: Cell | None,
    costs: dict[Cell, int],
) -> list[Option]:
    """Each cell as an option for ``model``, keyed as `cell_key` writes it and labelled
    ``head`` and the cell as str(cell) writes it, with the move's cost if known, or
    ``stays`` at ``start``: written out in one loop, the options made in C (`new_option`),
    as a deployment offers hundreds (their calls were a third of it)."""
    out = []
    get = costs.get
    for cell, key in zip(cells, cell_keys(cells), strict=True):
        if cell == start:
            label = f"{head}({key}){stays}"
        else:
            cost = get(cell)
            label = f"{head}({key})" if cost is None else f'{head}({key}) ({cost}")'
        out.append(new_option((key, label, cell, model, None, "", False, False, False, False)))
    return out


def _offered(options: list[Option]) -> str:
    """The prompt's words for the options offered: "finish, adjust a model, or start
    again"; "finish or start again" when every model was placed one by one (it offered
    an adjustment it did not list)."""
    words = {DONE: "finish", ADJUST: "adjust a model", RESET: "start again"}
    said = [words[o.key] for o in options]
    if len(said) < 3:
        return " or ".join(said)
    return f"{', '.join(said[:-1])}, or {said[-1]}"


def _adjust(
    ctx: RuleContext, p: Placement, cells: dict[str, Cell], adjusted: set[str], rounds: int
) -> Procedure[dict[str, Cell] | None]:
    """Finish, adjust one model (each once per round, three rounds), or start again."""
    while True:
        p.unit.placing = dict(cells)  # drawn where they would end while the player decides
        _checkpoint(p, ADJUST, adjusted, rounds)
        reason = refusal(p, cells)
        left = [m for m in p.models if m.id not in adjusted]
        if not left and reason is not None and rounds < ADJUST_ROUNDS:
            rounds += 1  # refused: fix a model rather than place them all again
            adjusted.clear()
            left = list(p.models)
        options: list[Option] = []
        if reason is None:
            options.append(Option(DONE, f"Done: {says(p.unit.name, 'ends')} here"))
        if left:
            options.append(Option(ADJUST, "Adjust a model"))
        options.append(Option(RESET, "Start again"))
        note = "" if reason is None else f" ({reason})"
        choice = yield from _ask(
            p,
            Decision(
                p.unit.player,
                DecisionKind.PICK_OPTION,
                f"{p.unit.name}: {_offered(options)}?{note}",
                tuple(options),
            ),
        )
        if choice.key == DONE:
            return cells
        if choice.key == RESET:
            return None
        model = left[0]
        if len(left) > 1:
            pick = yield from _ask(
                p,
                Decision(
                    p.unit.player,
                    DecisionKind.PICK_MODEL,
                    "Which model do you adjust?",
                    tuple(
                        Option(m.id, f"{m.name} at {cells[m.id]}", cell=cells[m.id], model=m.id)
                        for m in left
                    ),
                ),
            )
            model = next(m for m in left if m.id == pick.key)
        else:
            ctx.answered(f"{model.name} is the only model left to adjust.", p.unit.player)
        others = {k: v for k, v in cells.items() if k != model.id}
        cell = yield from pick_model_cell(ctx, p, model, others, f"Adjust {model.name}")
        cells[model.id] = cells[model.id] if cell is None else cell
        adjusted.add(model.id)


def pick_model_cell(
    ctx: RuleContext, p: Placement, model: Model, others: dict[str, Cell], prompt: str
) -> Procedure[Cell | None]:
    """Ask for one model's end cell among its allowed cells not taken by the others.

    None when the others already hold every cell it may use (the caller starts again).
    """
    size = model.profile.size
    sizes = {m.id: m.profile.size for m in p.models}
    taken = {c for k, at in others.items() for c in square(at, sizes[k]).cells()}
    start = p.starts.get(model.id)
    menu = _menu(p, model)
    if not taken:
        options = [o for _, o in menu]
    elif size == 1:
        options = [o for cell, o in menu if cell not in taken]
    else:
        feet = [(dx, dy) for dy in range(size) for dx in range(size)]
        options = [
            o for cell, o in menu if not any((cell.x + dx, cell.y + dy) in taken for dx, dy in feet)
        ]
    if not options:
        return None
    if len(options) == 1:
        only = parse_cell(options[0].key)
        where = "stays at" if only == start else "ends at"
        ctx.answered(f"{model.name} {where} {only}: the only cell it may use.", p.unit.player)
        return only

    def why_not(cell: Cell) -> str:
        if any(c in taken for c in square(cell, size).cells()):
            return "another model of the unit is placed there"
        return _unreachable(p, model, cell)

    decision = Decision(
        p.unit.player,
        DecisionKind.PICK_CELL,
        prompt,
        tuple(options),
        subject=model.id,
        why_not=why_not,
    )
    choice = yield from _ask(p, decision)
    return parse_cell(choice.key)


def _menu(p: Placement, model: Model) -> list[tuple[Cell, Option]]:
    """The model's allowed cells as options, its start first, then row by row."""
    menu = p.menus.get(model.id)
    if menu is not None:
        return menu
    start = p.starts.get(model.id)
    costs = p.costs.get(model.id, {})
    cells = sorted(p.allowed[model.id], key=lambda c: (c != start, c.y, c.x))
    stays = ": stays where it started (does not move)"
    menu = list(zip(cells, _cell_options(cells, "", stays, model.id, start, costs), strict=True))
    p.menus[model.id] = menu
    return menu
