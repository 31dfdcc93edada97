"""Firing the weapons of one shooting or Overwatch, weapon after weapon (killteam §6.5.3-§6.5.4).

For each weapon: its profile, the original target, the number of attacks (rolled right
after the original target is declared), split fire, then `resolve_attacks` rolls the dice
in the order of §6.1 item 8.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.checks import Check
from engine.decisions import Decision, DecisionKind, Odds, Option, Procedure
from engine.ruleset import RuleContext
from engine.rulesets.killteam.attacks import AttackGroup, AttackSpec, attack_odds, resolve_attacks
from engine.rulesets.killteam.geometry import dist, is_engaged
from engine.rulesets.killteam.profiles import Weapon, WeaponProfile, WeaponType
from engine.rulesets.killteam.state import KTState
from engine.rulesets.killteam.targets import (
    SPLIT_FIRE_RANGE,
    Firing,
    Sighting,
    WeaponSet,
    attack_group,
    describe_modifiers,
    in_reach,
    sightings,
)
from engine.wording import counted

SHOTS = Check.purpose("number of shots")


def fire_set(
    state: KTState, ctx: RuleContext, firing: Firing, chosen: WeaponSet
) -> Procedure[None]:
    """Fire every weapon of the set, one after another, in the player's order (§6.5.3)."""
    remaining = list(chosen.weapons)
    shooter = firing.shooter
    while remaining and shooter.on_table:
        weapon = remaining[0]
        if len(remaining) > 1:
            pick = yield Decision(
                shooter.player,
                DecisionKind.PICK_OPTION,
                f"{shooter.name}: which weapon fires next?",
                tuple(Option(str(i), w.name) for i, w in enumerate(remaining)),
                subject=shooter.id,
            )
            weapon = remaining[int(pick.key)]
        elif len(chosen.weapons) > 1:
            ctx.answered(
                f"{weapon.name} is the last weapon of {shooter.name} to fire.", shooter.player
            )
        remaining.remove(weapon)
        yield from fire_weapon(state, ctx, firing, weapon)


def _targets(state: KTState, firing: Firing, profile: WeaponProfile) -> list[Sighting]:
    """Valid targets of one profile now; Overwatch: the charger only (§6.5.4, §6.5.11)."""
    shooter = firing.shooter
    if not firing.overwatch:
        # Recomputed per weapon: an earlier weapon may have removed the engaged enemy.
        firing.engaged = is_engaged(state, shooter)
    seen = in_reach(sightings(state, shooter, engaged=firing.engaged, reach=profile.range), profile)
    if firing.charger is not None:
        return [s for s in seen if s.target is firing.charger]
    return seen


def set_option(state: KTState, firing: Firing, chosen: WeaponSet) -> Option:
    """The option to fire ``chosen``, with the best odds one attack of the set has at any
    target it may pick now (most often unsaved): shown where the player picks what to
    fire, so a shot that cannot hurt is seen before it is taken. Its detail names the
    profile and target those odds are for: the list comes before either is chosen, and
    a plasma carbine's 42% (overcharged) read as its standard shot's 33% at the same
    target, or as odds at the target the player meant."""
    best: tuple[Odds, WeaponProfile, Sighting] | None = None
    reroll = firing.shooter.specialism == "Sniper"
    for weapon in chosen.weapons:
        for profile in weapon.profiles:
            for sight in _targets(state, firing, profile):
                group = attack_group(state, firing, profile, sight, 1)
                odds = attack_odds(
                    firing.shooter.sheet.BS, group, overwatch=firing.overwatch, reroll_ones=reroll
                )
                if best is None or (odds.unsaved or 0) > (best[0].unsaved or 0):
                    best = (odds, profile, sight)
    if best is None:
        return Option(chosen.key, chosen.label, detail=chosen.describe())
    odds, profile, sight = best
    several = len({p.name for w in chosen.weapons for p in w.profiles}) > 1
    head = f"Odds for {profile.name}" if several else "Odds"
    if not firing.overwatch:  # Overwatch has one target, named in its question
        head += f" at {sight.target.name}"  # one profile read "Odds for at B3 Reaver Brute"
    # First: a short panel (80x24) cuts the detail's end.
    detail = ("" if head == "Odds" else f"{head}. ") + chosen.describe()
    return Option(chosen.key, chosen.label, odds=odds, detail=detail)


def fire_weapon(
    state: KTState, ctx: RuleContext, firing: Firing, weapon: Weapon
) -> Procedure[None]:
    """Profile, original target, attacks, split fire, then the dice (§6.5.3 steps 1-7)."""
    shooter = firing.shooter
    firing.forget()  # an earlier weapon may have removed a model that obscured a target
    profile = yield from _choose_profile(state, ctx, firing, weapon)
    pool = [] if profile is None else _targets(state, firing, profile)
    if profile is None or not pool:
        ctx.emit(
            "WeaponNotFired",
            f"{shooter.name} has no target for its {weapon.name}",
            model=shooter.id,
            weapon=weapon.id,
        )
        return
    original = yield from _declare_target(state, firing, profile, pool)
    odds = _odds_option(state, firing, profile, original, "", "").odds
    if len(pool) == 1 and not firing.overwatch:
        ctx.answered(
            f"{original.target.name} is the only target of the {profile.name}"
            + (f" [{odds.describe()}]." if odds else "."),
            shooter.player,
        )
    ctx.emit(
        "TargetDeclared",
        f"{shooter.name} fires {profile.name} at {original.target.name}"
        + (f" [{odds.describe()}]" if odds else ""),
        model=shooter.id,
        target=original.target.id,
        weapon=weapon.id,
    )
    count = _attack_count(ctx, firing, profile, original)
    if count < 1:
        return
    groups = yield from _split_fire(state, firing, profile, pool, original, count)
    spec = AttackSpec(
        shooter,
        shooter.sheet.BS,
        groups,
        overwatch=firing.overwatch,
        reroll_ones=shooter.specialism == "Sniper",
    )
    yield from resolve_attacks(state, ctx, spec)


def _choose_profile(
    state: KTState, ctx: RuleContext, firing: Firing, weapon: Weapon
) -> Procedure[WeaponProfile | None]:
    """Pick the firing mode of a weapon with several (plasma overcharge, §3.2, §7 #29)."""
    usable = [p for p in weapon.profiles if _targets(state, firing, p)]
    if len(usable) <= 1:
        if len(usable) == 1 < len(weapon.profiles):
            ctx.answered(
                f"{usable[0].name} is the only profile of {weapon.name} with a target.",
                firing.shooter.player,
            )
        return usable[0] if usable else None
    shooter = firing.shooter
    pick = yield Decision(
        shooter.player,
        DecisionKind.PICK_OPTION,
        f"{shooter.name}: which profile of {weapon.name}?",
        tuple(Option(str(i), p.describe()) for i, p in enumerate(usable)),
        subject=shooter.id,
    )
    return usable[int(pick.key)]


def _odds_option(
    state: KTState, firing: Firing, profile: WeaponProfile, sight: Sighting, key: str, label: str
) -> Option:
    group = attack_group(state, firing, profile, sight, 1)
    shooter = firing.shooter
    odds = attack_odds(
        shooter.sheet.BS,
        group,
        overwatch=firing.overwatch,
        reroll_ones=shooter.specialism == "Sniper",
    )
    return Option(
        key,
        label,
        cell=sight.target.cell,
        model=sight.target.id,
        odds=odds,
        detail=describe_modifiers(state, firing, profile, sight),
    )


def _declare_target(
    state: KTState, firing: Firing, profile: WeaponProfile, pool: list[Sighting]
) -> Procedure[Sighting]:
    """The original target (§6.5.4 item 3; engaged Pistol: closest, ties chosen, A28)."""
    if firing.overwatch or len(pool) == 1:
        return pool[0]
    shooter = firing.shooter
    options = tuple(
        _odds_option(state, firing, profile, s, s.target.id, f'{s.target.name} ({s.distance}")')
        for s in pool
    )
    what = "closest enemy" if firing.engaged else "original target"
    pick = yield Decision(
        shooter.player,
        DecisionKind.PICK_TARGET,
        f"{shooter.name}: choose the {what} for {profile.name}",
        options,
        subject=shooter.id,
    )
    return next(s for s in pool if s.target.id == pick.key)


def _attack_count(
    ctx: RuleContext, firing: Firing, profile: WeaponProfile, original: Sighting
) -> int:
    """Shots: rolled if random, Rapid Fire doubled at half range, Heavy stratagem +1.

    §6.5.4 item 3, §6.5.10 and §10 A26 (the original target's distance), A35 (base shots
    above 1 or random; +1 after rolling and doubling).
    """
    shots = profile.shots
    shooter = firing.shooter
    count = shots.bonus
    if shots.is_random:
        if shots.sides == 3:
            count += sum(
                ctx.dice.d3(player=shooter.player, reason=f"shots of {profile.name}", check=SHOTS)
                for _ in range(shots.count)
            )
        else:
            count += ctx.dice.roll(
                shots.count, player=shooter.player, reason=f"shots of {profile.name}", check=SHOTS
            ).total
        # One die's dice line says it all; several dice, or a bonus, add up to more.
        said = shots.count == 1 and not shots.bonus
        text = "" if said else f"{profile.name}: {counted(count, 'shot')}"
        ctx.emit("ShotsRolled", text, model=shooter.id, shots=count)
    if profile.type is WeaponType.RAPID_FIRE and 2 * original.distance <= profile.range:
        count *= 2
    if firing.heavy and (shots.is_random or shots.bonus > 1):
        count += 1
    return count


def _split_fire(
    state: KTState,
    firing: Firing,
    profile: WeaponProfile,
    pool: list[Sighting],
    original: Sighting,
    count: int,
) -> Procedure[list[AttackGroup]]:
    """≥1 attack on the original target, the rest one at a time within 2" of it (§6.5.4).

    No split in Overwatch or for a Pistol fired within 1" of an enemy (§6.5.10, §6.5.11).
    """
    nearby = [original] + [
        s
        for s in pool
        if s is not original and dist(state, original.target, s.target) <= SPLIT_FIRE_RANGE
    ]
    allocated = {original.target.id: 1}
    remaining = count - 1
    if firing.overwatch or firing.engaged or len(nearby) == 1:
        allocated[original.target.id] += remaining
        remaining = 0
    shooter = firing.shooter
    while remaining:
        options: list[Option] = []
        for s in nearby:
            so_far = allocated.get(s.target.id, 0)
            if remaining == 1:  # "1 attack" and "All 1 remaining" would be one choice twice
                last = f"The last attack at {s.target.name} ({so_far} so far)"
                options.append(_odds_option(state, firing, profile, s, s.target.id, last))
                continue
            one = f"1 attack at {s.target.name} ({so_far} so far)"
            rest = f"All {remaining} remaining at {s.target.name}"
            options.append(_odds_option(state, firing, profile, s, s.target.id, one))
            options.append(_odds_option(state, firing, profile, s, f"all:{s.target.id}", rest))
        pick = yield Decision(
            shooter.player,
            DecisionKind.ALLOCATE,
            f"{shooter.name}: {counted(remaining, 'attack')} of {profile.name} left to allocate",
            tuple(options),
            subject=shooter.id,
        )
        mid = pick.key.removeprefix("all:")
        given = remaining if pick.key.startswith("all:") else 1
        allocated[mid] = allocated.get(mid, 0) + given
        remaining -= given
    # Attacks on the original target first, then the others in the order declared (§6.1).
    return [
        attack_group(state, firing, profile, s, allocated[s.target.id])
        for s in sorted(
            (s for s in nearby if s.target.id in allocated),
            key=lambda s: list(allocated).index(s.target.id),
        )
    ]
