"""Reading and checking the ``[fatigue]`` table of a scenario (digest fatigue §4.1, §12).

The forces are scenario data (§12 FILL-IN), so every mistake raises a `ScenarioError`
naming the file and the key. Must not import tui, textual, rich, another ruleset or the
registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ScenarioError
from engine.rulesets.fatigue.profiles import (
    ABILITIES,
    ForceSpec,
    ModelProfile,
    Modules,
    Psych,
    UnitSpec,
    Weapon,
)
from engine.rulesets.fatigue.tables import ROSTER_MODELS, ROSTER_POINTS, ROSTER_UNITS
from engine.wording import counted, says


class _Where:
    """A file and key prefix for error messages."""

    def __init__(self, source: str, key: str) -> None:
        self.source = source
        self.key = key

    def at(self, sub: str | int) -> _Where:
        part = f"[{sub}]" if isinstance(sub, int) else f".{sub}"
        return _Where(self.source, self.key + part)

    def fail(self, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: key '{self.key}' {problem}")

    def table(self, raw: Any) -> Mapping[str, Any]:
        if not isinstance(raw, dict):
            raise self.fail("must be a table")
        return raw

    def integer(
        self, raw: Mapping[str, Any], name: str, low: int, high: int, default: int | None = None
    ) -> int:
        value = raw.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.at(name).fail(f"must be an integer from {low} to {high}")
        return value

    def string(self, raw: Mapping[str, Any], name: str, default: str | None = None) -> str:
        value = raw.get(name, default)
        if not isinstance(value, str) or not value.strip():
            raise self.at(name).fail("must be a non-empty string")
        return value

    def flag(self, raw: Mapping[str, Any], name: str, default: bool) -> bool:
        value = raw.get(name, default)
        if not isinstance(value, bool):
            raise self.at(name).fail("must be true or false")
        return value

    def strings(self, raw: Mapping[str, Any], name: str) -> list[str]:
        value = raw.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.at(name).fail("must be a list of strings")
        return value


def parse_modules(raw: Any, source: str) -> Modules:
    """The optional-module switches (§12.4), all with the digest's defaults."""
    where = _Where(source, "fatigue.modules")
    table = where.table({} if raw is None else raw)
    unknown = set(table) - {
        "special_manoeuvres",
        "misfires",
        "lost_group_test",
        "elevation",
        "metric",
    }
    if unknown:
        raise where.at(sorted(unknown)[0]).fail("is not a module switch")
    metric = table.get("metric", "one_two_one")
    if metric not in ("one_two_one", "chebyshev"):
        raise where.at("metric").fail('must be "one_two_one" or "chebyshev"')
    return Modules(
        special_manoeuvres=where.flag(table, "special_manoeuvres", True),
        misfires=where.flag(table, "misfires", True),
        lost_group_test=where.flag(table, "lost_group_test", False),
        elevation=where.flag(table, "elevation", False),
        chebyshev=metric == "chebyshev",
    )


def parse_forces(raw: Any, source: str) -> tuple[ForceSpec, ...]:
    """Every force of ``[[fatigue.forces]]``, each checked against the roster rules."""
    where = _Where(source, "fatigue.forces")
    if not isinstance(raw, list) or len(raw) < 2:
        raise where.fail("must list at least two forces ([[fatigue.forces]])")
    forces = tuple(_force(item, where.at(i)) for i, item in enumerate(raw))
    names = [f.name for f in forces]
    if len(set(names)) != len(names):
        raise where.fail("must give every force a different name")
    return forces


def _force(raw: Any, where: _Where) -> ForceSpec:
    table = where.table(raw)
    units_raw = table.get("units")
    if not isinstance(units_raw, list) or not units_raw:
        raise where.at("units").fail("must list the force's units ([[...units]])")
    units = tuple(_unit(u, where.at("units").at(i)) for i, u in enumerate(units_raw))
    force = ForceSpec(where.string(table, "name"), where.string(table, "faction"), units)
    problems = roster_problems(
        force, where.integer(table, "points_limit", 1, 10_000, ROSTER_POINTS)
    )
    if problems:
        raise where.fail("breaks the roster rules (§4.1): " + "; ".join(problems))
    return force


def roster_problems(force: ForceSpec, limit: int = ROSTER_POINTS) -> list[str]:
    """What is wrong with a force under the roster rules (FILL-IN, §4.1 item 2)."""
    problems: list[str] = []
    if force.points > limit:
        problems.append(f"{force.points} points is over {limit}")
    leaders = sum(p.leader for u in force.units for p in u.models)
    if leaders != 1:
        problems.append(f"{leaders} Leader models instead of exactly 1")
    for unit in force.units:
        if sum(p.commander for p in unit.models) > 1:
            problems.append(f"{says(unit.name, 'has')} more than one commander")
    low, high = ROSTER_UNITS
    if not low <= len(force.units) <= high:
        problems.append(f"{counted(len(force.units), 'unit')} instead of {low}-{high}")
    if force.model_count > ROSTER_MODELS:
        problems.append(f"{force.model_count} models is over {ROSTER_MODELS}")
    return problems


def _unit(raw: Any, where: _Where) -> UnitSpec:
    table = where.table(raw)
    models_raw = table.get("models")
    if not isinstance(models_raw, list) or not models_raw:
        raise where.at("models").fail("must list the unit's models ([[...models]])")
    models: list[ModelProfile] = []
    for i, m in enumerate(models_raw):
        entry = where.at("models").at(i)
        profile = _model(m, entry)
        models.extend([profile] * entry.integer(entry.table(m), "count", 1, 25, 1))
    abilities = []
    for name in where.strings(table, "abilities"):
        if name not in ABILITIES:
            raise where.at("abilities").fail(
                f"names unknown ability {name!r} (known: {', '.join(ABILITIES)})"
            )
        abilities.append(ABILITIES[name])
    psych, hates, leap = _keywords(where.strings(table, "keywords"), where.at("keywords"))
    return UnitSpec(
        where.string(table, "name"),
        tuple(models),
        fp_value=where.integer(table, "fp", 0, 10, 2),
        points=where.integer(table, "points", 0, 1000, 0),
        abilities=tuple(abilities),
        psych=psych,
        hates=hates,
        giant_leap=leap,
    )


def _keywords(words: list[str], where: _Where) -> tuple[frozenset[Psych], tuple[str, ...], int]:
    psych: set[Psych] = set()
    hates: list[str] = []
    leap = 0
    for word in words:
        name, _, arg = word.partition(":")
        if name == "hatred" and arg:
            hates.append(arg)
        elif name == "giant_leap" and arg.isdigit() and 1 <= int(arg) <= 12:
            leap = int(arg)
        elif not arg and name in {p.value for p in Psych}:
            psych.add(Psych(name))
        else:
            raise where.fail(
                f"has unknown keyword {word!r} (use fear, terror, frenzy, stupidity, "
                "immune_psych, camouflage, hatred:FACTION or giant_leap:X)"
            )
    return frozenset(psych), tuple(hates), leap


def _model(raw: Any, where: _Where) -> ModelProfile:
    table = where.table(raw)
    glyph = where.string(table, "glyph")
    if len(glyph) != 1:
        raise where.at("glyph").fail("must be one character")
    ranged_raw = table.get("ranged")
    return ModelProfile(
        name=where.string(table, "name"),
        glyph=glyph,
        mobility=where.integer(table, "M", 1, 10),
        resilience=where.integer(table, "R", 1, 6),
        morale=where.integer(table, "Mo", 1, 6),
        defense=where.integer(table, "Def", 2, 6),
        melee=_weapon(table.get("melee"), where.at("melee"), ranged=False),
        ranged=None if ranged_raw is None else _weapon(ranged_raw, where.at("ranged"), ranged=True),
        commander=where.flag(table, "commander", False),
        leader=where.flag(table, "leader", False),
    )


def _weapon(raw: Any, where: _Where, *, ranged: bool) -> Weapon:
    table = where.table(raw)
    damage = table.get("damage", 1)
    if damage == "D2":
        damage = 0
    if not isinstance(damage, int) or isinstance(damage, bool) or not 0 <= damage <= 6:
        raise where.at("damage").fail('must be an integer from 1 to 6 or "D2"')
    return Weapon(
        where.string(table, "name"),
        ranged,
        where.integer(table, "A", 1, 4),
        damage,
        where.integer(table, "range", 1, 48) if ranged else 0,
        where.flag(table, "unstable", False),
    )
