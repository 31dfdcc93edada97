"""The Action phase: alternating detachment activations (digest apocalypse §6.5, §5.2).

No passing (S37): the player whose turn it is must activate one of his detachments
that has an order; when he has none left, the other player activates his remaining
ones back to back (§9 D13).
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.apocalypse.assets import open_window
from engine.rulesets.apocalypse.card_effects import MARCH_BONUS
from engine.rulesets.apocalypse.fighting import can_fight, fight_action
from engine.rulesets.apocalypse.movement import move_action
from engine.rulesets.apocalypse.shooting import can_shoot, has_targets, shoot_action
from engine.rulesets.apocalypse.state import (
    EMBARKED,
    ORDER_NAMES,
    ApocState,
    Detachment,
    Unit,
)
from engine.rulesets.apocalypse.transports import can_disembark
from engine.rulesets.apocalypse.window import Window
from engine.wording import its, says


def waiting(state: ApocState, player: int) -> list[Detachment]:
    """The player's detachments with an order not yet activated this phase (§5.2)."""
    return [
        d
        for d in state.detachments.values()
        if d.owner == player and d.order and not d.activated and not d.destroyed
    ]


def action_phase(state: ApocState, ctx: RuleContext) -> Procedure[None]:
    """§6.5 steps 1-8."""
    player = state.initiative if waiting(state, state.initiative) else 1 - state.initiative
    while waiting(state, 0) or waiting(state, 1):
        state.step = "Activation"
        yield from open_window(state, ctx, Window("W-PREACT", (player, 1 - player)))
        dets = waiting(state, player)
        if not dets:
            player = 1 - player
            continue
        det = dets[0]
        if len(dets) > 1:
            choice = yield Decision(
                player,
                DecisionKind.PICK_OPTION,
                "Which detachment do you activate?",
                tuple(
                    Option(d.id, f"{d.name} ({ORDER_NAMES[d.order or 'ADVANCE']})") for d in dets
                ),
            )
            det = state.detachments[choice.key]
        else:
            ctx.answered(
                f"{says(det.name, 'is')} the only detachment of {its(det.name)} side "
                "left to activate.",
                player,
            )
        yield from activate(state, ctx, det)
        other = 1 - player
        player = other if waiting(state, other) else player


def activate(state: ApocState, ctx: RuleContext, det: Detachment) -> Procedure[None]:
    """One activation: windows, then step 1 (move) and step 2 (shoot or fight) (§6.5 4-7)."""
    assert det.order is not None
    player = det.owner
    ctx.emit(
        "DetachmentActivated",
        f"{says(det.name, 'carries')} out {its(det.name)} order: {ORDER_NAMES[det.order]}",
        player=player,
        detachment=det.id,
    )
    state.side(player).assets_quiet = False  # "until my next activation" ends here
    yield from open_window(state, ctx, Window("W-ACT-OWN", (player,), detachment=det.id))
    yield from open_window(state, ctx, Window("W-ACT-ENEMY", (1 - player,), detachment=det.id))
    if det.order in ("ADVANCE", "ASSAULT"):
        state.step = "Step 1: move"
        yield from _step_one(state, ctx, det)
    state.step = "Step 2: shoot or fight"
    yield from _step_two(state, ctx, det)
    det.activated = True
    effects = state.effects
    effects.march_move.discard(det.id)
    effects.march_reroll.discard(det.id)
    effects.smoke.clear()


def _allowance(state: ApocState, det: Detachment, unit: Unit) -> int:
    """M, 2M under Assault (one move, A14), +3" with Forced March (§6.6, §12.4)."""
    base = unit.sheet.move * (2 if det.order == "ASSAULT" else 1)
    return base + (MARCH_BONUS if det.id in state.effects.march_move else 0)


def _movers(state: ApocState, det: Detachment) -> list[Unit]:
    """Units still to move: on the battlefield, or able to disembark (§6.5 step 5)."""
    out = []
    for unit in state.units_in(det):
        if unit.move_done:
            continue
        if unit.on_battlefield or (unit.location == EMBARKED and can_disembark(state, unit)):
            out.append(unit)
    return out


def _mover_label(state: ApocState, unit: Unit, movers: list[Unit]) -> str:
    """A transport whose passengers could still get out says they cannot once it moves
    (§6.8.2 step 1: only from a transport that has not moved this phase)."""
    inside = [state.units[p].name for p in unit.passengers if state.units[p] in movers]
    if not inside:
        return unit.name
    return f"{unit.name} ({', '.join(inside)} cannot get out once it moves)"


def _step_one(state: ApocState, ctx: RuleContext, det: Detachment) -> Procedure[None]:
    """Units move one at a time, in the order the player picks, or decline (§6.5 step 5)."""
    while True:
        movers = _movers(state, det)
        if not movers:
            return
        must = any(u.sheet.min_move and u.on_battlefield for u in movers)
        options = [
            Option(u.uid, _mover_label(state, u, movers), cell=u.anchor, model=u.uid)
            for u in movers
        ]
        if not must:
            options.append(Option("done", "No more moves: the rest stay where they are", ends=True))
        choice = yield Decision(
            det.owner,
            DecisionKind.PICK_MODEL,
            f"{det.name}: which unit moves next?",
            tuple(options),
        )
        if choice.key == "done":
            for unit in movers:
                unit.move_done = True
            return
        unit = state.units[choice.key]
        yield from move_action(state, ctx, unit, _allowance(state, det, unit))


def _actions(state: ApocState, det: Detachment, unit: Unit) -> list[str]:
    """What the order still lets the unit do in step 2 (§6.3.4 table, §8.3)."""
    if not unit.on_battlefield or unit.step2_done:
        return []
    shoot = (
        det.order != "ASSAULT"
        and not unit.shot
        and can_shoot(state, unit)
        and has_targets(state, unit)
    )
    fight = not unit.fought and can_fight(state, unit)
    if not unit.sheet.is_super_heavy and (unit.shot or unit.fought):
        return []
    return [a for a, ok in (("shoot", shoot), ("fight", fight)) if ok]


def _step_two(state: ApocState, ctx: RuleContext, det: Detachment) -> Procedure[None]:
    """Units shoot or fight one at a time, or decline (§6.5 step 6)."""
    first = True
    while True:
        actors = [u for u in state.units_in(det) if _actions(state, det, u)]
        if not actors:
            if first:  # else the player sees the activation go on to the next side
                ctx.answered(
                    f"No unit of {det.name} can shoot or fight: its activation ends.", det.owner
                )
            return
        first = False
        options = [
            Option(
                u.uid,
                f"{u.name}: {', '.join(_actions(state, det, u))}",
                cell=u.anchor,
                model=u.uid,
            )
            for u in actors
        ]
        options.append(Option("done", "End the activation", ends=True))
        choice = yield Decision(
            det.owner, DecisionKind.PICK_MODEL, f"{det.name}: which unit acts next?", tuple(options)
        )
        if choice.key == "done":
            return
        yield from _unit_step_two(state, ctx, det, state.units[choice.key])


def _unit_step_two(
    state: ApocState, ctx: RuleContext, det: Detachment, unit: Unit
) -> Procedure[None]:
    """Shoot or Fight; a SUPER-HEAVY under Advance or Aimed Fire may do both (§8.3)."""
    first = True
    while True:
        actions = _actions(state, det, unit)
        if not actions:
            break
        if first and len(actions) == 1:
            # Picked from a list that named its one action ("Battle Tank: shoot"): do it.
            key = actions[0]
        else:
            labels = {"shoot": "Shoot", "fight": "Fight"}
            choice = yield Decision(
                unit.owner,
                DecisionKind.PICK_OPTION,
                f"{unit.name}: shoot or fight?",
                (
                    *(Option(a, labels[a]) for a in actions),
                    Option("done", "Do nothing more", neutral=True),
                ),
                subject=unit.uid,
            )
            key = choice.key
        first = False
        if key == "done":
            break
        if key == "shoot":
            fired = yield from shoot_action(state, ctx, unit)
            if not fired:
                unit.shot = True
                if not unit.sheet.is_super_heavy:
                    break
        else:
            yield from fight_action(state, ctx, unit)
            unit.fought = True
    unit.step2_done = True
