"""The charge sub-machine and the charged models' reactions (digest killteam §6.3.6).

Declare targets, let the defender react target by target (Overwatch through the shooting
module, or Retreat), roll 2D6, then move the charger in (success) or towards one target
(failure). Decision points §7 #14, #15, #17-#20.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.board import Cell, neighbours8
from engine.checks import Check, Modifier
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.geometry import dist, enemies, is_engaged
from engine.rulesets.killteam.moves import (
    MoveArea,
    choose_destination,
    enemy_zone,
    move_area,
    relocate,
    zone_of,
)
from engine.rulesets.killteam.shooting import can_overwatch, overwatch
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_reroll

CHARGE_RANGE = 12
"""Inches within which charge targets may be declared (§6.3.6 step 1)."""
MAX_CHARGE = 13
"""The longest charge: 2D6 and a Medic's +1 (§6.3.6, §8.1)."""
RETREAT_RANGE = 3
"""Inches a Retreat may cover (§6.3.6 step 2)."""


def charge(state: KTState, ctx: RuleContext, charger: Model) -> Procedure[None]:
    """Resolve a charge (digest killteam §6.3.6, steps 1-7); then the panel shows the
    step the charge interrupted again."""
    resume = state.step
    state.after_charge = None
    yield from _charge(state, ctx, charger)
    state.after_charge = (state.step, resume)


def _charge(state: KTState, ctx: RuleContext, charger: Model) -> Procedure[None]:
    targets = yield from declare_targets(state, ctx, charger)
    charger.charge_declared = True  # step 7: it cannot shoot this round, whatever happens
    charger.charge_targets = {t.id for t in targets}
    ctx.emit(
        "ChargeDeclared",
        f"{charger.name} charges {', '.join(t.name for t in targets)}",
        model=charger.id,
        targets=",".join(t.id for t in targets),
    )
    yield from reactions(state, ctx, charger, targets)
    if not charger.on_table:
        ctx.emit(
            "ChargeEnded", f"{charger.name} fell to Overwatch: no charge roll", model=charger.id
        )
        return
    state.step = "Charge roll"
    check = charge_check(state, charger, targets)
    distance = _charge_roll(ctx, charger, check)
    area, ends = charge_area(state, charger, targets, distance)
    what = f"the charge roll of {distance} ({check.odds_text()})"
    if not ends and (yield from offer_reroll(state, ctx, charger.player, what, check.chance())):
        distance = _charge_roll(ctx, charger, check, " (Command Re-roll)")
        area, ends = charge_area(state, charger, targets, distance)
    if ends:
        yield from _succeed(state, ctx, charger, targets, area, ends)
    else:
        yield from _fail(state, ctx, charger, targets, area)


def declare_targets(state: KTState, ctx: RuleContext, charger: Model) -> Procedure[list[Model]]:
    """Any number (at least one) of enemies within 12"; no line of sight needed.

    Digest §6.3.6 step 1, §7 #14, §10 A47. Asked one target at a time until "done".
    """
    state.step = "Charge: declare targets"
    candidates = [e for e in enemies(state, charger) if dist(state, charger, e) <= CHARGE_RANGE]
    if len(candidates) == 1:
        ctx.answered(
            f'{candidates[0].name} is the only enemy within 12" to charge.', charger.player
        )
        return candidates
    chosen: list[Model] = []
    while len(chosen) < len(candidates):
        options = [
            Option(
                e.id,
                f'{e.name} ({dist(state, charger, e)}" away)',
                cell=e.cell,
                model=e.id,
                odds=charge_odds(state, charger, [*chosen, e]),
            )
            for e in candidates
            if e not in chosen
        ]
        if chosen:
            names = ", ".join(t.id for t in chosen)
            odds = charge_odds(state, charger, chosen)
            options.insert(0, Option("done", f"Done: charge {names}", odds=odds))
        pick = yield Decision(
            charger.player,
            DecisionKind.PICK_TARGET,
            f"{charger.name} charges: declare {'another' if chosen else 'a'} target",
            tuple(options),
            subject=charger.id,
        )
        if pick.key == "done":
            break
        chosen.append(state.models[pick.key])
    return chosen


def can_react(state: KTState, target: Model) -> bool:
    """Eligible to react to a charge (§6.3.6 step 2, §10 A13).

    Alive, not shaken, not within 1" of an enemy, has not Fallen Back this round and has
    not Retreated this phase (Retreats only happen in the Movement phase).
    """
    return (
        target.can_act
        and not target.fell_back
        and not target.retreated
        and not is_engaged(state, target)
    )


def retreat_cells(state: KTState, target: Model, charger: Model) -> tuple[MoveArea, list[Cell]]:
    """Where a Retreat may end: up to 3", Normal Move restrictions, farther from the charger.

    Digest §6.3.6 step 2, §11.3. PROPOSED (§10 A12, A13): a model that moved this phase
    (Ready does not count) or Advanced this round cannot Retreat at all.
    """
    if target.moved_this_phase or target.advanced:
        return move_area(state, target, 0, path_avoid=frozenset()), []
    zone = enemy_zone(state, target)
    area = move_area(state, target, RETREAT_RANGE, path_avoid=zone, end_avoid=zone)
    assert charger.cell is not None
    start = dist(state, target, charger)
    board = state.board
    return area, [c for c in area.ends if board.range_to(c, charger.cell) > start]


def _reaction_options(state: KTState, target: Model, charger: Model) -> list[Option]:
    """The reactions one target may still make: Overwatch and/or Retreat (§6.3.6 step 2)."""
    if not can_react(state, target):
        return []
    options: list[Option] = []
    if can_overwatch(state, target, charger):
        options.append(
            Option(
                f"overwatch:{target.id}",
                f"{target.name}: Overwatch",
                cell=target.cell,
                model=target.id,
            )
        )
    if retreat_cells(state, target, charger)[1]:
        options.append(
            Option(
                f"retreat:{target.id}",
                f'{target.name}: Retreat (up to 3")',
                cell=target.cell,
                model=target.id,
            )
        )
    return options


def reactions(
    state: KTState, ctx: RuleContext, charger: Model, targets: list[Model]
) -> Procedure[None]:
    """Each eligible target may react once, in the order the defender picks (§7 #15).

    Digest §6.3.6 step 2, §10 A14, A15: all reactions come before the charge roll, and
    the charge ends if Overwatch takes the charger out of action.
    """
    state.step = "Charge reactions"
    waiting = list(targets)
    while waiting and charger.on_table:
        options: list[Option] = []
        for target in waiting:
            options += _reaction_options(state, target, charger)
        if not options:
            return
        options.append(Option("none", "No (more) reactions", neutral=True))
        pick = yield Decision(
            1 - charger.player,
            DecisionKind.PICK_OPTION,
            f"{charger.name} charges: choose the next reaction",
            tuple(options),
            subject=charger.id,
        )
        if pick.key == "none":
            return
        kind, _, target_id = pick.key.partition(":")
        target = state.models[target_id]
        waiting.remove(target)
        if kind == "overwatch":
            yield from overwatch(state, ctx, target, charger)
        else:
            yield from retreat(state, ctx, target, charger)


def retreat(state: KTState, ctx: RuleContext, target: Model, charger: Model) -> Procedure[None]:
    """Move up to 3" away from the charger (§6.3.6 step 2, §7 #17).

    PROPOSED (§10 A13): the Retreat uses up the model's Movement-phase action and its
    Ready token; it cannot react again this phase nor shoot this round without FLY.
    """
    area, cells = retreat_cells(state, target, charger)
    cell, drop = yield from choose_destination(
        ctx, area, f"Retreat: where does {target.name} go (farther from {charger.name})?", cells
    )
    target.retreated = True
    target.ready = False
    target.activated = True
    target.move_action = "retreat"
    yield from relocate(state, ctx, target, cell, how="retreats", drop=drop)


def charge_check(state: KTState, charger: Model, targets: list[Model]) -> Check:
    """2D6, +1 if injected by a Medic, against the shortest charge that ends within 1" of
    a target (§6.3.6 steps 3-4): the cheapest end of `charge_area` at the longest roll."""
    cheapest = charge_need(state, charger, targets)
    needed = MAX_CHARGE + 1 if cheapest is None else cheapest
    injected = (Modifier(1, "injected"),) if charger.injected else ()
    basis = "out of reach" if cheapest is None else f"distance {needed}"
    words = ("succeeds", "fails")
    return Check("charge", needed, basis, injected, dice=2, fails_on=frozenset(), words=words)


def charge_odds(state: KTState, charger: Model, targets: list[Model]) -> Odds:
    """The chance the charge roll reaches one of ``targets``, before any reaction."""
    return Odds.of(("charge succeeds", charge_check(state, charger, targets).chance()))


def _charge_roll(ctx: RuleContext, charger: Model, check: Check, note: str = "") -> int:
    """2D6, +1 if injected by a Medic (§6.3.6 step 3, §8.1)."""
    reason = f"charge roll of {charger.id}{note}"
    roll = ctx.dice.roll(2, 6, player=charger.player, reason=reason, check=check)
    total = roll.total + (1 if charger.injected else 0)
    ctx.emit(
        "ChargeRolled",
        # The dice line names the roll; only an injection adds to it.
        f'{charger.name}: charge roll {roll.total} +1 injected = {total}"'
        if charger.injected
        else "",
        model=charger.id,
        total=total,
    )
    return total


def charge_need(state: KTState, charger: Model, targets: list[Model]) -> int | None:
    """The cheapest end of `charge_area` at the longest roll, None if it has none: the
    same path rules, but the search stops at the first end it settles (each charge
    option's odds asked for the whole area, a search apiece)."""
    ids = {t.id for t in targets}
    zone = zone_of(state, [e for e in enemies(state, charger) if e.id not in ids])
    board = state.board
    assert charger.cell is not None
    occupied = state.occupied()
    enemy_cells = {c for c, m in occupied.items() if m.player != charger.player}
    fly = charger.is_fly
    spots = [t.cell for t in targets if t.on_table and t.cell is not None]
    goals = {
        c
        for s in spots
        for c in neighbours8(s)
        if c in board
        and board.is_adjacent(c, s)
        and c not in zone
        and board.is_standable(c)
        and (c == charger.cell or c not in occupied)
    }

    def can_enter(cell: Cell) -> bool:  # as `move_area` walks
        if cell in zone:
            return False
        return fly or (board.is_standable(cell) and cell not in enemy_cells)

    return board.cheapest(charger.cell, MAX_CHARGE, goals, can_enter=can_enter, fly=fly)


def charge_area(
    state: KTState, charger: Model, targets: list[Model], distance: int
) -> tuple[MoveArea, list[Cell]]:
    """Cells the charge can reach, and those within 1" of a target (§6.3.6 step 4, §11.3).

    The path never comes within 1" of an enemy that is not a declared target.
    """
    ids = {t.id for t in targets}
    zone = zone_of(state, [e for e in enemies(state, charger) if e.id not in ids])
    area = move_area(state, charger, distance, path_avoid=zone, end_avoid=zone)
    board = state.board
    spots = [t.cell for t in targets if t.on_table and t.cell is not None]
    ends = [c for c in area.ends if any(board.is_adjacent(c, s) for s in spots)]
    return area, ends


def _succeed(
    state: KTState,
    ctx: RuleContext,
    charger: Model,
    targets: list[Model],
    area: MoveArea,
    ends: list[Cell],
) -> Procedure[None]:
    """Move in, ending within 1" of a target; every target was charged (§6.3.6 step 5).

    PROPOSED (§10 A16): ending within 1" is mandatory. §10 A17: every declared target
    counts as the target of a successful charge, even one the charger did not reach.
    """
    cell, drop = yield from choose_destination(
        ctx, area, f'Charge succeeds: where does {charger.name} end (within 1" of a target)?', ends
    )
    charger.charge_successful = True
    for target in targets:
        target.charged_by.add(charger.id)
    ctx.emit("ChargeSucceeded", f"{charger.name}'s charge succeeds", model=charger.id)
    yield from relocate(state, ctx, charger, cell, how="charges", drop=drop)


def _fail(
    state: KTState, ctx: RuleContext, charger: Model, targets: list[Model], area: MoveArea
) -> Procedure[None]:
    """Stay, or close on one target as far as the roll allows (§6.3.6 step 6, §7 #20).

    PROPOSED (§10 A48): the engine finds the smallest distance to the chosen target the
    roll can reach; the player picks among the cells that tie.
    """
    charger.charge_failed = True
    ctx.emit("ChargeFailed", f"{charger.name}'s charge fails", model=charger.id)
    board = state.board
    closest: dict[str, list[Cell]] = {}
    options = [Option("stay", "Stay where it is")]
    for target in targets:
        if not target.on_table or target.cell is None:
            continue
        spot = target.cell
        best = min(board.range_to(c, spot) for c in area.ends)
        closest[target.id] = [c for c in area.ends if board.range_to(c, spot) == best]
        options.append(
            Option(
                target.id,
                f'Move towards {target.name} (ends {best}" away)',
                cell=spot,
                model=target.id,
            )
        )
    if len(options) == 1:
        ctx.answered(
            f"{charger.name} stays where it is: no target to move towards.", charger.player
        )
        return
    pick = yield Decision(
        charger.player,
        DecisionKind.PICK_OPTION,
        f"{charger.name}'s charge failed: stay, or move towards one target?",
        tuple(options),
        subject=charger.id,
    )
    if pick.key == "stay":
        return
    cell, drop = yield from choose_destination(
        ctx, area, f"Failed charge: where does {charger.name} end?", closest[pick.key]
    )
    yield from relocate(state, ctx, charger, cell, how="moves after a failed charge", drop=drop)
