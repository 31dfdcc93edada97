"""Rosters: reading a scenario's kill teams and checking the roster rules (killteam §4.2).

A roster entry names a datasheet, optionally a specialism, the wargear options taken
(named by the weapon they bring) and a count. `validate_roster` applies §4.2 and returns
every broken rule, so a scenario error can list them all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.errors import ScenarioError
from engine.rulesets.killteam.profiles import Datasheet, Faction, Weapon
from engine.wording import counted


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """One model of a roster."""

    sheet: Datasheet
    weapons: tuple[Weapon, ...]
    specialism: str | None

    @property
    def points(self) -> int:
        """Datasheet points plus every weapon carried (§4.2 item 1)."""
        return self.sheet.points + sum(w.points for w in self.weapons)


def equip(faction: Faction, sheet: Datasheet, options: list[str]) -> tuple[Weapon, ...]:
    """The sheet's default wargear with the named options applied (§3.1 wargear_options)."""
    gear = list(sheet.wargear)
    for wanted in options:
        option = next((o for o in sheet.options if wanted in o.with_), None)
        if option is None:
            raise ValueError(f"{sheet.name} has no wargear option giving {wanted!r}")
        if not all(w in gear for w in option.replace):
            raise ValueError(f"{sheet.name}: option {wanted!r} conflicts with another option")
        for w in option.replace:
            gear.remove(w)
        gear.extend(option.with_)
    return tuple(faction.weapons[w] for w in gear)


def parse_roster(raw: Any, faction: Faction, source: str, key: str) -> list[RosterEntry]:
    """Read ``roster = [{datasheet, specialism?, options?, count?}, ...]``."""
    if not isinstance(raw, list) or not raw:
        raise ScenarioError(f"{source}: key '{key}' must be a non-empty list of models")
    entries: list[RosterEntry] = []
    for i, item in enumerate(raw):
        where = f"{key}[{i}]"
        if not isinstance(item, dict):
            raise ScenarioError(f"{source}: key '{where}' must be a table")
        sid = item.get("datasheet")
        if not isinstance(sid, str) or sid not in faction.datasheets:
            names = ", ".join(faction.datasheets)
            raise ScenarioError(
                f"{source}: key '{where}.datasheet': {sid!r} is not a {faction.name} "
                f"datasheet (use one of: {names})"
            )
        sheet = faction.datasheets[sid]
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
            raise ScenarioError(f"{source}: key '{where}.count' must be 1..20")
        spec = item.get("specialism")
        if spec is not None and count != 1:
            raise ScenarioError(f"{source}: key '{where}': a specialist has count 1")
        options = item.get("options", [])
        try:
            weapons = equip(faction, sheet, list(options))
        except (ValueError, TypeError) as exc:
            raise ScenarioError(f"{source}: key '{where}.options': {exc}") from None
        entries.extend(RosterEntry(sheet, weapons, spec) for _ in range(count))
    return entries


def validate_roster(entries: list[RosterEntry], points_limit: int) -> list[str]:
    """Every roster rule of §4.2 the roster breaks (empty if legal)."""
    problems: list[str] = []
    total = sum(e.points for e in entries)
    if total > points_limit:
        problems.append(f"{total} points is over the {points_limit}-point format")
    if len(entries) < 3:
        problems.append(f"{counted(len(entries), 'model')}; a kill team needs at least 3")
    specs = [e.specialism for e in entries if e.specialism]
    if specs.count("Leader") != 1:
        problems.append("exactly one model must be the Leader")
    repeated = sorted({s for s in specs if specs.count(s) > 1})
    if repeated:
        problems.append(f"specialisms repeat: {', '.join(repeated)}")
    if len(specs) > 4:
        problems.append(f"{len(specs)} specialists; at most 4, Leader included")
    for e in entries:
        if e.specialism and e.specialism not in e.sheet.specialisms:
            problems.append(f"{e.sheet.name} cannot be a {e.specialism} specialist")
    counts = Counter(e.sheet.id for e in entries)
    for e in {e.sheet.id: e for e in entries}.values():
        if counts[e.sheet.id] > e.sheet.max:
            problems.append(f"{counts[e.sheet.id]} x {e.sheet.name}; at most {e.sheet.max}")
    return problems
