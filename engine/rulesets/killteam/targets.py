"""Who may shoot, with which weapons, at whom, and at what modifiers (killteam §6.5.2-§6.5.10).

Pure questions about the current state, with no Decisions and no dice, so that the
Shooting phase, Overwatch and the odds shown on options all agree on one answer.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.checks import Modifier
from engine.rulesets.killteam.attacks import AttackGroup
from engine.rulesets.killteam.geometry import (
    can_see,
    closest,
    dist,
    enemies,
    friends,
    is_engaged,
    is_obscured,
    is_within_1,
    terrain_saves_injury,
)
from engine.rulesets.killteam.profiles import Weapon, WeaponProfile, WeaponType
from engine.rulesets.killteam.state import KTState, Model

SPLIT_FIRE_RANGE = 2
"""Secondary targets must be within 2" of the original target (§6.5.4 item 4)."""


@dataclass(frozen=True, slots=True)
class WeaponSet:
    """Weapons fired together in one shooting: the Pistols, all the others, or one Grenade.

    §6.5.10: a model fires either its Pistol or all its other ranged weapons, and a model
    that throws a grenade fires nothing else.
    """

    key: str
    label: str
    weapons: tuple[Weapon, ...]

    @property
    def is_grenade(self) -> bool:
        return any(w.type is WeaponType.GRENADE for w in self.weapons)

    def describe(self) -> str:
        """Every profile of the set, for an option's detail line."""
        return "; ".join(p.describe() for w in self.weapons for p in w.profiles)

    @property
    def rolls_to_hit(self) -> bool:
        """Some weapon needs hit rolls (so +1 to hit can matter)."""
        return any("auto_hit" not in p.abilities for w in self.weapons for p in w.profiles)


@dataclass(frozen=True, slots=True)
class Sighting:
    """An enemy the shooter might target, with its distance and visibility."""

    target: Model
    distance: int
    visible: bool


@dataclass(slots=True)
class Firing:
    """One model's shooting (or Overwatch) and the bonuses declared for it."""

    shooter: Model
    engaged: bool = False
    """Within 1" of an enemy: Pistol at the closest enemy only (§6.5.10)."""
    charger: Model | None = None
    """The Overwatch target; None in the Shooting phase."""
    sniper: bool = False
    """Sniper stratagem: +1 to hit this phase (§8.1)."""
    heavy: bool = False
    """Heavy stratagem: +1 attack to weapons with more than 1 shot (§8.1, §10 A35)."""
    demolitions: bool = False
    """Demolitions stratagem: +1 to wound this phase (§8.1)."""
    _obscured: dict[str, bool] = field(default_factory=dict)
    _cover: dict[str, bool] = field(default_factory=dict)

    @property
    def overwatch(self) -> bool:
        return self.charger is not None

    def forget(self) -> None:
        """Drop the cached cover answers (models may have been removed since)."""
        self._obscured.clear()
        self._cover.clear()

    def obscured(self, state: KTState, target: Model) -> bool:
        """Is the target obscured to the shooter (§6.5.5, §11.4)? Cached per activation."""
        if target.id not in self._obscured:
            self._obscured[target.id] = is_obscured(state, self.shooter, target)
        return self._obscured[target.id]

    def cover(self, state: KTState, target: Model) -> bool:
        """Does terrain near the target soften its injury roll (§6.5.9)? Cached."""
        if target.id not in self._cover:
            self._cover[target.id] = terrain_saves_injury(state, self.shooter, target)
        return self._cover[target.id]


def may_shoot(model: Model) -> bool:
    """§6.5.2: not charged, not fallen back or retreated unless FLY, not shaken or removed."""
    if not model.can_act or model.charge_declared:
        return False
    return model.is_fly or not (model.fell_back or model.retreated)


def usable_weapons(state: KTState, model: Model, *, engaged: bool) -> list[Weapon]:
    """Ranged weapons the model may fire now (§6.5.2, §6.5.10, §10 A10, A12).

    After Advancing only Assault weapons; within 1" of an enemy only Pistols, and only if
    the model was not the target of a successful charge; grenades while the team has not
    thrown one this phase.
    """
    usable = []
    for weapon in model.weapons:
        kind = weapon.type
        if weapon.is_melee or (model.advanced and kind is not WeaponType.ASSAULT):
            continue
        if engaged and (kind is not WeaponType.PISTOL or model.charged_by):
            continue
        if kind is WeaponType.GRENADE and state.team(model.player).grenade_used:
            continue
        usable.append(weapon)
    return usable


def weapon_sets(weapons: list[Weapon]) -> list[WeaponSet]:
    """Group the usable weapons into the exclusive choices of §6.5.10."""
    pistols = tuple(w for w in weapons if w.type is WeaponType.PISTOL)
    grenades = [w for w in weapons if w.type is WeaponType.GRENADE]
    others = tuple(w for w in weapons if w.type not in (WeaponType.PISTOL, WeaponType.GRENADE))
    sets = []
    if others:
        sets.append(WeaponSet("others", "Fire " + ", ".join(w.name for w in others), others))
    if pistols:
        sets.append(WeaponSet("pistol", "Fire " + ", ".join(w.name for w in pistols), pistols))
    for i, grenade in enumerate(grenades):
        sets.append(WeaponSet(f"grenade{i}", f"Throw {grenade.name}", (grenade,)))
    return sets


def sightings(state: KTState, shooter: Model, *, engaged: bool, reach: int) -> list[Sighting]:
    """Enemies the shooter could target with a weapon of range ``reach`` (§6.5.4, §6.5.10).

    Engaged: only the closest enemies, friends nearby or not. Otherwise every enemy not
    within 1" of the shooter's friends. Sight is only traced for enemies within ``reach``.
    """
    foes = enemies(state, shooter)
    if engaged:
        foes = closest(state, shooter, foes)
    else:
        near = friends(state, shooter)
        foes = [e for e in foes if not any(is_within_1(state, e, f) for f in near)]
    out = []
    for foe in foes:
        d = dist(state, shooter, foe)
        out.append(Sighting(foe, d, d <= reach and can_see(state, shooter, foe)))
    return out


def in_reach(seen: list[Sighting], profile: WeaponProfile) -> list[Sighting]:
    """Sightings in range and visible, unless the weapon ignores visibility (§6.5.4, §8.3)."""
    blind = "no_los" in profile.abilities
    return [s for s in seen if s.distance <= profile.range and (s.visible or blind)]


def max_range(weapons: tuple[Weapon, ...] | list[Weapon]) -> int:
    return max((p.range for w in weapons for p in w.profiles), default=0)


def fireable_sets(state: KTState, model: Model) -> list[WeaponSet]:
    """The weapon choices that have at least one target now (empty: cannot shoot)."""
    if not may_shoot(model) or model.cell is None:
        return []
    engaged = is_engaged(state, model)
    weapons = usable_weapons(state, model, engaged=engaged)
    if not weapons:
        return []
    seen = sightings(state, model, engaged=engaged, reach=max_range(weapons))
    return [
        s
        for s in weapon_sets(weapons)
        if any(in_reach(seen, p) for w in s.weapons for p in w.profiles)
    ]


def hit_modifiers(
    state: KTState, firing: Firing, profile: WeaponProfile, sight: Sighting
) -> list[tuple[str, int]]:
    """Every ranged hit modifier that applies to this target (§6.5.5 table).

    Overwatch ignores them all: it hits on an unmodified 6 (§6.5.11).
    """
    if firing.overwatch:
        return []
    shooter = firing.shooter
    heavy_specialist = shooter.specialism == "Heavy"
    rules = [
        ("obscured", -1, firing.obscured(state, sight.target)),
        (
            "long range",
            -1,
            profile.type is not WeaponType.GRENADE and 2 * sight.distance > profile.range,
        ),
        ("flesh wounds", -shooter.flesh_wounds, shooter.flesh_wounds > 0),
        ("broken", -1, state.team(shooter.player).broken),
        (
            "Heavy after moving",
            -1,
            profile.type is WeaponType.HEAVY and shooter.moved and not heavy_specialist,
        ),
        (
            "Assault after advancing",
            -1,
            profile.type is WeaponType.ASSAULT and shooter.advanced and not heavy_specialist,
        ),
        ("weapon", -1, "hit_penalty" in profile.abilities),
        ("Comms", 1, shooter.comms_bonus),
        ("Sniper stratagem", 1, firing.sniper),
    ]
    return [(name, value) for name, value, on in rules if on]


def wound_modifiers(state: KTState, firing: Firing, target: Model) -> list[tuple[str, int]]:
    """Demolitions passive (+1 vs obscured) and stratagem (+1) (§6.5.6, §8.1)."""
    out = []
    if firing.shooter.specialism == "Demolitions" and firing.obscured(state, target):
        out.append(("Demolitions vs obscured", 1))
    if firing.demolitions:
        out.append(("Demolitions stratagem", 1))
    return out


def attack_group(
    state: KTState, firing: Firing, profile: WeaponProfile, sight: Sighting, attacks: int
) -> AttackGroup:
    """The attacks at one target with all their modifiers (§6.5.5-§6.5.9)."""
    shooter = firing.shooter
    user_strength = shooter.sheet.S + (1 if shooter.fury else 0)
    return AttackGroup(
        sight.target,
        attacks,
        profile,
        profile.strength.resolve(user_strength),
        hit_modifiers=tuple(
            Modifier(v, n) for n, v in hit_modifiers(state, firing, profile, sight)
        ),
        wound_modifiers=tuple(
            Modifier(v, n) for n, v in wound_modifiers(state, firing, sight.target)
        ),
        injury_modifier=-1 if firing.cover(state, sight.target) else 0,
    )


def describe_modifiers(
    state: KTState, firing: Firing, profile: WeaponProfile, sight: Sighting
) -> str:
    """Plain-English list of the modifiers, for an option's detail line."""
    parts = [f"{v:+d} {n} to hit" for n, v in hit_modifiers(state, firing, profile, sight)]
    parts += [f"{v:+d} {n} to wound" for n, v in wound_modifiers(state, firing, sight.target)]
    if firing.cover(state, sight.target):
        parts.append("-1 to injury (terrain)")
    return ", ".join(parts) or "no modifiers"
