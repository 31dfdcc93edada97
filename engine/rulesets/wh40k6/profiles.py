"""Weapons, model profiles and unit entries, parsed from plain data (digest wh40k6 §3, §12).

The default catalogue (`catalogue.CATALOGUE`) and a scenario's own ``[wh40k6.weapons]``,
``[wh40k6.profiles]`` and ``[wh40k6.units]`` tables share one format and one parser, so
a scenario can add or replace entries; every error names the source and the key.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import ScenarioError
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
        return f"{self.name}: {rng} S{s} AP{ap} {self.type_label()}{extra}"

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


class _Reader:
    """Typed access to a table, with errors that name the source and the key."""

    def __init__(self, data: Any, source: str, key: str) -> None:
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{source}: key '{key}' must be a table")
        self.data, self.source, self.key = data, source, key

    def error(self, field: str, why: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: key '{self.key}.{field}' {why}")

    def integer(self, field: str, low: int, high: int, default: int | None = None) -> int:
        value = self.data.get(field, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.error(field, f"must be an integer {low}..{high}")
        return int(value)

    def save(self, field: str) -> int | None:
        value = self.data.get(field)
        if value is None or value == "-":
            return None
        if isinstance(value, str) and value.rstrip("+").isdigit():
            value = int(value.rstrip("+"))
        if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 6:
            raise self.error(field, 'must be a save 2..6 (or "3+", or "-" for none)')
        return value

    def string(self, field: str, default: str | None = None) -> str:
        value = self.data.get(field, default)
        if not isinstance(value, str) or not value:
            raise self.error(field, "must be a non-empty string")
        return str(value)

    def names(self, field: str, allowed: frozenset[str]) -> frozenset[str]:
        value = self.data.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(field, "must be a list of names")
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.error(field, f"has unknown names {unknown} (use: {sorted(allowed)})")
        return frozenset(value)


def parse_weapon(wid: str, raw: Any, source: str) -> Weapon:
    """One weapon entry: name, range, strength, ap, type, rules (§3.5, §12.1)."""
    r = _Reader(raw, source, f"weapons.{wid}")
    kind, shots, salvo = _weapon_type(r)
    rng = 0 if kind in (t.MELEE, t.GRENADE) else r.integer("range", 1, 120)
    strength, mode = _strength(r)
    ap_raw = r.data.get("ap")
    if ap_raw in (None, "-"):
        ap = None
    elif isinstance(ap_raw, int) and not isinstance(ap_raw, bool) and 1 <= ap_raw <= 6:
        ap = ap_raw
    else:
        raise r.error("ap", 'must be 1..6 or "-"')
    return Weapon(
        wid,
        r.string("name"),
        rng,
        strength,
        mode,
        ap,
        kind,
        shots,
        salvo,
        r.names("rules", WEAPON_RULES),
    )


def _weapon_type(r: _Reader) -> tuple[str, int, tuple[int, int] | None]:
    words = r.string("type").split()
    kind = " ".join(w for w in words if not w[0].isdigit())
    numbers = [w for w in words if w[0].isdigit()]
    valid = (*t.WEAPON_TYPES, t.MELEE, t.GRENADE)
    if kind not in valid:
        raise r.error("type", f"must be one of {list(valid)} with its shots ('Heavy 3')")
    if kind == t.SALVO:
        parts = numbers[0].split("/") if numbers else []
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise r.error("type", "must give Salvo shots as 'Salvo 2/4'")
        low, high = int(parts[0]), int(parts[1])
        return kind, high, (low, high)
    if kind in (t.RAPID_FIRE, t.MELEE, t.GRENADE):
        return kind, 1, None
    if len(numbers) != 1 or not numbers[0].isdigit():
        raise r.error("type", f"must give the shots, e.g. '{kind} 2'")
    return kind, int(numbers[0]), None


def _strength(r: _Reader) -> tuple[int, str]:
    raw = r.data.get("strength")
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 10:
        return raw, "fixed"
    if raw == "User":
        return 0, "user"
    if raw in ("User×2", "Userx2"):
        return 0, "times"
    if isinstance(raw, str) and raw.startswith("User+") and raw[5:].isdigit():
        return int(raw[5:]), "plus"
    if raw is None:
        return 0, "user"
    raise r.error("strength", 'must be 1..10, "User", "User+N" or "User×2"')


def parse_profile(pid: str, raw: Any, weapons: Mapping[str, Weapon], source: str) -> Profile:
    """One model or vehicle profile (§3.1, §3.2)."""
    r = _Reader(raw, source, f"profiles.{pid}")
    try:
        unit_type = UnitType(r.string("type"))
    except ValueError:
        raise r.error("type", f"must be one of {[u.value for u in UnitType]}") from None
    mounts = _mounts(r, weapons)
    vehicle = unit_type is UnitType.VEHICLE
    vtypes = r.names("vehicle_types", VEHICLE_TYPES) if vehicle else frozenset()
    av = None
    if vehicle:
        av = (
            r.integer("av_front", 9, 14),
            r.integer("av_side", 9, 14),
            r.integer("av_rear", 9, 14),
        )
    walker = "walker" in vtypes
    melee_stats = not vehicle or walker
    return Profile(
        pid,
        r.string("name"),
        r.string("glyph", pid[0].upper())[0],
        unit_type,
        ws=r.integer("ws", 1, 10) if melee_stats else 0,
        bs=r.integer("bs", 0, 10),
        s=r.integer("s", 1, 10) if melee_stats else 0,
        t=0 if vehicle else r.integer("t", 1, 10),
        w=1 if vehicle else r.integer("w", 1, 10),
        i=r.integer("i", 1, 10) if melee_stats else 0,
        a=r.integer("a", 0, 10) if melee_stats else 0,
        ld=10 if vehicle else r.integer("ld", 2, 10),
        sv=None if vehicle else r.save("sv"),
        inv=r.save("inv"),
        weapons=mounts,
        rules=r.names("rules", MODEL_RULES),
        mastery=r.integer("mastery", 0, 2, 0),
        size=r.integer("size", 1, 4, 1),
        av=av,
        hp=r.integer("hp", 1, 6) if vehicle else 0,
        vehicle_types=vtypes,
        capacity=r.integer("capacity", 0, 30, 0) if vehicle else 0,
    )


def _mounts(r: _Reader, weapons: Mapping[str, Weapon]) -> tuple[Mount, ...]:
    raw = r.data.get("weapons", [])
    if not isinstance(raw, list):
        raise r.error("weapons", "must be a list of weapon ids or {weapon, mount} tables")
    out: list[Mount] = []
    for n, item in enumerate(raw):
        wid, mount = (item, "hull") if isinstance(item, str) else (None, None)
        if isinstance(item, Mapping):
            wid, mount = item.get("weapon"), item.get("mount", "hull")
        if wid not in weapons:
            raise r.error(f"weapons[{n}]", f"names an unknown weapon {wid!r}")
        if mount not in MOUNTS:
            raise r.error(f"weapons[{n}].mount", f"must be one of {list(MOUNTS)}")
        out.append(Mount(weapons[str(wid)], str(mount)))
    return tuple(out)


def parse_unit(uid: str, raw: Any, profiles: Mapping[str, Profile], source: str) -> UnitEntry:
    """One unit entry: name, slot, points and models as [{profile, count}] (§3.3)."""
    r = _Reader(raw, source, f"units.{uid}")
    slot = r.string("slot")
    if slot not in SLOTS:
        raise r.error("slot", f"must be one of {list(SLOTS)}")
    models_raw = r.data.get("models")
    if not isinstance(models_raw, list) or not models_raw:
        raise r.error("models", "must list the models as [{ profile = ..., count = ... }]")
    models: list[tuple[Profile, int]] = []
    for n, item in enumerate(models_raw):
        m = _Reader(item, source, f"units.{uid}.models[{n}]")
        pid = m.string("profile")
        if pid not in profiles:
            raise m.error("profile", f"names an unknown profile {pid!r}")
        models.append((profiles[pid], m.integer("count", 1, 30, 1)))
    return UnitEntry(uid, r.string("name"), slot, tuple(models), r.integer("points", 0, 5000, 0))


def parse_catalogue(
    raw: Mapping[str, Any], source: str, base: Catalogue | None = None
) -> Catalogue:
    """Weapons, then profiles, then units, each layered over ``base``."""
    weapons = dict(base.weapons) if base else {}
    for wid, spec in _table(raw, "weapons", source).items():
        weapons[wid] = parse_weapon(wid, spec, source)
    profiles = dict(base.profiles) if base else {}
    for pid, spec in _table(raw, "profiles", source).items():
        profiles[pid] = parse_profile(pid, spec, weapons, source)
    units = dict(base.units) if base else {}
    for uid, spec in _table(raw, "units", source).items():
        units[uid] = parse_unit(uid, spec, profiles, source)
    return Catalogue(weapons, profiles, units)


def _table(raw: Mapping[str, Any], key: str, source: str) -> Mapping[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{source}: key '{key}' must be a table of entries")
    return value
