"""The Movement phase and the round-1 Veteran window (digest killteam §6.3, §8.1).

The initiative player activates his models one at a time, each taking one action from
the availability table of §6.3; then the other player does the same (§10 A3). The phase
opens with the engagement snapshot (§10 A4) and the Medic window. Moves themselves live in
`moves`, charges in `charge`.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.charge import CHARGE_RANGE, charge, charge_odds
from engine.rulesets.killteam.geometry import dist, enemies, friends, is_engaged
from engine.rulesets.killteam.moves import (
    MoveArea,
    advance_roll,
    choose_destination,
    enemy_zone,
    move_area,
    relocate,
)
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import can_use, specialist, spend
from engine.wording import its, says

MEDIC = "Medic stratagem"
SCOUT = "Scout stratagem"
VETERAN = "Veteran stratagem"
MEDIC_RANGE = 2
"""Inches from the Medic to the model it injects (§8.1, §11.5)."""
MEDIC_EFFECT = "+1 to Advance and charge rolls, +1 Attack this round"
"""What an injection gives (§8.1), in the offer's words: a new player must not have to
know the stratagem to weigh its command point."""
SCOUT_BONUS = 2
"""Inches the Scout stratagem adds to the Scout's Move (§8.1)."""
ACTIONS = {
    "normal": "Normal Move",
    "advance": "Advance",
    "ready": "Ready",
    "charge": "Charge",
    "fall_back": "Fall Back",
    "stay": "Stay",
}


def veteran_window(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Round 1, before Initiative: each Veteran may make a Normal Move or an Advance.

    Digest §8.1 Veteran and §5.2 R2: once per game, 1 CP, the player who deployed first
    asks first. The move counts as having moved this round (§10 A11).
    """
    for player in (state.first_deployer, 1 - state.first_deployer):
        vet = specialist(state, player, "Veteran")
        team = state.team(player)
        if vet is None or team.veteran_used or not can_use(state, player, VETERAN):
            continue
        if is_engaged(state, vet):
            continue  # a Normal Move may not start within 1" of an enemy (§6.3.1 item 2)
        choice = yield Decision(
            player,
            DecisionKind.PICK_OPTION,
            f"Use the Veteran stratagem (1 CP, once per game): move {vet.name} now?",
            (
                Option("no", "No"),
                Option("normal", "Yes: Normal Move"),
                Option("advance", "Yes: Advance"),
            ),
            subject=vet.id,
        )
        if choice.key == "no":
            continue
        spend(state, ctx, player, VETERAN)
        team.veteran_used = True
        if choice.key == "normal":
            yield from normal_move(state, ctx, vet)
        else:
            yield from advance(state, ctx, vet)
        vet.moved = True  # §8.1: it counts as having moved this round, even 0"


def movement_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Snapshot, Medic window, then each team in initiative order (§6.3, §10 A3, A4)."""
    snapshot_engagement(state)
    yield from medic_window(state, ctx)
    for player in (state.initiative, 1 - state.initiative):
        state.step = says(state.team(player).name, "moves")
        yield from _team_turn(state, ctx, player)


def snapshot_engagement(state: KTState) -> None:
    """Record who starts the phase within 1" of an enemy (§6.3, PROPOSED §10 A4)."""
    for model in state.on_table():
        model.engaged_at_start = is_engaged(state, model)


def medic_window(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Start of the Movement phase: each Medic may inject another friend within 2".

    Digest §8.1 Medic, §7 #8, §10 A32: initiative player first; the injected model has
    +1 to Advance and charge rolls and +1 Attack until the end of the round. Shaken
    models are not offered: they could use none of it.
    """
    for player in (state.initiative, 1 - state.initiative):
        medic = specialist(state, player, "Medic")
        if medic is None or not can_use(state, player, MEDIC):
            continue
        patients = [
            m for m in friends(state, medic) if m.can_act and dist(state, medic, m) <= MEDIC_RANGE
        ]
        if not patients:
            continue
        choice = yield Decision(
            player,
            DecisionKind.PICK_MODEL,
            f'Medic stratagem (1 CP): inject a friend within 2" of {medic.name}: {MEDIC_EFFECT}?',
            (
                Option("no", "No injection"),
                *(Option(m.id, m.name, cell=m.cell, model=m.id) for m in patients),
            ),
            subject=medic.id,
        )
        if choice.key == "no":
            continue
        spend(state, ctx, player, MEDIC)
        patient = state.models[choice.key]
        patient.injected = True
        ctx.emit(
            "ModelInjected",
            f"{medic.name} injects {patient.name}: +1 Advance, +1 charge, +1 A this round",
            model=patient.id,
            medic=medic.id,
        )


def _team_turn(state: KTState, ctx: RuleContext, player: int) -> Procedure[None]:
    """Activate models one at a time; the rest Stay when the player ends (§6.3, §7 #9).

    Shaken models do nothing (§10 A40), so they are never offered.
    """
    while True:
        waiting = [m for m in state.on_table(player) if not m.activated and not m.shaken]
        if not waiting:
            return
        options = [Option(m.id, m.name, cell=m.cell, model=m.id) for m in waiting]
        options.append(Option("end", "End movement (the remaining models Stay)", ends=True))
        pick = yield Decision(
            player,
            DecisionKind.PICK_MODEL,
            "Movement: choose a model to activate",
            tuple(options),
        )
        if pick.key == "end":
            for model in waiting:
                model.activated = True
                model.move_action = "stay"
            name = state.team(player).name
            ctx.emit("MovementEnded", f"{says(name, 'ends')} {its(name)} movement", player=player)
            return
        yield from activate(state, ctx, state.models[pick.key])


def available_actions(state: KTState, model: Model) -> list[Option]:
    """The movement actions the model may take now (§6.3 table, §7 #10, #11).

    PROPOSED (§6.3): a model that is within 1" of an enemy but was not at the start of
    the phase (it was charged since) may only Stay. A Scout whose stratagem is affordable
    also gets each move "with the Scout stratagem", declared as it activates (§8.1).
    """
    scout = model.specialism == "Scout" and can_use(state, model.player, SCOUT)
    options: list[Option] = []
    if model.engaged_at_start:
        # §10 A49: Fall Back only if some end cell more than 1" from every enemy exists.
        for bonus in (0, SCOUT_BONUS) if scout else (0,):
            if len(_fall_back_area(state, model, bonus).ends):
                options.append(_action_option("fall_back", bonus))
    elif not is_engaged(state, model):
        for key in ("normal", "advance"):
            options.append(_action_option(key, 0))
            if scout:
                options.append(_action_option(key, SCOUT_BONUS))
        options.append(_action_option("ready", 0))
        if can_charge(state, model):
            options.append(_charge_option(state, model))
    options.append(_action_option("stay", 0))
    return options


def _action_option(key: str, bonus: int) -> Option:
    """An action, or the same move with the Scout stratagem's +2" (§8.1)."""
    if bonus:
        return Option(f"{key}+scout", f'{ACTIONS[key]} with the Scout stratagem (+2", 1 CP)')
    return Option(key, ACTIONS[key])


def _charge_option(state: KTState, model: Model) -> Option:
    """Charge, with the odds of reaching an enemy within 12" before any reaction, naming
    the nearest (whose fight it would most likely be): a charge that will likely fail is
    seen before the action is spent on it. One search for all of them: the game asks it
    again each time a look-ahead replays this choice."""
    foes = [e for e in enemies(state, model) if dist(state, model, e) <= CHARGE_RANGE]
    target = min(foes, key=lambda e: dist(state, model, e))  # `can_charge`: some foe
    odds = charge_odds(state, model, foes)
    return Option("charge", ACTIONS["charge"], model=target.id, odds=odds)


def can_charge(state: KTState, model: Model) -> bool:
    """§6.3.6 preconditions; an Advance or Fall Back this round forbids it (§6.3.2, §6.3.4)."""
    if model.engaged_at_start or model.advanced or model.fell_back:
        return False
    return any(dist(state, model, e) <= CHARGE_RANGE for e in enemies(state, model))


def activate(state: KTState, ctx: RuleContext, model: Model) -> Procedure[None]:
    """Pick and perform one movement action (§6.3, §7 #10)."""
    options = available_actions(state, model)
    key = options[0].key
    if len(options) > 1:
        choice = yield Decision(
            model.player,
            DecisionKind.PICK_OPTION,
            f"{model.name}: choose a movement action",
            tuple(options),
            subject=model.id,
        )
        key = choice.key
    else:
        ctx.answered(f"{model.name} can only {options[0].label}.", model.player)
    model.activated = True
    action, _, scout = key.partition("+")
    model.move_action = action
    bonus = 0
    if scout:
        spend(state, ctx, model.player, SCOUT)
        bonus = SCOUT_BONUS
    if action == "normal":
        yield from normal_move(state, ctx, model, bonus)
    elif action == "advance":
        yield from advance(state, ctx, model, bonus)
    elif action == "fall_back":
        yield from fall_back(state, ctx, model, bonus)
    elif action == "charge":
        yield from charge(state, ctx, model)
    elif action == "ready":
        model.ready = True
        ctx.emit("ModelReadied", f"{model.name} is Ready", model=model.id)
    else:
        ctx.emit("ModelStayed", f"{model.name} stays in place", model=model.id)


def normal_move(state: KTState, ctx: RuleContext, model: Model, bonus: int = 0) -> Procedure[None]:
    """Move up to M, never within 1" of an enemy on the way (§6.3.1)."""
    zone = enemy_zone(state, model)
    area = move_area(state, model, model.sheet.M + bonus, path_avoid=zone, end_avoid=zone)
    cell, drop = yield from choose_destination(
        ctx, area, f'Normal Move ({area.budget}"): where does {model.name} go?'
    )
    yield from relocate(state, ctx, model, cell, how="moves", drop=drop)


def advance(state: KTState, ctx: RuleContext, model: Model, bonus: int = 0) -> Procedure[None]:
    """Move up to M + D6 with the Normal Move restrictions; sets Advanced (§6.3.2)."""
    roll = yield from advance_roll(state, ctx, model)
    model.advanced = True
    zone = enemy_zone(state, model)
    area = move_area(state, model, model.sheet.M + bonus + roll, path_avoid=zone, end_avoid=zone)
    cell, drop = yield from choose_destination(
        ctx, area, f'Advance ({area.budget}"): where does {model.name} go?'
    )
    yield from relocate(state, ctx, model, cell, how="advances", drop=drop)


def _fall_back_area(state: KTState, model: Model, bonus: int) -> MoveArea:
    """Fall Back reach: any path but through enemies, ending clear of them (§11.3)."""
    return move_area(
        state,
        model,
        model.sheet.M + bonus,
        path_avoid=frozenset(),
        end_avoid=enemy_zone(state, model),
    )


def fall_back(state: KTState, ctx: RuleContext, model: Model, bonus: int = 0) -> Procedure[None]:
    """Move up to M and end more than 1" from every enemy; passing near them is allowed.

    Digest §6.3.4, §10 A49 (PROPOSED: the path may pass within 1" of enemies, never
    through enemy models). Sets Fell Back: no Advance, charge, reaction or Ready this
    round, and no shooting without FLY (checked by the other phases).
    """
    area = _fall_back_area(state, model, bonus)
    cell, drop = yield from choose_destination(
        ctx, area, f'Fall Back ({area.budget}"): where does {model.name} go?'
    )
    model.fell_back = True
    model.ready = False
    yield from relocate(state, ctx, model, cell, how="falls back", drop=drop)
