"""Kill Team datasheets, weapons and psychic powers as typed data (digest killteam §3).

The FILL-IN forces of §12 live in ``factions.toml`` beside this module and are read once
by `load_factions`; a scenario may add datasheets and weapons of its own in the same
shape under ``[killteam.factions]``.
"""

from __future__ import annotations

import enum
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.errors import ScenarioError


class WeaponType(enum.Enum):
    """Weapon types of §6.5.10 and melee."""

    HEAVY = "Heavy"
    RAPID_FIRE = "Rapid Fire"
    ASSAULT = "Assault"
    GRENADE = "Grenade"
    PISTOL = "Pistol"
    MELEE = "Melee"


SPECIALISMS = (
    "Leader",
    "Combat",
    "Comms",
    "Demolitions",
    "Heavy",
    "Medic",
    "Scout",
    "Sniper",
    "Veteran",
    "Zealot",
)
"""The non-commander specialisms of §8.1."""

ABILITY_WORDS = {
    "auto_hit": "hits automatically",
    "overheat": "a hit roll of 1 takes the bearer out",
    "extra_attack": "+1 attack",
    "hit_penalty": "-1 to hit",
    "no_los": "needs no line of sight",
}
"""Each weapon ability as a card and an option show it (the keys are the catalogue's).
auto_hit: no hit roll. overheat: unmodified hit 1 takes the bearer out of action.
extra_attack: +1 attack when fighting with it (chain blade). hit_penalty: -1 to hit
(crusher claw). no_los: may target unseen models."""
WEAPON_ABILITIES = frozenset(ABILITY_WORDS)

_DICE = re.compile(r"^(\d*)D([36])([+-]\d+)?$")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A number that may be random: ``3``, ``D3``, ``D6``, ``2D6``, ``D6+1`` (§3.2)."""

    count: int
    """Number of dice (0 for a fixed value)."""
    sides: int
    """3 or 6."""
    bonus: int

    @classmethod
    def parse(cls, text: str | int) -> DiceExpr:
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(0, 6, text)
        if not isinstance(text, str):
            raise ValueError(f"not a dice expression: {text!r}")
        text = text.strip().upper()
        if text.isdigit():
            return cls(0, 6, int(text))
        match = _DICE.match(text)
        if not match:
            raise ValueError(f"not a dice expression: {text!r}")
        count = int(match.group(1) or 1)
        return cls(count, int(match.group(2)), int(match.group(3) or 0))

    @property
    def is_random(self) -> bool:
        return self.count > 0

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus

    def __str__(self) -> str:
        if not self.count:
            return str(self.bonus)
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        return dice + (f"{self.bonus:+d}" if self.bonus else "")


@dataclass(frozen=True, slots=True)
class Strength:
    """Weapon strength: a fixed value, or relative to the bearer ("User", "+1", "x2")."""

    value: int
    mode: str
    """"fixed", "user", "plus" or "times"."""

    @classmethod
    def parse(cls, raw: str | int) -> Strength:
        if isinstance(raw, int) and not isinstance(raw, bool):
            return cls(raw, "fixed")
        text = str(raw).strip().lower()
        if text == "user":
            return cls(0, "user")
        if text.startswith("+") and text[1:].isdigit():
            return cls(int(text[1:]), "plus")
        if text[:1] in ("x", "×") and text[1:].isdigit():
            return cls(int(text[1:]), "times")
        if text.isdigit():
            return cls(int(text), "fixed")
        raise ValueError(f"not a strength: {raw!r}")

    def resolve(self, user: int) -> int:
        """The strength for a bearer of strength ``user`` (digest example S2)."""
        if self.mode == "user":
            return user
        if self.mode == "plus":
            return user + self.value
        if self.mode == "times":
            return user * self.value
        return self.value

    def __str__(self) -> str:
        return {"user": "User", "plus": f"+{self.value}", "times": f"x{self.value}"}.get(
            self.mode, str(self.value)
        )


@dataclass(frozen=True, slots=True)
class WeaponProfile:
    """One firing/fighting mode of a weapon."""

    weapon: str
    """Id of the weapon it belongs to."""
    name: str
    range: int
    """Inches; 0 for melee."""
    type: WeaponType
    shots: DiceExpr
    strength: Strength
    ap: int
    damage: DiceExpr
    abilities: frozenset[str]

    @property
    def is_melee(self) -> bool:
        return self.type is WeaponType.MELEE

    def describe(self) -> str:
        return f"{self.name}: {self.characteristics()}"

    def characteristics(self) -> str:
        """The profile without its name ("Melee S User AP 0 Dmg 1 [+1 attack]"), where the
        name is already shown beside it."""
        head = "Melee" if self.is_melee else f'{self.range}" {self.type.value} {self.shots}'
        words = sorted(ABILITY_WORDS[a] for a in self.abilities)  # read as words: no ids
        extra = f" [{', '.join(words)}]" if words else ""
        # Spaced and named so no value glues to its label ("SUser", "DD3").
        return f"{head} S {self.strength} AP {self.ap} Dmg {self.damage}{extra}"


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon with one or more profiles (plasma: standard / overcharge)."""

    id: str
    name: str
    points: int
    profiles: tuple[WeaponProfile, ...]

    @property
    def is_melee(self) -> bool:
        return self.profiles[0].is_melee

    @property
    def type(self) -> WeaponType:
        return self.profiles[0].type


IMPROVISED = Weapon(
    "improvised",
    "Improvised attack",
    0,
    (
        WeaponProfile(
            "improvised",
            "Improvised attack",
            0,
            WeaponType.MELEE,
            DiceExpr(0, 6, 1),
            Strength(0, "user"),
            0,
            DiceExpr(0, 6, 1),
            frozenset(),
        ),
    ),
)
"""Every model may fight with it: S User, AP 0, D 1 (§6.6.2 step 4)."""


@dataclass(frozen=True, slots=True)
class WargearOption:
    """Swap ``replace`` for ``with_`` at ``points`` extra."""

    replace: tuple[str, ...]
    with_: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Power:
    """A psychic power (§6.4, §12)."""

    id: str
    name: str
    difficulty: int
    text: str


POWERS: Mapping[str, Power] = {
    "psybolt": Power(
        "psybolt",
        "Psybolt",
        5,
        'Closest visible enemy within 18" suffers 1 mortal wound (D3 on a test of 11+).',
    ),
    "ward": Power(
        "ward",
        "Ward",
        6,
        'A friendly model within 12" and visible gains a 5++ save until the end of the round.',
    ),
    "fury": Power(
        "fury",
        "Fury",
        6,
        'A friendly model within 12" and visible gains +1 S and +1 A until the end of the round.',
    ),
}


@dataclass(frozen=True, slots=True)
class Datasheet:
    """A model type's profile card (§3.1)."""

    id: str
    name: str
    faction: str
    glyph: str
    M: int
    WS: int
    BS: int
    S: int
    T: int
    W: int
    A: int
    Ld: int
    Sv: int
    invuln: int | None
    max: int
    points: int
    wargear: tuple[str, ...]
    options: tuple[WargearOption, ...]
    specialisms: tuple[str, ...]
    keywords: frozenset[str]
    casts: int = 0
    denies: int = 0
    powers: tuple[str, ...] = ()

    @property
    def is_psyker(self) -> bool:
        return "PSYKER" in self.keywords


@dataclass(frozen=True, slots=True)
class Faction:
    """A force: its datasheets and the weapons they carry."""

    id: str
    name: str
    datasheets: Mapping[str, Datasheet]
    weapons: Mapping[str, Weapon]


def _plus(value: int) -> str:
    return "-" if value >= 7 else f"{value}+"


def profile_lines(sheet: Datasheet) -> tuple[tuple[str, str], ...]:
    """(label, value) pairs of a datasheet, as the model panel shows them."""
    rows = [
        ("M", f'{sheet.M}"'),
        ("WS", _plus(sheet.WS)),
        ("BS", _plus(sheet.BS)),
        ("S", str(sheet.S)),
        ("T", str(sheet.T)),
        ("W", str(sheet.W)),
        ("A", str(sheet.A)),
        ("Ld", str(sheet.Ld)),
        ("Sv", _plus(sheet.Sv)),
    ]
    if sheet.invuln:
        rows.append(("Inv", f"{sheet.invuln}++"))
    return tuple(rows)


def parse_factions(raw: Mapping[str, Any], source: str) -> dict[str, Faction]:
    """Read faction tables (the shape of factions.toml); errors name source and key."""
    factions: dict[str, Faction] = {}
    for fid, fraw in raw.items():
        key = f"factions.{fid}"
        if not isinstance(fraw, dict):
            raise ScenarioError(f"{source}: key '{key}' must be a table")
        weapons = {
            wid: _weapon(wid, w, source, f"{key}.weapons.{wid}")
            for wid, w in _table(fraw, "weapons", source, key).items()
        }
        sheets = {
            sid: _sheet(sid, fid, s, weapons, source, f"{key}.datasheets.{sid}")
            for sid, s in _table(fraw, "datasheets", source, key).items()
        }
        factions[fid] = Faction(fid, str(fraw.get("name", fid)), sheets, weapons)
    return factions


def _table(raw: Mapping[str, Any], name: str, source: str, key: str) -> dict[str, Any]:
    value = raw.get(name)
    if not isinstance(value, dict) or not value:
        raise ScenarioError(f"{source}: key '{key}.{name}' must be a non-empty table")
    return value


def _weapon(wid: str, raw: Any, source: str, key: str) -> Weapon:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{source}: key '{key}' must be a table")
    modes = raw.get("profiles", [raw])
    if not isinstance(modes, list) or not modes:
        raise ScenarioError(f"{source}: key '{key}.profiles' must be a list of tables")
    name = str(raw.get("name", wid))
    profiles = []
    for i, mode in enumerate(modes):
        where = key if modes == [raw] else f"{key}.profiles[{i}]"
        try:
            wtype = WeaponType(mode.get("type", "Melee"))
            abilities = frozenset(mode.get("abilities", []))
            unknown = abilities - WEAPON_ABILITIES
            if unknown:
                raise ValueError(f"unknown abilities {sorted(unknown)}")
            profiles.append(
                WeaponProfile(
                    wid,
                    str(mode.get("name", name)),
                    int(mode.get("range", 0)),
                    wtype,
                    DiceExpr.parse(mode.get("shots", 1)),
                    Strength.parse(mode.get("S", "User")),
                    int(mode.get("AP", 0)),
                    DiceExpr.parse(mode.get("D", 1)),
                    abilities,
                )
            )
        except (ValueError, TypeError, AttributeError) as exc:
            raise ScenarioError(f"{source}: key '{where}': {exc}") from None
    return Weapon(wid, name, int(raw.get("points", 0)), tuple(profiles))


_STATS = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "max", "points")


def _sheet(
    sid: str, fid: str, raw: Any, weapons: Mapping[str, Weapon], source: str, key: str
) -> Datasheet:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{source}: key '{key}' must be a table")
    for stat in _STATS:
        value = raw.get(stat)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ScenarioError(f"{source}: key '{key}.{stat}' must be a whole number")
    gear = tuple(raw.get("wargear", []))
    options = tuple(
        WargearOption(tuple(o["replace"]), tuple(o["with"]), int(o.get("points", 0)))
        for o in raw.get("options", [])
    )
    for wid in gear + tuple(w for o in options for w in o.with_ + o.replace):
        if wid not in weapons:
            raise ScenarioError(f"{source}: key '{key}': unknown weapon {wid!r}")
    specialisms = tuple(raw.get("specialisms", []))
    for spec in specialisms:
        if spec not in SPECIALISMS:
            raise ScenarioError(f"{source}: key '{key}.specialisms': unknown {spec!r}")
    powers = tuple(raw.get("powers", []))
    for power in powers:
        if power not in POWERS:
            raise ScenarioError(f"{source}: key '{key}.powers': unknown power {power!r}")
    invuln = raw.get("invuln")
    if invuln is not None and (not isinstance(invuln, int) or not 2 <= invuln <= 6):
        raise ScenarioError(f"{source}: key '{key}.invuln' must be 2..6 (a X++ save)")
    return Datasheet(
        sid,
        str(raw.get("name", sid)),
        fid,
        str(raw.get("glyph", sid[:1])).strip()[:1] or "?",
        M=raw["M"],
        WS=raw["WS"],
        BS=raw["BS"],
        S=raw["S"],
        T=raw["T"],
        W=raw["W"],
        A=raw["A"],
        Ld=raw["Ld"],
        Sv=raw["Sv"],
        invuln=invuln,
        max=int(raw["max"]),
        points=int(raw["points"]),
        wargear=gear,
        options=options,
        specialisms=specialisms,
        keywords=frozenset(raw.get("keywords", [])),
        casts=int(raw.get("casts", 0)),
        denies=int(raw.get("denies", 0)),
        powers=powers,
    )


@cache
def load_factions() -> dict[str, Faction]:
    """The FILL-IN factions shipped with the ruleset (§12.1, §12.2)."""
    path = Path(__file__).with_name("factions.toml")
    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    return parse_factions(raw["factions"], str(path))
