"""Parsing weapons, profiles and unit entries from plain data (digest wh40k6 §3, §12).

The default catalogue (`catalogue.CATALOGUE`) and a scenario's own ``[wh40k6.weapons]``,
``[wh40k6.profiles]`` and ``[wh40k6.units]`` tables share one format and one parser, so
a scenario can add or replace entries; every error names the source and the key.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ScenarioError
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.profiles import (
    MODEL_RULES,
    MOUNTS,
    SLOTS,
    VEHICLE_TYPES,
    WEAPON_RULES,
    Catalogue,
    Mount,
    Profile,
    UnitEntry,
    UnitType,
    Weapon,
)


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
