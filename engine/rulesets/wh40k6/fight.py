"""The fight sub-phase: combats, Initiative steps, combat result (digest wh40k6 §6.13).

A combat is a connected group of units in base contact (§6.13.1); the active player
orders them (D40). For I = 10..1: models of that Initiative pile in (D41), then every
engaged model with that Initiative strikes; both sides strike simultaneously and the
casualties leave at the end of the step (§6.13.3). Then the combat result, Morale at
Ld minus the difference, Sweeping Advance or fall back, and consolidation (§6.13.6-8).

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.footprints import rect_distance
from engine.ruleset import RuleContext
from engine.rulesets.wh40k6.attacks import (
    Allocation,
    Group,
    allocate,
    majority_toughness,
    roll_hits,
    roll_wounds,
)
from engine.rulesets.wh40k6.damage import new_batch, remove_model
from engine.rulesets.wh40k6.explosions import destroy_vehicle
from engine.rulesets.wh40k6.geometry import gap
from engine.rulesets.wh40k6.morale import is_vehicle_unit
from engine.rulesets.wh40k6.odds import groups_odds
from engine.rulesets.wh40k6.outcome import combat_result
from engine.rulesets.wh40k6.pile_in import pile_in
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.rulesets.wh40k6.strikes import (
    HAMMER,
    Strike,
    choose_strikes,
    is_big_target,
    is_engaged,
    strike_group,
)
from engine.rulesets.wh40k6.vehicles import vehicle_hits
from engine.wording import counted


def fights_back(state: State, unit: Unit) -> bool:
    """Non-walker vehicles never strike (§6.14)."""
    models = state.on_table(unit)
    return bool(models) and not all(m.is_vehicle and not m.profile.is_walker for m in models)


def find_combats(state: State) -> list[list[Unit]]:
    """Connected groups of units in base contact (§6.13.1; §6.14 for non-walkers)."""
    links: dict[str, set[str]] = {}
    # Each pair once, player 0's model first, as the plain walk over every ordered pair
    # meets them; every footprint built once (this ran a hundred thousand a game).
    placed = [(m, m.rect) for m in state.table_models()]
    first = [(m, r) for m, r in placed if m.player == 0]
    second = [(m, r) for m, r in placed if m.player == 1]
    for a, ra in first:
        for b, rb in second:
            if a.unit == b.unit or rect_distance(ra, rb) != 1:
                continue
            ua, ub = state.unit_of(a), state.unit_of(b)
            if not _linked(state, ua, ub) and not _linked(state, ub, ua):
                continue
            links.setdefault(ua.id, set()).add(ub.id)
            links.setdefault(ub.id, set()).add(ua.id)
    seen: set[str] = set()
    combats: list[list[Unit]] = []
    for uid in sorted(links):
        if uid in seen:
            continue
        group, todo = [], [uid]
        while todo:
            here = todo.pop()
            if here in seen:
                continue
            seen.add(here)
            group.append(state.units[here])
            todo.extend(links[here] - seen)
        combats.append(sorted(group, key=lambda u: u.id))
    return combats


def _linked(state: State, a: Unit, b: Unit) -> bool:
    """``a`` fights ``b``: both fight, or ``a`` charged the non-walker vehicle ``b``."""
    if fights_back(state, a) and fights_back(state, b):
        return True
    return fights_back(state, a) and a.charged


FIGHTING_ON = "Assault (next combat)"
"""The checkpoint before each combat but the first (``ctx.boundary``): undo replays one
combat's choices."""


def fight_subphase(state: State, ctx: RuleContext, *, resumed: bool = False) -> Procedure[None]:
    """T4b: every combat, in the active player's order (D40).

    ``resumed``: from a checkpoint between two combats (`FIGHTING_ON`); which units
    fought is in the state (``fought``)."""
    if not resumed:
        state.step = "Fight sub-phase"
        state.fought = []
    while True:
        done = set(state.fought)
        combats = [c for c in find_combats(state) if not {u.id for u in c} & done]
        if not combats:
            return
        if done:
            ctx.boundary(state.game_turn, FIGHTING_ON)
        combat = combats[0]
        if len(combats) > 1:
            choice = yield Decision(
                state.active,
                DecisionKind.ORDER,
                "Which combat is fought next?",
                tuple(
                    Option(str(n), " vs ".join(u.name for u in c)) for n, c in enumerate(combats)
                ),
            )
            combat = combats[int(choice.key)]
        elif done:
            ctx.answered(
                " vs ".join(u.name for u in combat) + " is the last combat to fight.", state.active
            )
        state.fought.extend(u.id for u in combat)
        yield from fight_combat(state, ctx, combat)


def fight_combat(state: State, ctx: RuleContext, combat: list[Unit]) -> Procedure[None]:
    """Initiative steps 10..1, then the result (§6.13.3-§6.13.8)."""
    ids = {u.id for u in combat}
    ctx.emit("CombatStarted", "Combat: " + " vs ".join(u.name for u in combat))
    strikes: dict[str, Strike] = {}
    for unit in sorted(combat, key=lambda u: u.player != state.active):
        if fights_back(state, unit) or unit.charged:
            foes = _foes(state, unit, ids)
            vs = {
                m.id: any(is_big_target(state, state.unit_of(e)) for e in _struck(m, foes))
                for m in state.on_table(unit)
            }
            strikes.update((yield from choose_strikes(state, ctx, unit, vs)))
    wounds = [0, 0]
    for step in range(10, 0, -1):
        for player in (state.active, 1 - state.active):
            yield from pile_in(
                state, ctx, [u for u in combat if u.player == player], ids, strikes, step
            )
        new_batch(state)
        yield from strike_step(state, ctx, combat, ids, strikes, step, wounds)
        for m in list(state.models.values()):
            if m.on_table and m.wounds <= 0 and m.unit in ids:
                remove_model(state, ctx, m, "slain in close combat")
    yield from combat_result(state, ctx, combat, wounds)


def _foes(state: State, unit: Unit, ids: set[str]) -> list[Model]:
    return [m for m in state.table_models() if m.player != unit.player and m.unit in ids]


def _contacts(model: Model, foes: list[Model]) -> list[Model]:
    return [e for e in foes if rect_distance(model.rect, e.rect) == 1]


def _struck(model: Model, foes: list[Model]) -> list[Model]:
    """The enemies a model's attacks may go to: those it touches, else the nearest one,
    as for an engaged model behind a unit-mate (§6.13.2): its krak grenade reaches the
    vehicle too (§6.14 item 3)."""
    touching = _contacts(model, foes)
    if touching or not foes:
        return touching
    return [min(foes, key=lambda e: (gap(model, e), e.id))]


def strike_step(
    state: State,
    ctx: RuleContext,
    combat: list[Unit],
    ids: set[str],
    strikes: dict[str, Strike],
    step: int,
    wounds: list[int],
) -> Procedure[None]:
    """Every engaged model of this Initiative strikes; casualties stay until the end."""
    groups = _collect(state, combat, ids, strikes, step)
    for unit, target, group in groups.values():
        if not state.on_table(target):
            continue
        # The game picked the target (the nearest foe): the line shows the odds instead.
        odds = groups_odds(state, None, [group], target)
        ctx.emit(
            "AttacksMade",
            f"Initiative {step}: {group.label}, {counted(len(group.shots), 'attack')}"
            + (f" [{odds.describe()}]" if odds else ""),
            step=step,
            unit=unit.id,
            target=target.id,
            weapon=group.weapon.id,
            attacks=len(group.shots),
        )
        roll_hits(ctx, unit.player, group)
        if is_vehicle_unit(state, target):
            wounds[unit.player] += yield from vehicle_hits(
                state,
                ctx,
                unit.player,
                target,
                group,
                melee=True,
                cover=lambda v, f: None,
                destroy=destroy_vehicle,
            )
            continue
        roll_wounds(ctx, unit.player, group, majority_toughness(state, target))
        attackers = [state.models[a] for a in sorted(set(group.shots))]
        alloc = Allocation(
            target,
            eligible=lambda m: True,
            distance=_distance_from(attackers),
            cover=lambda m: None,
            defer=True,
        )
        wounds[unit.player] += yield from allocate(state, ctx, unit.player, group, alloc)


def _collect(
    state: State, combat: list[Unit], ids: set[str], strikes: dict[str, Strike], step: int
) -> dict[tuple[object, ...], tuple[Unit, Unit, Group]]:
    """The attack groups of this step: Hammer of Wrath at I10, then every engaged model."""
    groups: dict[tuple[object, ...], tuple[Unit, Unit, Group]] = {}
    for unit in sorted(combat, key=lambda u: u.player != state.active):
        foes = [
            e
            for e in _foes(state, unit, ids)
            if fights_back(state, state.unit_of(e)) or unit.charged
        ]
        if not foes:
            continue
        for m in state.on_table(unit):
            if m.is_vehicle and not m.profile.is_walker:
                continue
            if step == 10 and unit.hammer and _contacts(m, foes):
                _add(state, groups, unit, m, Strike(HAMMER, 1, 10), foes, auto=True)
            strike = strikes.get(m.id)
            if strike is None or strike.initiative != step or not is_engaged(state, m, foes):
                continue
            _add(state, groups, unit, m, strike, foes)
    return groups


def _distance_from(attackers: list[Model]) -> Callable[[Model], int]:
    """Closeness to the models striking in this step (§6.13.5)."""
    live = [a for a in attackers if a.cell is not None]

    def measure(model: Model) -> int:
        return min((gap(a, model) for a in live), default=0)

    return measure


def _add(
    state: State,
    groups: dict[tuple[object, ...], tuple[Unit, Unit, Group]],
    unit: Unit,
    model: Model,
    strike: Strike,
    foes: list[Model],
    auto: bool = False,
) -> None:
    nearest = min(foes, key=lambda e: (gap(model, e), e.id))
    target = state.unit_of(nearest)
    group = strike_group(state, model, strike, target, strike.attacks)
    if auto:
        group.needed = 0
        group.ap = None
    key = (unit.id, target.id, group.weapon.id, group.strength, group.ap, group.needed)
    if key in groups:
        groups[key][2].shots.extend(group.shots)
        return
    group.label = f"{unit.name}: {group.weapon.name}" + group.label[group.label.index(" (") :]
    groups[key] = (unit, target, group)
