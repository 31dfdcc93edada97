"""Common actions of an activated fighter: walk, run, shoot and their combinations.

Digest confrontation §6.3 step 4, §6.8, §6.9.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure, cell_options
from engine.facing import ask_facing, name
from engine.ruleset import RuleContext
from engine.rulesets.confrontation.disengage import can_disengage, disengage
from engine.rulesets.confrontation.geometry import (
    edge_neighbours,
    is_free,
    move_destinations,
    parse_cell,
)
from engine.rulesets.confrontation.shooting import (
    SPENT,
    mates_in_contact,
    may_shoot,
    quick_reload,
    shoot,
    shot_difficulty,
    target_option,
    visible_targets,
)
from engine.rulesets.confrontation.state import CState, Fighter

COMBINATIONS = {
    "walk": "Walk (then face any way)",
    "shoot": "Shoot",
    "walk_shoot": "Walk, then shoot",
    "shoot_walk": "Shoot, then walk",
    "run": "Run (2 x MOV, nothing else)",
    "quick_reload": "Quick reload: two shots at +2 difficulty, nothing else (hero)",
    "disengage_walk": "Disengage, then walk (and maybe shoot)",
    "nothing": "Nothing",
}
"""The combinations (a)-(h) of §6.3 step 4."""

WASTED = " (nothing in range: misses)"
"""After a combination that shoots from where the fighter stands when every enemy it
sees is beyond long range: legal (the range is measured after the target is chosen,
A28), but the shot is spent for nothing, so the option says so."""

SHOOTS_FIRST = ("shoot", "shoot_walk", "quick_reload")
"""The combinations whose shot leaves from the fighter's cell (a walk may bring the
others into range)."""


def walk_cells(state: CState, f: Fighter, budget: int, through: set[str]) -> list[Cell]:
    """End cells of a walk or run: reachable, empty, out of contact (§6.8 step 3, A35)."""
    cells = move_destinations(state, f, budget, through)
    touching = {  # cells where a fighter of f's side would touch an enemy
        n
        for e in state.on_table()
        if e.player != f.player and e.cell is not None
        for n in edge_neighbours(e.cell)
    }
    return sorted((c for c in cells if c not in touching), key=lambda c: (c.y, c.x))


def may_disengage_and_walk(state: CState, f: Fighter) -> bool:
    """Eligible to disengage and some cell out of contact lies within MOV (§6.7, PROPOSED)."""
    card = state.cards[f.card]
    return can_disengage(state, f) and bool(walk_cells(state, f, f.profile.mov, set(card.fighters)))


def may_run(state: CState, f: Fighter) -> bool:
    """Some cell besides its own lies within 2 x MOV (§6.9). PROPOSED (playability, as
    for disengage-then-walk): a fighter boxed in is not offered a run, which would only
    use up its activation ("has nowhere to go")."""
    card = state.cards[f.card]
    reach = walk_cells(state, f, 2 * f.profile.mov, set(card.fighters))
    return any(c != f.cell for c in reach)


def combinations(state: CState, f: Fighter) -> list[str]:
    """The legal combinations for ``f`` right now (§6.3 step 4, forbidden list included)."""
    if not is_free(state, f):
        return ["disengage_walk", "nothing"] if may_disengage_and_walk(state, f) else ["nothing"]
    out = ["walk"]
    shooter = may_shoot(state, f)
    targets = shooter and bool(visible_targets(state, f))
    if targets:
        out += ["shoot", "walk_shoot", "shoot_walk"]
    elif shooter:
        out.append("walk_shoot")
    if f.free_at_reveal and may_run(state, f):
        out.append("run")
    if targets and f.profile.is_hero:
        out.append("quick_reload")
    out.append("nothing")
    return out


def in_range(state: CState, f: Fighter) -> bool:
    """Some enemy ``f`` sees stands within its weapon's long range (§6.10, T4)."""
    return any(shot_difficulty(f, e, 0)[1] is not None for e in visible_targets(state, f))


def combination_labels(state: CState, f: Fighter, keys: list[str]) -> list[str]:
    """How the combinations read in the list: a shot from here at nothing in range says
    that it misses (`WASTED`)."""
    wasted = any(k in SHOOTS_FIRST for k in keys) and not in_range(state, f)
    return [COMBINATIONS[k] + (WASTED if wasted and k in SHOOTS_FIRST else "") for k in keys]


def best_shot_odds(state: CState, f: Fighter) -> Odds | None:
    """The odds of the best shot ``f`` has in sight now (the likeliest kill, then hit),
    or None when it may not shoot: shown on the choices that may shoot first, so a
    player sees what the shot may do before choosing it."""
    if not may_shoot(state, f):
        return None
    odds = [
        target_option(f, e, 0, mates_in_contact(state, f, e)).odds
        for e in visible_targets(state, f)
    ]
    known = [o for o in odds if o is not None and o != SPENT]  # a spent shot: no odds to show
    return max(known, key=lambda o: (o.slay or 0, o.hit or 0), default=None)


def combination_odds(state: CState, f: Fighter, keys: list[str]) -> list[Odds | None]:
    """The odds each combination shows: a shot from here its best shot's; with nothing
    in range, every combination that shoots from here says it cannot hit (`SPENT`: a
    player, and the computer that weighs options by their odds, sees the shot thrown
    away). A walk first changes what is in sight: no odds; nor for quick reload's two
    shots at +2 while one is in range."""
    shot = best_shot_odds(state, f)
    if shot is None:
        return [SPENT if k in SHOOTS_FIRST and may_shoot(state, f) else None for k in keys]
    return [shot if k in ("shoot", "shoot_walk") else None for k in keys]


def common_actions(
    state: CState, ctx: RuleContext, f: Fighter, through: set[str]
) -> Procedure[None]:
    """D14: choose a combination and carry it out."""
    keys = combinations(state, f)
    if len(keys) == 1:
        key = keys[0]
        ctx.answered(f"{f.name} can do nothing else: {COMBINATIONS[key]}.", f.player)
    else:
        choice = yield Decision(
            f.player,
            DecisionKind.PICK_OPTION,
            f"What does {f.name} do?",
            tuple(
                Option(k, label, odds=odds, neutral=k == "nothing")
                for k, label, odds in zip(
                    keys,
                    combination_labels(state, f, keys),
                    combination_odds(state, f, keys),
                    strict=True,
                )
            ),
            subject=f.id,
        )
        key = choice.key
    if key == "nothing":
        ctx.emit("FighterWaited", f"{f.name} does nothing", model=f.id)
    elif key == "walk":
        yield from walk(state, ctx, f, through)
    elif key == "shoot":
        yield from shoot(state, ctx, f)
    elif key == "walk_shoot":
        yield from walk(state, ctx, f, through)
        yield from shoot(state, ctx, f, optional=True)
    elif key == "shoot_walk":
        yield from shoot(state, ctx, f)
        yield from walk(state, ctx, f, through)
    elif key == "run":
        yield from run(state, ctx, f, through)
    elif key == "quick_reload":
        yield from quick_reload(state, ctx, f)
    else:
        if (yield from disengage(state, ctx, f)):
            yield from walk(state, ctx, f, through)
            if may_shoot(state, f):
                yield from shoot(state, ctx, f, optional=True)


def walk(state: CState, ctx: RuleContext, f: Fighter, through: set[str]) -> Procedure[None]:
    """§6.8: one continuous move up to MOV, not ending in contact; then any facing.

    PROPOSED (A32): staying on the spot is a walk of 0, so a walk may just turn.
    """
    cells = walk_cells(state, f, f.profile.mov, through)
    yield from _move(state, ctx, f, cells, "walks", "Walk")


def run(state: CState, ctx: RuleContext, f: Fighter, through: set[str]) -> Procedure[None]:
    """§6.9: up to 2 x MOV, not ending in contact; nothing else this activation."""
    f.ran = True
    cells = [c for c in walk_cells(state, f, 2 * f.profile.mov, through) if c != f.cell]
    yield from _move(state, ctx, f, cells, "runs", "Run")


def _cell_options(cells: list[Cell], start: Cell) -> tuple[Option, ...]:
    """Each cell as "cell (x,y)", made in C (`cell_options`: a walk offers dozens), the
    start as "stay here (turn only)"."""
    options = cell_options(cells, "cell ")
    if start not in cells:
        return options
    i = cells.index(start)
    stay = options[i]._replace(label="stay here (turn only)")
    return (*options[:i], stay, *options[i + 1 :])


def _move(
    state: CState, ctx: RuleContext, f: Fighter, cells: list[Cell], verb: str, noun: str
) -> Procedure[None]:
    assert f.cell is not None
    if not cells:
        ctx.emit("MoveBlocked", f"{f.name} has nowhere to go", model=f.id)
        return
    start, before = f.cell, f.facing
    if len(cells) > 1:
        choice = yield Decision(
            f.player,
            DecisionKind.PICK_CELL,
            f"{noun}: where does {f.name} go?",
            _cell_options(cells, start),
            subject=f.id,
        )
        f.cell = parse_cell(choice.key)
    else:
        f.cell = cells[0]
        where = "stays at" if f.cell == start else "goes to"
        ctx.answered(f"{noun}: {f.name} {where} {f.cell}, the only cell it can use.", f.player)
    f.facing = yield from ask_facing(
        f.player, f"{noun}: which way does {f.name} face now?", marked=f.facing, subject=f.id
    )
    if f.cell != start:
        done = f"{verb} {start} -> {f.cell}, facing {name(f.facing)}"
    elif f.facing != before:  # a walk of 0 (A32): not "(17,5) -> (17,5)"
        done = f"stays at {start} and turns to face {name(f.facing)}"
    else:
        done = f"stays at {start}, facing {name(f.facing)}"
    ctx.emit(
        "FighterMoved",
        f"{f.name} {done}",
        model=f.id,
        x=f.cell.x,
        y=f.cell.y,
        facing=f.facing,
    )
