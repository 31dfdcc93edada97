"""Reference-card profiles, ranged weapons and army-point balancing (digest confrontation §3, §4.1).

Profiles are data: the FILL-IN forces of §12 live in the scenario file under
``[[confrontation.profiles]]``. Centimetres are read as ints or decimal strings ("12.5")
into `Fraction`s and converted once to grid cells (§11), so no float ever enters the
rules.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from engine.errors import ScenarioError
from engine.wording import counted

CELL_CM = Fraction(5, 2)
"""One grid cell is 2.5 cm (§11)."""


class Size(enum.IntEnum):
    """Size categories, ordered for STR disengagement (§3.4, A38)."""

    SMALL = 0
    """Goblins and dwarves on an infantry base."""
    MEDIUM = 1
    """Every other fighter on an infantry base."""
    LARGE = 2
    """Cavalry and creature bases."""
    HUGE = 3
    """Titanic, colossal and gigantic fighters."""


EQUIPMENT_AP: dict[str, int] = {
    "sacred_weapon": 10,
    "sacred_armour": 10,
    "sword_axe": 4,
    "dorsal_blades": 5,
    "steam": 5,
}
"""AP subtracted per unused equipment item (§4.1 table; dorsal blades per extra attack,
steam equipment per element)."""


@cache
def cells(cm: Fraction) -> int:
    """Grid cells for a length in cm: floor(cm / 2.5 + 1/2) (§11, Conversion). Kept per
    length: a few profile lengths are converted thousands of times a game."""
    return int(cm / CELL_CM + Fraction(1, 2))


def show_cm(cm: Fraction) -> str:
    """A length for display: "10", "12.5" (exact: cm values have at most two decimals)."""
    hundredths = cm * 100
    if hundredths.denominator != 1:
        return str(cm)
    whole, part = divmod(int(hundredths), 100)
    return str(whole) if not part else f"{whole}.{part:02d}".rstrip("0")


def show_length(cm: Fraction, grid: int) -> str:
    """A length as every Confrontation text gives it: centimetres, the rules' unit, with
    its grid cells in brackets (§11, §12.2: "MOV and ranges are in cm, with cells in
    brackets"): "10 cm (4 cells)". Cards, prompts, the log and the status line all say a
    length this way (they said 17", 16 cells and cm for one distance)."""
    return f"{show_cm(cm)} cm ({counted(grid, 'cell')})"


def show_cells(grid: int) -> str:
    """A distance measured on the grid, as `show_length` says it: "40 cm (16 cells)"."""
    return show_length(grid * CELL_CM, grid)


def effective_ap(
    printed: int,
    *,
    hero: bool,
    skills: int = 0,
    special_cards_without_cost: int = 0,
    equipment: tuple[tuple[str, int], ...] = (),
) -> int:
    """The balanced cost of a fighter (§4.1 step 4; examples E3, E4, X17)."""
    skill_cost = 6 if hero else 3
    removed = sum(EQUIPMENT_AP[kind] * count for kind, count in equipment)
    return printed - skill_cost * skills - 4 * special_cards_without_cost - removed


@dataclass(frozen=True, slots=True)
class RangedWeapon:
    """A ranged weapon: damage STR and three range bands (§3.2)."""

    name: str
    strength: int
    ranges_cm: tuple[Fraction, Fraction, Fraction]
    """Upper bounds of short, medium and long range in cm."""

    @property
    def ranges(self) -> tuple[int, int, int]:
        """The bands in grid cells (§11: bow 20-40-60 cm -> 8-16-24)."""
        s, m, long_ = self.ranges_cm
        return cells(s), cells(m), cells(long_)

    def describe(self) -> str:
        s, m, long_ = (show_cm(v) for v in self.ranges_cm)
        cs, cm, cl = self.ranges
        return f"{self.name}: STR {self.strength}, {s}-{m}-{long_} cm ({cs}-{cm}-{cl} cells)"


@dataclass(frozen=True, slots=True)
class Profile:
    """One reference card's characteristics (§3.1). FEA/COU are stored but unused."""

    id: str
    name: str
    glyph: str
    is_hero: bool
    mov_cm: Fraction
    ini: int
    att: int
    strength: int
    """STR: melee damage strength."""
    def_: int
    res: int
    aim: int | None
    """None is "-": the fighter cannot shoot."""
    dis: int
    size: Size
    ap_printed: int
    skills: int = 0
    special_cards_without_cost: int = 0
    removed_equipment: tuple[tuple[str, int], ...] = ()
    weapon: RangedWeapon | None = None
    rank: str = ""
    fea: int | None = None
    cou: int | None = None

    @property
    def mov(self) -> int:
        """MOV in grid cells (§11)."""
        return cells(self.mov_cm)

    @property
    def ap(self) -> int:
        """Effective cost after balancing (§4.1)."""
        return effective_ap(
            self.ap_printed,
            hero=self.is_hero,
            skills=self.skills,
            special_cards_without_cost=self.special_cards_without_cost,
            equipment=self.removed_equipment,
        )

    @property
    def can_shoot(self) -> bool:
        """Has AIM and a ranged weapon (§6.10 preconditions)."""
        return self.aim is not None and self.weapon is not None


def profile_lines(p: Profile) -> tuple[tuple[str, str], ...]:
    """The reference card as (label, value) pairs for the model panel."""
    return (
        ("MOV", show_length(p.mov_cm, p.mov)),
        ("INI", str(p.ini)),
        ("ATT", str(p.att)),
        ("STR", str(p.strength)),
        ("DEF", str(p.def_)),
        ("RES", str(p.res)),
        ("AIM", "-" if p.aim is None else str(p.aim)),
        ("DIS", str(p.dis)),
        ("Size", p.size.name.title()),
        ("AP", str(p.ap)),
        ("Hero", "yes" if p.is_hero else "no"),
    )


# -- parsing ------------------------------------------------------------------------------


def parse_cm(value: Any, where: str) -> Fraction:
    """A length in cm from an int or a decimal string (TOML floats are refused: no floats)."""
    if isinstance(value, int) and not isinstance(value, bool):
        result = Fraction(value)
    elif isinstance(value, str):
        try:
            result = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ScenarioError(f'{where} must be a length in cm like 10 or "12.5"') from None
    else:
        raise ScenarioError(f'{where} must be an integer or a string like "12.5" (cm)')
    if result <= 0:
        raise ScenarioError(f"{where} must be a positive length")
    return result


def _int(spec: dict[str, Any], key: str, where: str, low: int = 0, high: int = 99) -> int:
    value = spec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ScenarioError(f"{where}.{key} must be an integer {low}..{high}")
    return value


def _opt_int(spec: dict[str, Any], key: str, where: str) -> int | None:
    if spec.get(key) in (None, "-"):
        return None
    return _int(spec, key, where)


def _weapon(raw: Any, where: str) -> RangedWeapon | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where} must be a table {{ name, str, ranges = [S, M, L] }}")
    name = raw.get("name")
    ranges = raw.get("ranges")
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"{where}.name must be a non-empty string")
    if not isinstance(ranges, list) or len(ranges) != 3:
        raise ScenarioError(f"{where}.ranges must list short, medium and long range in cm")
    s, m, long_ = (parse_cm(v, f"{where}.ranges[{i}]") for i, v in enumerate(ranges))
    if not s < m < long_:
        raise ScenarioError(f"{where}.ranges must grow: short < medium < long")
    return RangedWeapon(name, _int(raw, "str", where), (s, m, long_))


def parse_profile(spec: Any, where: str) -> Profile:
    """One ``[[confrontation.profiles]]`` entry, validated (§3.1)."""
    if not isinstance(spec, dict):
        raise ScenarioError(f"{where} must be a table")
    pid, name, glyph = spec.get("id"), spec.get("name"), spec.get("glyph", "")
    if not isinstance(pid, str) or not pid or not isinstance(name, str) or not name:
        raise ScenarioError(f"{where} needs a string id and name")
    if not isinstance(glyph, str) or len(glyph) != 1:
        raise ScenarioError(f"{where}.glyph must be one character")
    size_name = spec.get("size", "medium")
    try:
        size = Size[str(size_name).upper()]
    except KeyError:
        raise ScenarioError(f"{where}.size must be small, medium, large or huge") from None
    if spec.get("base", "infantry") != "infantry":
        # §11 gives Large and Huge bases 2x2 and 3x3 footprints; the §12 forces use none.
        raise ScenarioError(f"{where}.base: only 'infantry' (1x1) bases are supported")
    equipment = spec.get("removed_equipment", {})
    if not isinstance(equipment, dict) or any(
        k not in EQUIPMENT_AP or not isinstance(v, int) for k, v in equipment.items()
    ):
        raise ScenarioError(
            f"{where}.removed_equipment must map items ({', '.join(EQUIPMENT_AP)}) to counts"
        )
    return Profile(
        pid,
        name,
        glyph,
        bool(spec.get("hero", False)),
        parse_cm(spec.get("mov"), f"{where}.mov"),
        _int(spec, "ini", where),
        _int(spec, "att", where),
        _int(spec, "str", where),
        _int(spec, "def", where),
        _int(spec, "res", where),
        _opt_int(spec, "aim", where),
        _int(spec, "dis", where),
        size,
        _int(spec, "ap", where, 0, 9999),
        _int(spec, "skills", where) if "skills" in spec else 0,
        _int(spec, "special_cards_without_cost", where)
        if "special_cards_without_cost" in spec
        else 0,
        tuple(sorted(equipment.items())),
        _weapon(spec.get("weapon"), f"{where}.weapon"),
        str(spec.get("rank", "")),
        _opt_int(spec, "fea", where),
        _opt_int(spec, "cou", where),
    )
