"""The Shooting phase and Overwatch (digest killteam §6.5, §6.3.6 step 2, §8.1).

Two sections, Ready, Fire! then Fire at Will, each an alternation of one model at a time
(`activation.alternate`). A chosen model picks which of its weapons to fire (or passes),
takes the Comms passive and its specialist stratagems, then fires weapon after weapon
(`volley.fire_set`). Overwatch reuses the same sequence against the charger only.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.decisions import Decision, DecisionKind, Option, Procedure, ask_yes_no
from engine.ruleset import RuleContext
from engine.rulesets.killteam.activation import alternate
from engine.rulesets.killteam.geometry import dist, is_engaged
from engine.rulesets.killteam.state import KTState, Model
from engine.rulesets.killteam.stratagems import offer_stratagem, specialist
from engine.rulesets.killteam.targets import (
    Firing,
    WeaponSet,
    fireable_sets,
    in_reach,
    may_shoot,
    sightings,
    usable_weapons,
    weapon_sets,
)
from engine.rulesets.killteam.volley import fire_set, set_option

COMMS_RANGE = 6
"""The Comms passive reaches other friendly models within 6" (§8.1, §10 A33)."""

SECTIONS = (("Ready, Fire!", True), ("Fire at Will", False))


class _Shooters:
    """Which models can shoot, cached until a model is removed or a grenade is thrown.

    The check traces line of sight to every enemy, and the alternation asks it for both
    players after every activation, so it is remembered while nothing relevant changed.
    """

    def __init__(self, state: KTState) -> None:
        self.state = state
        self._key: tuple[int, bool, bool] = (-1, False, False)
        self._sets: dict[str, list[WeaponSet]] = {}

    def sets(self, model: Model) -> list[WeaponSet]:
        state = self.state
        key = (len(state.on_table()), state.teams[0].grenade_used, state.teams[1].grenade_used)
        if key != self._key:
            self._key, self._sets = key, {}
        if model.id not in self._sets:
            self._sets[model.id] = fireable_sets(state, model)
        return self._sets[model.id]

    def eligible(self, player: int, ready: bool) -> list[Model]:
        return [
            m
            for m in self.state.on_table(player)
            if not m.has_shot and m.ready is ready and self.sets(m)
        ]


def shooting_phase(state: KTState, ctx: RuleContext) -> Procedure[None]:
    """Ready, Fire! then Fire at Will, initiative player first in each (§6.5.1)."""
    shooters = _Shooters(state)
    for section, ready in SECTIONS:
        state.step = section
        ctx.emit("SectionStarted", f"Shooting: {section}", section=section)

        def eligible(player: int, ready: bool = ready) -> list[Model]:
            return shooters.eligible(player, ready)

        def activate(model: Model) -> Procedure[None]:
            return shoot_with(state, ctx, model, shooters.sets(model))

        yield from alternate(
            state,
            ctx,
            first=state.initiative,
            eligible=eligible,
            activate=activate,
            pass_model=lambda m, said: _pass(ctx, m, said),
            what=section,
        )
        if ready:
            _spend_ready(state)


def _spend_ready(state: KTState) -> None:
    """§10 A42: a Ready model is spent after Ready, Fire!, even if it could not shoot."""
    for model in state.on_table():
        if model.ready:
            model.ready = False
            model.has_shot = True


def shoot_with(
    state: KTState, ctx: RuleContext, model: Model, sets: list[WeaponSet]
) -> Procedure[None]:
    """One model's shooting: weapons or pass, Comms, stratagems, then fire (§6.5.3, §7 #26-#29)."""
    model.has_shot = model.shooting = True
    model.ready = False
    yield from _shoot(state, ctx, model, sets)
    model.shooting = False


def _pass(ctx: RuleContext, model: Model, said: bool = True) -> None:
    """The model does not shoot this phase; a Ready one stops being Ready (§6.5.1, A42).
    Not ``said``: a line naming every model passed together tells it."""
    model.has_shot = True
    model.ready = False
    text = f"{model.name} does not shoot" if said else ""
    ctx.emit("ModelPassed", text, model=model.id)


def _shoot(
    state: KTState, ctx: RuleContext, model: Model, sets: list[WeaponSet]
) -> Procedure[None]:
    """`shoot_with`'s choices and dice, so it can mark the model's card "shooting" until
    all of them are done, whichever way they end."""
    looking = Firing(model, engaged=is_engaged(state, model))
    options = [set_option(state, looking, s) for s in sets]
    options.append(Option("pass", "Pass (do not shoot)", neutral=True))
    pick = yield Decision(
        model.player,
        DecisionKind.PICK_OPTION,
        f"{model.name}: fire which weapons?",
        tuple(options),
        subject=model.id,
    )
    if pick.key == "pass":
        ctx.emit("ModelPassed", f"{model.name} does not shoot", model=model.id)
        return
    chosen = next(s for s in sets if s.key == pick.key)
    if chosen.is_grenade:
        state.team(model.player).grenade_used = True
    firing = Firing(model, engaged=is_engaged(state, model))
    if chosen.rolls_to_hit:
        yield from _offer_comms(state, ctx, model)
    yield from _offer_stratagems(state, ctx, firing, chosen)
    yield from fire_set(state, ctx, firing, chosen)


def _offer_comms(state: KTState, ctx: RuleContext, model: Model) -> Procedure[None]:
    """Comms passive: once per Shooting phase, +1 to hit for a friend within 6" (§8.1, #27)."""
    team = state.team(model.player)
    comms = specialist(state, model.player, "Comms")
    if (
        comms is None
        or comms is model
        or team.comms_passive_used
        or dist(state, comms, model) > COMMS_RANGE
    ):
        return
    if (
        yield from ask_yes_no(
            model.player,
            f"Use the Comms passive of {comms.name}: +1 to hit for {model.name} this phase?",
            subject=model.id,
        )
    ):
        team.comms_passive_used = True
        model.comms_bonus = True
        ctx.emit(
            "CommsApplied",
            f"{comms.name} directs {model.name}'s fire: +1 to hit",
            model=model.id,
            comms=comms.id,
        )


def _offer_stratagems(
    state: KTState, ctx: RuleContext, firing: Firing, chosen: WeaponSet
) -> Procedure[None]:
    """Sniper, Heavy and Demolitions stratagems for their own specialist (§8.1, §7 #28)."""
    model = firing.shooter
    spec = model.specialism
    if spec == "Sniper" and not firing.overwatch and chosen.rolls_to_hit:
        firing.sniper = yield from offer_stratagem(
            state,
            ctx,
            model.player,
            "Sniper stratagem",
            f"{model.name}: +1 to hit this phase?",
            subject=model.id,
        )
    elif spec == "Demolitions" and not firing.overwatch:
        firing.demolitions = yield from offer_stratagem(
            state,
            ctx,
            model.player,
            "Demolitions stratagem",
            f"{model.name}: +1 to wound this phase?",
            subject=model.id,
        )
    elif spec == "Heavy" and any(
        p.shots.is_random or p.shots.bonus > 1 for w in chosen.weapons for p in w.profiles
    ):
        firing.heavy = yield from offer_stratagem(
            state,
            ctx,
            model.player,
            "Heavy stratagem",
            f"{model.name}: +1 attack with weapons of more than 1 shot?",
            subject=model.id,
        )


def _overwatch_sets(state: KTState, shooter: Model, charger: Model) -> list[WeaponSet]:
    """Weapon choices that can reach and see the charger (§6.3.6 step 2, §6.5.11)."""
    if not charger.on_table or shooter.cell is None:
        return []
    weapons = usable_weapons(state, shooter, engaged=False)
    if not weapons:
        return []
    reach = max(p.range for w in weapons for p in w.profiles)
    seen = [s for s in sightings(state, shooter, engaged=False, reach=reach) if s.target is charger]
    return [
        s
        for s in weapon_sets(weapons)
        if any(in_reach(seen, p) for w in s.weapons for p in w.profiles)
    ]


def can_overwatch(state: KTState, shooter: Model, charger: Model) -> bool:
    """Could ``shooter`` fire Overwatch at ``charger`` now (§6.3.6 step 2, §6.5.11, A12, A14)?

    Not after declaring a charge, falling back or retreating, nor while within 1" of an
    enemy; after Advancing only with Assault weapons; the charger must be in range and
    visible; the team's one grenade per phase counts.
    """
    if not may_shoot(shooter) or shooter.fell_back or shooter.retreated:
        return False
    if is_engaged(state, shooter):
        return False
    return bool(_overwatch_sets(state, shooter, charger))


def overwatch(state: KTState, ctx: RuleContext, shooter: Model, charger: Model) -> Procedure[None]:
    """Fire Overwatch at the charger: hits only on unmodified 6s, no split (§6.5.11, §7 #16)."""
    sets = _overwatch_sets(state, shooter, charger)
    if not sets:
        return
    chosen = sets[0]
    if len(sets) > 1:
        # The odds as in the Shooting phase's choice, Overwatch's unmodified 6s included.
        looking = Firing(shooter, charger=charger)
        options = [set_option(state, looking, s) for s in sets]
        pick = yield Decision(
            shooter.player,
            DecisionKind.PICK_OPTION,
            f"Overwatch: {shooter.name} fires which weapons at {charger.name}?",
            tuple(options),
            subject=shooter.id,
        )
        chosen = next(s for s in sets if s.key == pick.key)
    ctx.emit(
        "OverwatchFired",
        f"{shooter.name} fires Overwatch at {charger.name}",
        model=shooter.id,
        target=charger.id,
    )
    if chosen.is_grenade:
        state.team(shooter.player).grenade_used = True
    firing = Firing(shooter, charger=charger)
    yield from _offer_stratagems(state, ctx, firing, chosen)
    yield from fire_set(state, ctx, firing, chosen)
