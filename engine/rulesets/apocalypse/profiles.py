"""Datasheets and weapon profiles (digest apocalypse §3.1-§3.2, §8.1, §8.5, §12.1-§12.2).

The catalogue ships as ``datasheets.toml`` beside this module (the §12 FILL-IN units); a
scenario may add or replace datasheets in ``[apocalypse.datasheets]`` with the same
layout. Everything is validated here with errors naming the file and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import ScenarioError
from engine.scenario import KeySpec

CATEGORIES = ("LIGHT", "HEAVY", "SUPER_HEAVY")
"""Exactly one per unit; chooses SAP or SAT (§3.1)."""
WEAPON_TYPES = ("SMALL_ARMS", "HEAVY", "MELEE")
KEYWORDS = (
    "INFANTRY",
    "VEHICLE",
    "MONSTER",
    "CHARACTER",
    "TRANSPORT",
    "FLY",
    "AIRCRAFT",
    "TITANIC",
    "BUILDING",
)
ABILITIES = ("rally", "bellow", "drop_assault")
"""Datasheet abilities of §8.7."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon line of a datasheet (§3.2): attacks belong to the whole unit."""

    name: str
    range: int | None
    """Inches; None for a melee weapon (base contact)."""
    type: str
    attacks: int
    sap: int | None
    """Wound target against LIGHT units; None = "-" (cannot wound them)."""
    sat: int | None
    """Wound target against HEAVY and SUPER_HEAVY units; None = "-"."""

    @property
    def is_melee(self) -> bool:
        return self.range is None

    def describe(self) -> str:
        """One line for the unit panel."""
        rng = "Melee" if self.range is None else f'{self.range}"'
        sap = "-" if self.sap is None else f"{self.sap}+"
        sat = "-" if self.sat is None else f"{self.sat}+"
        kind = "" if self.is_melee else " " + self.type.replace("_", " ").title()
        return f"{self.name} {rng}{kind} A{self.attacks} SAP {sap} SAT {sat}"


@dataclass(frozen=True, slots=True)
class Datasheet:
    """A unit's static profile (§3.1)."""

    id: str
    name: str
    faction: str
    category: str
    keywords: frozenset[str]
    move: int
    ws: int
    bs: int
    wounds: int
    leadership: int
    save: int
    weapons: tuple[Weapon, ...]
    points: int
    footprint: int
    glyph: str
    abilities: tuple[str, ...] = ()
    min_move: int | None = None
    """AIRCRAFT only: a Move action must cover at least this much (§6.6 step 5)."""
    capacity: int = 0
    """TRANSPORT: how many units it carries."""
    allowed: frozenset[str] = frozenset()
    """TRANSPORT: keywords (faction included) a passenger must all have."""
    reserve: str = "EDGE"
    """How it arrives from Reserve: EDGE or DEEP (§6.3.2)."""

    def has(self, keyword: str) -> bool:
        """True for a keyword, the category or the faction."""
        return keyword in self.keywords or keyword in (self.category, self.faction)

    @property
    def is_super_heavy(self) -> bool:
        return self.category == "SUPER_HEAVY"

    @property
    def ranged(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if not w.is_melee)

    @property
    def melee(self) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.is_melee)


DATASHEET_KEYS: KeySpec = {
    "*": {
        **dict.fromkeys(("name", "faction", "category", "keywords", "abilities", "glyph")),
        **dict.fromkeys(("points", "footprint", "min_move", "reserve")),
        "profile": dict.fromkeys(("M", "WS", "BS", "W", "Ld", "Sv")),
        "transport": dict.fromkeys(("capacity", "allowed")),
        "weapons": dict.fromkeys(("name", "range", "type", "A", "SAP", "SAT")),
    }
}
"""The keys of a table of datasheets by id (datasheets.toml, or a scenario's or position's
[apocalypse.datasheets]): a misspelt one would silently take its default."""


def load_catalogue() -> dict[str, Datasheet]:
    """The shipped datasheets of §12, in a dict of the caller's own (a scenario adds its
    datasheets to it)."""
    return dict(_shipped())


@cache
def _shipped() -> dict[str, Datasheet]:
    """The shipped datasheets, read and checked once per process (every new game asked
    for them: 2.5% of a bot game). Datasheets are frozen, so games may share them."""
    text = resources.files(__package__).joinpath("datasheets.toml").read_text(encoding="utf-8")
    return parse_datasheets(tomllib.loads(text), "datasheets.toml", "")


def parse_datasheets(raw: Any, source: str, prefix: str) -> dict[str, Datasheet]:
    """Validate a table of datasheets keyed by id."""
    if not isinstance(raw, dict):
        raise ScenarioError(f"{source}: key '{prefix or 'datasheets'}' must be a table")
    return {sid: _sheet(sid, spec, source, f"{prefix}{sid}") for sid, spec in raw.items()}


def _sheet(sid: str, spec: Any, source: str, key: str) -> Datasheet:
    if not isinstance(spec, dict):
        raise ScenarioError(f"{source}: key '{key}' must be a table")
    get = _Getter(spec, source, key)
    category = get.choice("category", CATEGORIES)
    keywords = get.strings("keywords", required=False)
    for kw in keywords:
        if kw not in KEYWORDS:
            raise ScenarioError(f"{source}: key '{key}.keywords': unknown keyword {kw!r}")
    profile = _Getter(get.table("profile"), source, f"{key}.profile")
    transport = spec.get("transport")
    capacity, allowed = 0, frozenset[str]()
    if transport is not None:
        tget = _Getter(transport if isinstance(transport, dict) else {}, source, f"{key}.transport")
        capacity = tget.integer("capacity", 1, 20)
        allowed = frozenset(tget.strings("allowed", required=False))
    abilities = get.strings("abilities", required=False)
    for ability in abilities:
        if ability not in ABILITIES:
            raise ScenarioError(f"{source}: key '{key}.abilities': unknown ability {ability!r}")
    weapons = spec.get("weapons", [])
    if not isinstance(weapons, list):
        raise ScenarioError(f"{source}: key '{key}.weapons' must be a list of tables")
    glyph = get.string("glyph")
    min_move = spec.get("min_move")
    if min_move is not None and (not isinstance(min_move, int) or min_move < 1):
        raise ScenarioError(f"{source}: key '{key}.min_move' must be a positive integer")
    return Datasheet(
        id=sid,
        name=get.string("name"),
        faction=get.string("faction"),
        category=category,
        keywords=frozenset(keywords),
        move=profile.integer("M", 0, 30),
        ws=profile.integer("WS", 2, 6),
        bs=profile.integer("BS", 2, 6),
        wounds=profile.integer("W", 1, 12),
        leadership=profile.integer("Ld", 2, 12),
        save=profile.integer("Sv", 2, 13),
        weapons=tuple(_weapon(w, source, f"{key}.weapons[{i}]") for i, w in enumerate(weapons)),
        points=get.integer("points", 0, 10_000),
        footprint=get.integer("footprint", 1, 3),
        glyph=glyph[:1],
        abilities=tuple(abilities),
        min_move=min_move,
        capacity=capacity,
        allowed=allowed,
        reserve=get.choice("reserve", ("EDGE", "DEEP"), default="EDGE"),
    )


def _weapon(spec: Any, source: str, key: str) -> Weapon:
    if not isinstance(spec, dict):
        raise ScenarioError(f"{source}: key '{key}' must be a table")
    get = _Getter(spec, source, key)
    rng = spec.get("range")
    if rng == "melee":
        reach: int | None = None
    elif isinstance(rng, int) and not isinstance(rng, bool) and 1 <= rng <= 200:
        reach = rng
    else:
        raise ScenarioError(f"{source}: key '{key}.range' must be inches (1..200) or \"melee\"")
    wtype = get.choice("type", WEAPON_TYPES)
    if (wtype == "MELEE") != (reach is None):
        raise ScenarioError(f"{source}: key '{key}.type': MELEE weapons have range \"melee\"")
    return Weapon(
        get.string("name"),
        reach,
        wtype,
        get.integer("A", 1, 100),
        get.optional_target("SAP"),
        get.optional_target("SAT"),
    )


class _Getter:
    """Typed access to one table's keys, with errors naming file and key."""

    def __init__(self, data: Mapping[str, Any], source: str, key: str) -> None:
        self.data, self.source, self.key = data, source, key

    def _fail(self, name: str, what: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: key '{self.key}.{name}' must be {what}")

    def string(self, name: str) -> str:
        value = self.data.get(name)
        if not isinstance(value, str) or not value.strip():
            raise self._fail(name, "a non-empty string")
        return value

    def integer(self, name: str, low: int, high: int) -> int:
        value = self.data.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self._fail(name, f"an integer from {low} to {high}")
        return value

    def optional_target(self, name: str) -> int | None:
        value = self.data.get(name)
        if value is None or value == "-":
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 12:
            raise self._fail(name, 'a D12 target from 2 to 12, or "-"')
        return value

    def choice(self, name: str, allowed: tuple[str, ...], default: str | None = None) -> str:
        value = self.data.get(name, default)
        if value not in allowed:
            raise self._fail(name, "one of " + ", ".join(allowed))
        return str(value)

    def strings(self, name: str, *, required: bool = True) -> list[str]:
        value = self.data.get(name, None if required else [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._fail(name, "a list of strings")
        return list(value)

    def table(self, name: str) -> dict[str, Any]:
        value = self.data.get(name)
        if not isinstance(value, dict):
            raise self._fail(name, "a table")
        return value


def profile_lines(sheet: Datasheet) -> tuple[tuple[str, str], ...]:
    """Characteristics as (label, value) pairs for the unit panel."""
    return (
        ("M", f'{sheet.move}"'),
        ("WS", f"{sheet.ws}+"),
        ("BS", f"{sheet.bs}+"),
        ("W", str(sheet.wounds)),
        ("Ld", str(sheet.leadership)),
        ("Sv", f"{sheet.save}+"),
        ("Type", sheet.category.replace("_", "-")),
    )
