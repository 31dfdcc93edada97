"""Weapons, model profiles and unit entries (digest wh40k6 §3, §12).

Frozen value types; `parsing` builds them from the catalogue's and scenarios' data.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from engine.rulesets.wh40k6 import tables as t


class UnitType(enum.Enum):
    """The unit types of the seed's movement table (§3.4)."""

    INFANTRY = "infantry"
    JUMP = "jump"
    JET_PACK = "jet_pack"
    BEAST = "beast"
    CAVALRY = "cavalry"
    BIKE = "bike"
    JETBIKE = "jetbike"
    ADV_JETBIKE = "adv_jetbike"
    MONSTROUS_CREATURE = "monstrous_creature"
    FLYING_MC = "flying_mc"
    ARTILLERY = "artillery"
    VEHICLE = "vehicle"


VEHICLE_TYPES = frozenset(
    {"tank", "walker", "skimmer", "fast", "heavy", "open_topped", "transport", "flyer"}
)
MODEL_RULES = frozenset(
    {
        "character",
        "psyker",
        "fleet",
        "fearless",
        "assault_grenades",
        "infiltrate",
        "scout",
        "gun",
        "relentless",
        "smoke_launchers",
    }
)
WEAPON_RULES = frozenset(
    {
        "blast",
        "large_blast",
        "template",
        "twin_linked",
        "pinning",
        "unwieldy",
        "specialist",
        "melta",
        "psychic",
    }
)
MOUNTS = ("turret", "hull", "sponson_left", "sponson_right")
SLOTS = ("HQ", "Troops", "Elites", "Fast Attack", "Heavy Support", "Fortification")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile (§3.5)."""

    id: str
    name: str
    range: int
    """Inches; 0 for melee weapons and grenades."""
    strength: int
    strength_mode: str
    """"fixed", "user", "plus" (User+N) or "times" (User×2, max 10)."""
    ap: int | None
    kind: str
    """A weapon type of `tables` (Assault, Heavy, ..., Melee, Grenade)."""
    shots: int
    salvo: tuple[int, int] | None
    rules: frozenset[str]

    def strength_for(self, user: int) -> int:
        """The weapon's S in the hands of a model with S ``user`` (maximum 10)."""
        if self.strength_mode == "user":
            return user
        if self.strength_mode == "plus":
            return min(10, user + self.strength)
        if self.strength_mode == "times":
            return min(10, user * 2)
        return self.strength

    @property
    def is_ranged(self) -> bool:
        return self.kind not in (t.MELEE, t.GRENADE)

    @property
    def is_melee(self) -> bool:
        """Usable in close combat: melee weapons and pistols (§12.1)."""
        return self.kind in (t.MELEE, t.PISTOL)

    @property
    def is_area(self) -> bool:
        return bool(self.rules & {"blast", "large_blast", "template"})

    def describe(self) -> str:
        rng = "Melee" if not self.is_ranged else f'{self.range}"'
        s = {"user": "User", "plus": f"User+{self.strength}", "times": "User×2"}.get(
            self.strength_mode, str(self.strength)
        )
        ap = "-" if self.ap is None else str(self.ap)
        extra = f" ({', '.join(sorted(self.rules))})" if self.rules else ""
        kind = "" if self.kind == t.MELEE else f" {self.type_label()}"  # no "Melee ... Melee"
        return f"{self.name}: {rng} S {s} AP {ap}{kind}{extra}"

    def type_label(self) -> str:
        if self.kind == t.SALVO and self.salvo:
            return f"Salvo {self.salvo[0]}/{self.salvo[1]}"
        if self.kind in (t.ASSAULT, t.HEAVY, t.PISTOL, t.ORDNANCE):
            return f"{self.kind} {self.shots}"
        return self.kind


@dataclass(frozen=True, slots=True)
class Mount:
    """A weapon carried by a model (vehicles say where it is mounted, §11.5)."""

    weapon: Weapon
    mount: str = "hull"


@dataclass(frozen=True, slots=True)
class Profile:
    """A model's characteristics (§3.1) or a vehicle's (§3.2)."""

    id: str
    name: str
    glyph: str
    unit_type: UnitType
    ws: int
    bs: int
    s: int
    t: int
    w: int
    i: int
    a: int
    ld: int
    sv: int | None
    inv: int | None
    weapons: tuple[Mount, ...]
    rules: frozenset[str]
    mastery: int = 0
    size: int = 1
    av: tuple[int, int, int] | None = None
    hp: int = 0
    vehicle_types: frozenset[str] = frozenset()
    capacity: int = 0

    @property
    def is_vehicle(self) -> bool:
        return self.unit_type is UnitType.VEHICLE

    @property
    def is_walker(self) -> bool:
        return "walker" in self.vehicle_types

    @property
    def is_flyer(self) -> bool:
        return "flyer" in self.vehicle_types

    @property
    def blocks_sight(self) -> bool:
        """Vehicles and monstrous creatures block line of sight (§11.3)."""
        return self.is_vehicle or self.unit_type in (
            UnitType.MONSTROUS_CREATURE,
            UnitType.FLYING_MC,
        )

    def move_class(self, packs: bool = True) -> str:
        """The row of the movement table (§6.2); jump and jet packs only when used."""
        ut = self.unit_type
        if ut is UnitType.VEHICLE:
            for kind in ("flyer", "walker", "skimmer"):
                if kind in self.vehicle_types:
                    return kind
            return "vehicle"
        if ut in (UnitType.JUMP, UnitType.JET_PACK) and not packs:
            return "infantry"
        return str(ut.value)

    def run_class(self) -> str:
        """The row of the shooting-phase move table (§6.9)."""
        if self.unit_type is not UnitType.VEHICLE:
            return str(self.unit_type.value)
        vt = self.vehicle_types
        if "walker" in vt:
            return "walker"
        if "flyer" in vt:
            return "flyer"
        if "heavy" in vt:
            return "heavy"
        if "fast" in vt:
            return "fast_skimmer" if "skimmer" in vt else "fast"
        return "vehicle"

    def fire_class(self) -> str:
        """The row of the vehicle weapons-by-speed table (§6.8.5)."""
        vt = self.vehicle_types
        for kind in ("walker", "flyer", "heavy", "fast"):
            if kind in vt:
                return kind
        return "vehicle"

    def lines(self) -> tuple[tuple[str, str], ...]:
        """Characteristics for the model panel."""
        if self.is_vehicle and self.av is not None:
            out = [("BS", str(self.bs)), ("AV", "/".join(map(str, self.av))), ("HP", str(self.hp))]
            if self.is_walker:
                out += [("WS", str(self.ws)), ("S", str(self.s)), ("I", str(self.i))]
                out += [("A", str(self.a))]
            return tuple(out)
        save = "-" if self.sv is None else f"{self.sv}+"
        out = [
            (k, str(v))
            for k, v in zip(["WS", "BS", "S", "T", "W", "I", "A", "Ld"], self._stats(), strict=True)
        ]
        out.append(("Sv", save))
        if self.inv:
            out.append(("Inv", f"{self.inv}++"))
        return tuple(out)

    def _stats(self) -> tuple[int, ...]:
        return (self.ws, self.bs, self.s, self.t, self.w, self.i, self.a, self.ld)


@dataclass(frozen=True, slots=True)
class UnitEntry:
    """A unit of the catalogue (§3.3): its models by profile and count."""

    id: str
    name: str
    slot: str
    models: tuple[tuple[Profile, int], ...]
    points: int


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Weapons, profiles and unit entries available to scenarios."""

    weapons: Mapping[str, Weapon]
    profiles: Mapping[str, Profile]
    units: Mapping[str, UnitEntry]
