"""Armies from scenario data, checked against the army-building rules (digest §4.1, FILL-IN).

Scenario table ``[apocalypse]``::

    zones = ["South", "North"]        # deployment zones of the two sides (§4.2)
    points = 180                      # optional points limit per army
    max_detachments = 4               # optional (default 4)
    roster_building = true            # optional: build rosters at the table (§7 #1)
    [[apocalypse.forces]]             # one per side, in the order of ``sides``
    faction = "LEGION"
    [[apocalypse.forces.detachments]]
    name = "Legion Cohort"
    units = [
      { datasheet = "legion_captain", commander = true },
      { datasheet = "legion_line_squad", name = "Line Squad β", start = "embark" },
    ]

A unit may carry ``start = "reserve" | "embark"`` (the roster's default, offered first
at deployment) or ``at = [x, y]`` (placed there without a Decision).
"""

from __future__ import annotations

from typing import Any

from engine.errors import ScenarioError
from engine.rulesets.apocalypse.profiles import Datasheet
from engine.rulesets.apocalypse.state import Detachment, Unit

MAX_UNITS = 6
MAX_SUPER_HEAVY_UNITS = 3
GREEK = "αβγδεζηθ"


def build_army(
    force: Any,
    seat: int,
    sheets: dict[str, Datasheet],
    src: str,
    *,
    max_detachments: int,
) -> tuple[str, list[Detachment], list[Unit]]:
    """Detachments and units of one side; returns (faction, detachments, units)."""
    key = f"apocalypse.forces[{seat}]"
    if not isinstance(force, dict):
        raise ScenarioError(f"{src}: key '{key}' must be a table")
    faction = force.get("faction")
    if not isinstance(faction, str):
        raise ScenarioError(f"{src}: key '{key}.faction' must name the army's faction keyword")
    raw = force.get("detachments")
    if not isinstance(raw, list) or not 1 <= len(raw) <= max_detachments:
        raise ScenarioError(
            f"{src}: key '{key}.detachments' must list 1 to {max_detachments} detachments"
        )
    dets: list[Detachment] = []
    units: list[Unit] = []
    for d, spec in enumerate(raw):
        det, members = _detachment(
            spec, seat, d, len(units), sheets, src, f"{key}.detachments[{d}]"
        )
        for unit in members:
            if unit.sheet.faction != faction:
                raise ScenarioError(
                    f"{src}: key '{key}': {unit.name} is {unit.sheet.faction}, the army is "
                    f"{faction} (§4.1: one faction per army)"
                )
        dets.append(det)
        units.extend(members)
    _name_duplicates(units)
    return faction, dets, units


def _detachment(
    spec: Any, seat: int, d: int, first: int, sheets: dict[str, Datasheet], src: str, key: str
) -> tuple[Detachment, list[Unit]]:
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
        raise ScenarioError(f"{src}: key '{key}' must be a table with a name")
    entries = spec.get("units")
    if not isinstance(entries, list) or not entries:
        raise ScenarioError(f"{src}: key '{key}.units' must list the detachment's units")
    det_id = f"{'AB'[seat]}-D{d + 1}"
    units = [
        _unit(e, seat, det_id, first + i + 1, sheets, src, f"{key}.units[{i}]")
        for i, e in enumerate(entries)
    ]
    limit = MAX_SUPER_HEAVY_UNITS if all(u.sheet.is_super_heavy for u in units) else MAX_UNITS
    if len(units) > limit:
        raise ScenarioError(f"{src}: key '{key}.units': at most {limit} units (§4.1 item 3)")
    commanders = [u for u in units if u.is_commander]
    if len(commanders) != 1:
        raise ScenarioError(f"{src}: key '{key}.units': exactly one unit has commander = true")
    boss = commanders[0]
    has_character = any("CHARACTER" in u.sheet.keywords for u in units)
    if has_character and "CHARACTER" not in boss.sheet.keywords:
        raise ScenarioError(
            f"{src}: key '{key}.units': the Commander must be a CHARACTER (§4.1 item 4)"
        )
    boss.is_warlord = "CHARACTER" in boss.sheet.keywords
    det = Detachment(det_id, spec["name"], seat, [u.uid for u in units])
    return det, units


def _unit(
    entry: Any, seat: int, det_id: str, n: int, sheets: dict[str, Datasheet], src: str, key: str
) -> Unit:
    if not isinstance(entry, dict):
        raise ScenarioError(f"{src}: key '{key}' must be a table")
    sid = entry.get("datasheet")
    if not isinstance(sid, str) or sid not in sheets:
        raise ScenarioError(
            f"{src}: key '{key}.datasheet': unknown datasheet {sid!r} (use one of: "
            + ", ".join(sheets)
            + ")"
        )
    sheet = sheets[sid]
    name = entry.get("name", sheet.name)
    start = entry.get("start", "")
    if start not in ("", "reserve", "embark"):
        raise ScenarioError(f'{src}: key \'{key}.start\' must be "reserve" or "embark"')
    at = entry.get("at")
    if at is not None:
        if not (
            isinstance(at, list)
            and len(at) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in at)
        ):
            raise ScenarioError(f"{src}: key '{key}.at' must be [x, y]")
        start = f"{at[0]},{at[1]}"
    if not isinstance(name, str) or not name:
        raise ScenarioError(f"{src}: key '{key}.name' must be a non-empty string")
    unit = Unit(f"{'AB'[seat]}{n}", name, seat, sheet, det_id, start=start)
    unit.is_commander = bool(entry.get("commander", False))
    return unit


def _name_duplicates(units: list[Unit]) -> None:
    """Give units that share a name Greek letters (Brute Mob α, β, γ)."""
    by_name: dict[str, list[Unit]] = {}
    for unit in units:
        by_name.setdefault(unit.name, []).append(unit)
    for name, group in by_name.items():
        if len(group) > 1:
            for i, unit in enumerate(group):
                unit.name = f"{name} {GREEK[i] if i < len(GREEK) else i + 1}"
