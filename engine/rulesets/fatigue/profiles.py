"""Profiles of Roads of the Apocalypse: weapons, models, abilities, units, forces.

The static data of digest fatigue §3.2-§3.5 as frozen records. The forces themselves
are scenario data (§12, parsed in ``roster.py``); the ability catalogue is code because
each ability's effect is a hook in the procedures (§8).

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile (FILL-IN format, §3.4)."""

    name: str
    ranged: bool
    attacks: int
    """A: D6s rolled per model per attack."""
    damage: int
    """Wounds per hit; 0 means D2 rolled per hit."""
    range: int = 0
    """Range in steps (ranged weapons only)."""
    unstable: bool = False
    """UNSTABLE: checks for misfires on a natural 1 (§6.29)."""

    @property
    def damage_text(self) -> str:
        return "D2" if self.damage == 0 else str(self.damage)

    def describe(self) -> str:
        """One line for the model panel."""
        kind = f"ranged, Rng {self.range}" if self.ranged else "melee"
        extra = ", UNSTABLE" if self.unstable else ""
        return f"{self.name} ({kind}, A{self.attacks}, Dmg {self.damage_text}{extra})"


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """A model's stat line (§3.2): M, R, Mo, Def, weapons and roles."""

    name: str
    glyph: str
    mobility: int
    resilience: int
    morale: int
    defense: int
    melee: Weapon
    ranged: Weapon | None = None
    commander: bool = False
    """A unit commander (SEED, §6.15): +1 FP and the unit uses its Morale."""
    leader: bool = False
    """The force's Leader (SEED, §6.21): its Morale is used for the Rout test."""

    def lines(self) -> tuple[tuple[str, str], ...]:
        """Characteristics for the model panel."""
        return (
            ("M", str(self.mobility)),
            ("R", str(self.resilience)),
            ("Mo", str(self.morale)),
            ("Def", f"{self.defense}+"),
        )


class AbilityType(enum.Enum):
    """When an ability works (SEED, §3.5)."""

    ACTIVATED = "activated"
    """Paid for with FP during an activation."""
    PASSIVE = "passive"
    """Always on, 0 FP unless stated."""
    TRIGGERED = "triggered"
    """Works when its trigger happens, 0 FP unless stated."""
    END_OF_ROUND = "end_of_round"
    """Resolved in the Aftermath's end-of-round step (§6.32)."""


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability of a unit's profile (§3.5); ``key`` names its effect hook (§8)."""

    key: str
    name: str
    type: AbilityType
    fp_cost: int = 0
    attach_to: str = "standalone"
    """The basic action it goes with: ATTACK, SHOOT, MOVE or standalone (PROPOSED)."""
    self_fatigue: int = 0
    """Fatigue tokens the unit gains after the activation that uses it."""
    text: str = ""


ABILITIES: dict[str, Ability] = {
    a.key: a
    for a in (
        Ability(
            "whirlwind_of_steel",
            "Whirlwind of Steel",
            AbilityType.ACTIVATED,
            fp_cost=1,
            attach_to="ATTACK",
            self_fatigue=1,
            text="1 FP with ATTACK: doubles melee dice in that exchange; +1 fatigue (SEED).",
        ),
        Ability(
            "rallying_voice",
            "Rallying Voice",
            AbilityType.END_OF_ROUND,
            text="End of round: one fleeing friendly unit within 6 steps of the Leader "
            "takes a Rally test on the Leader's Morale (FILL-IN).",
        ),
    )
}
"""Every ability with an implemented effect, by key (§8)."""


class Psych(enum.Enum):
    """Psychology and movement keywords of a unit (§3.3 ``psych``)."""

    FEAR = "fear"
    """Causes Fear (SEED, §6.22)."""
    TERROR = "terror"
    """Causes Terror, and so Fear (SEED, §6.23)."""
    FRENZY = "frenzy"
    """Frenzy (SEED, §6.24)."""
    STUPIDITY = "stupidity"
    """Stupidity (SEED, §6.25)."""
    IMMUNE_PSYCH = "immune_psych"
    """Immune to psychology: no panic, fear, terror or stupidity tests (§10 #33)."""
    CAMOUFLAGE = "camouflage"
    """Forward, hidden deployment; attacks from hiding ambush (FILL-IN, §6.30)."""


@dataclass(frozen=True, slots=True)
class UnitSpec:
    """A unit as the force list gives it (§3.3 static part)."""

    name: str
    models: tuple[ModelProfile, ...]
    """One profile per model, in list order (the order of rolls and placement)."""
    fp_value: int = 2
    points: int = 0
    abilities: tuple[Ability, ...] = ()
    psych: frozenset[Psych] = frozenset()
    hates: tuple[str, ...] = ()
    """Factions this unit hates (Hatred, §6.26)."""
    giant_leap: int = 0
    """X of Giant Leap X, 0 if the unit cannot leap (§6.27)."""

    def has(self, keyword: Psych) -> bool:
        return keyword in self.psych

    def keywords(self) -> tuple[str, ...]:
        """Keywords in the digest's words, for the model panel."""
        words = [p.value.replace("_", " ") for p in Psych if p in self.psych]
        words += [f"hatred ({f})" for f in self.hates]
        if self.giant_leap:
            words.append(f"giant leap {self.giant_leap}")
        words += [a.name for a in self.abilities]
        return tuple(words)


@dataclass(frozen=True, slots=True)
class ForceSpec:
    """A force (warband) of one player (§4.1)."""

    name: str
    faction: str
    units: tuple[UnitSpec, ...]

    @property
    def points(self) -> int:
        return sum(u.points for u in self.units)

    @property
    def model_count(self) -> int:
        return sum(len(u.models) for u in self.units)


@dataclass(frozen=True, slots=True)
class Modules:
    """The optional modules and switches of a scenario (§12.4)."""

    special_manoeuvres: bool = True
    """Giant Leap and Leap Attack (ADV_SPECIAL_MANOEUVRES)."""
    misfires: bool = True
    """Misfire table for UNSTABLE weapons (ADV_MISFIRES)."""
    lost_group_test: bool = False
    """Morale test for models that lost their group (EXT_LOST_GROUP_TEST, §6.31 item 4)."""
    elevation: bool = False
    """Platforms, falls and jumping down into a Leap Attack (ELEVATION)."""
    chebyshev: bool = False
    """METRIC = chebyshev: diagonals cost 1 and distance is max(|dx|, |dy|)."""
