"""Moving one model on the grid: where it may go, climbing, jumping and falling.

Digest killteam §6.3.1-§6.3.4 and §6.3.7 on the grid of §11.3. Every kind of move
(Normal Move, Advance, Fall Back, Retreat, charge, the Veteran's pre-move) is the same
Dijkstra search with different "may the path touch this cell" and "may it end here"
rules, so those rules are data (`MoveArea`) and the search runs once per move.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from engine.board import Board, Cell, neighbours8
from engine.checks import Check
from engine.decisions import (
    Decision,
    DecisionKind,
    Option,
    Procedure,
    ask_yes_no,
    cell_keys,
    new_option,
)
from engine.grid_paths import Reach
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import check_wipeout
from engine.rulesets.killteam.injury import mortal_wounds
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_reroll

SAFE_DROP = 6
"""A jump down of more than this many inches needs a falling check (§6.3.7 item 5)."""


def falling_dice(drop: int | Fraction) -> int:
    """Dice of a falling check: none up to 6", then 1 + one per full 3" above 6" (§6.3.7).

    Examples S13 (9" -> 2), S14 (12.4" -> 3) and S15 (6" -> 0).
    """
    if drop <= SAFE_DROP:
        return 0
    return 1 + int((drop - SAFE_DROP) // 3)


def zone_of(state: KTState, models: Iterable[Model]) -> frozenset[Cell]:
    """Cells within 1" of any of these models, their own cells included (§11.2)."""
    board = state.board
    cells: set[Cell] = set()
    for m in models:
        if m.cell is None or m.out_of_action:
            continue
        cells.add(m.cell)
        cells.update(n for n in neighbours8(m.cell) if n in board and board.is_adjacent(m.cell, n))
    return frozenset(cells)


def enemy_zone(state: KTState, model: Model) -> frozenset[Cell]:
    """Cells within 1" of the model's enemies, which a Normal Move may not touch (§6.3.1)."""
    return zone_of(state, state.on_table(1 - model.player))


@dataclass(slots=True)
class MoveArea:
    """Where one move may end and what it costs (§11.3), with the climb-down variant."""

    state: KTState
    model: Model
    budget: int
    can_enter: Callable[[Cell], bool]
    ends: dict[Cell, Reach]
    """Legal end cells (the start included when the rules allow staying there)."""
    key: Hashable = None
    """What ``can_enter`` depends on (`Board.reachable` keeps answers by it)."""
    _climbs: dict[Cell, int] | None = field(default=None, repr=False)

    def climb_cost(self, cell: Cell) -> int | None:
        """Cost of reaching ``cell`` climbing down every big drop instead (§6.3.7 item 4)."""
        if self._climbs is None:
            assert self.model.cell is not None
            self._climbs = climb_costs(
                self.state.board, self.model.cell, self.budget, self.can_enter, self.key
            )
        return self._climbs.get(cell)


def move_area(
    state: KTState,
    model: Model,
    budget: int,
    *,
    path_avoid: frozenset[Cell],
    end_avoid: frozenset[Cell] = frozenset(),
) -> MoveArea:
    """Cells the model can reach with ``budget`` inches (§11.3).

    The path may not enter ``path_avoid`` (nor walls or enemy models unless it has FLY);
    it may pass friends but never end on any model, nor in ``end_avoid``.
    """
    board = state.board
    assert model.cell is not None
    occupied = state.occupied()
    enemy_cells = {c for c, m in occupied.items() if m.player != model.player}
    fly = model.is_fly

    def can_enter(cell: Cell) -> bool:
        if cell in path_avoid:
            return False
        return fly or (board.is_standable(cell) and cell not in enemy_cells)

    key = (path_avoid, fly or frozenset(enemy_cells))
    reach = board.reachable(model.cell, budget, can_enter=can_enter, fly=fly, key=key)
    ends = {
        c: r
        for c, r in reach.items()
        if c not in end_avoid and board.is_standable(c) and (c == model.cell or c not in occupied)
    }
    return MoveArea(state, model, budget, can_enter, ends, key)


def climb_costs(
    board: Board,
    start: Cell,
    budget: int,
    can_enter: Callable[[Cell], bool],
    key: Hashable = None,
) -> dict[Cell, int]:
    """Cheapest costs when drops of more than 6" are climbed down, not jumped (§6.3.7, §11.3).

    `Board.reachable` with ``climb_down``: a drop above 6" costs its height like a climb
    up; smaller drops stay free jumps (they are safe anyway).
    """
    reach = board.reachable(start, budget, can_enter=can_enter, climb_down=True, key=key)
    return {cell: r.cost for cell, r in reach.items()}


def cell_key(cell: Cell) -> str:
    """Option key of a cell (the engine-wide "x,y" convention)."""
    return f"{cell.x},{cell.y}"


def parse_cell(key: str) -> Cell:
    """The cell named by an "x,y" option key."""
    x, y = key.split(",")
    return Cell(int(x), int(y))


def cell_option(area: MoveArea, cell: Cell, note: str = "", key: str = "") -> Option:
    """One destination with its cost and any jump needing a falling check (§6.3.7, §11.3).

    ``key``: the cell's key if known (`engine.decisions.cell_keys`); the option is made
    in C (`new_option`) and the label written from the key: a move offers a hundred."""
    reach = area.ends[cell]
    key = key or cell_key(cell)
    stay = cell == area.model.cell
    label = f"({key}) stay where it is" if stay else f'({key}) ({reach.cost}")'
    if reach.drop and not area.model.is_fly:
        label += f', jump {reach.drop}": falling check {falling_dice(reach.drop)}D6'
    return new_option((key, label + note, cell, None, None, "", False, False, False, False))


def choose_destination(
    ctx: RuleContext, area: MoveArea, prompt: str, cells: Iterable[Cell] | None = None
) -> Procedure[tuple[Cell, int]]:
    """Ask for the end cell (§7 #12); returns it and the drop to check for a fall (0: none).

    When the only way there jumps more than 6", the player chooses between jumping
    (free, falling check) and climbing down (costs the height, safe), if affordable.
    """
    model = area.model
    pool = sorted(area.ends if cells is None else cells, key=lambda c: (c != model.cell, c))
    cell = pool[0]
    if len(pool) > 1:
        choice = yield Decision(
            model.player,
            DecisionKind.PICK_CELL,
            prompt,
            tuple(cell_option(area, c, key=k) for c, k in zip(pool, cell_keys(pool), strict=True)),
            subject=model.id,
        )
        cell = parse_cell(choice.key)
    else:
        where = "stays where it is" if cell == model.cell else f"goes to {cell}"
        ctx.answered(f"{model.name} {where}: the only cell it can reach.", model.player)
    drop = 0 if model.is_fly else area.ends[cell].drop
    if drop:
        climb = area.climb_cost(cell)
        if climb is not None and climb <= area.budget:
            dice = falling_dice(drop)
            pick = yield Decision(
                model.player,
                DecisionKind.PICK_OPTION,
                f'{model.name} must come down {drop}": climb down or jump?',
                (
                    Option("climb", f'Climb down ({climb}" of movement, safe)'),
                    Option("jump", f'Jump ({area.ends[cell].cost}", falling check {dice}D6)'),
                ),
                subject=model.id,
            )
            if pick.key == "climb":
                drop = 0
    return cell, drop


def relocate(
    state: KTState, ctx: RuleContext, model: Model, cell: Cell, *, how: str, drop: int = 0
) -> Procedure[bool]:
    """Put the model on ``cell``, set the moved flags (§10 A11) and check a fall; True if moved."""
    start = model.cell
    assert start is not None
    if cell == start:
        return False
    model.cell = cell
    model.moved = model.moved_this_phase = True
    ctx.emit(
        "ModelMoved",
        f"{model.name} {how}: {start} -> {cell}",
        model=model.id,
        how=how,
        x=cell.x,
        y=cell.y,
        from_x=start.x,
        from_y=start.y,
    )
    if drop > SAFE_DROP and not model.is_fly:
        yield from falling_check(state, ctx, model, drop)
    return True


def falling_check(state: KTState, ctx: RuleContext, model: Model, drop: int) -> Procedure[None]:
    """Each 5-6 on the falling dice is a mortal wound (§6.3.7 item 5, §6.7).

    The fall has no attacker, so the opponent makes any injury roll (§10 A23).
    """
    dice = falling_dice(drop)
    check = Check(
        "falling", 5, "mortal wound", fails_on=frozenset(), words=("mortal wound", "safe")
    )
    reason = f"falling check of {model.id}"
    roll = ctx.dice.roll(dice, player=model.player, reason=reason, check=check)
    wounds = sum(1 for f in roll.faces if check.passes(f))
    ctx.emit(
        "FallingChecked",
        f'{model.name} jumps {drop}"',  # the dice line says what the fall did
        model=model.id,
        drop=drop,
        dice=dice,
        wounds=wounds,
    )
    if wounds:
        yield from mortal_wounds(
            state, ctx, model, wounds, roller=1 - model.player, source=" from the fall"
        )
        check_wipeout(state)


ADVANCE = Check.purpose("Advance distance")


def advance_roll(state: KTState, ctx: RuleContext, model: Model) -> Procedure[int]:
    """The Advance die: Scout passive or Command Re-roll, +1 if injected (§6.3.2, §8.1, §8.2).

    A 6 cannot be bettered, so no re-roll is offered for it; a die is re-rolled at most
    once (§6.1 item 5), so a Scout who takes the free re-roll is not offered the Command
    Re-roll, and one who declines it still may spend CP on it (§8.2).
    """
    reason = f"Advance roll of {model.id}"
    face = ctx.dice.d6(player=model.player, reason=reason, check=ADVANCE)
    if face < 6:
        again = False
        if model.specialism == "Scout":
            again = yield from ask_yes_no(
                model.player, f"Advance roll {face}: re-roll it (Scout passive)?", subject=model.id
            )
        if not again:
            what = f"the Advance roll of {face}"
            again = yield from offer_reroll(state, ctx, model.player, what, ADVANCE.better(face))
        if again:
            face = ctx.dice.d6(player=model.player, reason=f"{reason} (re-roll)", check=ADVANCE)
    total = face + (1 if model.injected else 0)
    ctx.emit(
        "AdvanceRolled",
        # The dice line names the roll; only an injection adds to it.
        f"{model.name}: Advance roll {face} +1 injected = {total}" if model.injected else "",
        model=model.id,
        face=face,
        total=total,
    )
    return total
