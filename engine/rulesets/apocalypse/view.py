"""What an Apocalypse unit card and the map say in the digest's words (§4.2, §8.1, §8.7).

The card lists a unit's category, keywords and abilities, each with what it allows, as
the wh40k6 card lists vehicle types: a new player sees that a Carrier carries one unit,
that Sky Raiders drop anywhere more than 9" from the enemy, that only INFANTRY enter
ruins. The map's terrain is listed piece by piece ("ruins 2", "obstacle 1"), so the
cursor names the feature a unit would stand in or shoot through, not the core kind.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Board, Cell, Terrain
from engine.rulesets.apocalypse.fighting import AURA_RANGE
from engine.rulesets.apocalypse.profiles import Datasheet
from engine.rulesets.apocalypse.transports import EMBARK_RANGE
from engine.view import TerrainView

CATEGORY_NOTES: dict[str, str] = {
    "LIGHT": "Light: wounded on the SAP roll",
    "HEAVY": "Heavy: wounded on the SAT roll",
    "SUPER_HEAVY": (
        "Super-heavy: wounded on the SAT roll; shoots and fights under Advance or Aimed "
        "Fire; shoots and is shot while in base contact; never obscured by terrain; "
        "resolved first in the Damage phase; may explode when destroyed (D12 10+)"
    ),
}
"""What a category allows (§3.1, §8.1, §8.3)."""

KEYWORD_NOTES: dict[str, str] = {
    "INFANTRY": "Infantry: may enter ruins",
    "VEHICLE": "Vehicle: may not enter ruins",
    "MONSTER": "Monster: may not enter ruins",
    "FLY": (
        "Fly: moves over models and terrain at no extra cost; shoots and fights after falling back"
    ),
    "TITANIC": "Titanic: shoots and fights after falling back",
    "BUILDING": "Building: shoots while in base contact and may be shot there",
}
"""What a keyword allows (§8.1); CHARACTER, TRANSPORT and AIRCRAFT read the datasheet."""

ABILITY_NOTES: dict[str, str] = {
    "rally": (
        f'Rally (aura {AURA_RANGE}"): other units of its detachment within {AURA_RANGE}" '
        "add 1 to their Leadership"
    ),
    "bellow": (
        f'Bellow (aura {AURA_RANGE}"): other units of its detachment within {AURA_RANGE}" '
        "add 1 to their melee hit rolls"
    ),
    "drop_assault": 'Drop Assault: arrives from Reserve anywhere more than 9" from the enemy',
}
"""What a datasheet ability does (§8.7)."""


def unit_notes(sheet: Datasheet) -> tuple[str, ...]:
    """The card's notes: category, keywords and abilities, each with what it allows."""
    notes = [CATEGORY_NOTES[sheet.category]]
    if "CHARACTER" in sheet.keywords:
        notes.append(
            "Light character: obscured unless it is the closest visible unit to the shooter"
            if sheet.category == "LIGHT"
            else "Character"
        )
    notes += [KEYWORD_NOTES[k] for k in sorted(sheet.keywords) if k in KEYWORD_NOTES]
    if "AIRCRAFT" in sheet.keywords:
        least = f'moves at least {sheet.min_move}"; ' if sheet.min_move else ""
        notes.append(f"Aircraft: {least}shoots while in base contact and may be shot there")
    if "TRANSPORT" in sheet.keywords and sheet.capacity:
        units = "1 unit" if sheet.capacity == 1 else f"{sheet.capacity} units"
        who = " ".join(sorted(sheet.allowed))
        notes.append(
            f"Transport: carries {units}{f' ({who})' if who else ''}; they embark wholly "
            f'within {EMBARK_RANGE}" and get out within {EMBARK_RANGE}"'
        )
    notes += [ABILITY_NOTES[a] for a in sheet.abilities if a in ABILITY_NOTES]
    if sheet.reserve == "DEEP" and "drop_assault" not in sheet.abilities:
        notes.append('Deep strike: arrives from Reserve anywhere more than 9" from the enemy')
    return tuple(notes)


FEATURES: dict[Terrain, tuple[str, str, str]] = {
    Terrain.DIFFICULT: (
        "ruins",
        ":",
        'infantry only, +1" to enter, obscures',
    ),
    Terrain.COVER: ("obstacle", "=", '+1" to enter, obscures'),
    Terrain.BLOCKING: ("impassable", "#", "no unit ends here, blocks sight"),
    Terrain.IMPASSABLE: ("impassable ground", "X", "no unit ends here, sees across"),
}
"""The map's core kinds as the digest's types (§4.2): name, glyph and what each does
(short enough for an 80-column status line; "obscures": a unit in it or behind it)."""


def terrain_views(board: Board) -> tuple[TerrainView, ...]:
    """Each terrain piece (a 4-connected area of one type) by name: "ruins 2" (§4.2)."""
    seen: set[Cell] = set()
    counts: dict[Terrain, int] = {}
    views: list[TerrainView] = []
    for start in board.cells():
        kind = board.kind(start)
        if kind is Terrain.OPEN or start in seen:
            continue
        piece = _piece(board, start, seen)
        counts[kind] = counts.get(kind, 0) + 1
        name, glyph, detail = FEATURES[kind]
        views.append(TerrainView(f"{name} {counts[kind]}", glyph, kind, detail, piece))
    return tuple(views)


def _piece(board: Board, start: Cell, seen: set[Cell]) -> frozenset[Cell]:
    """The cells of one kind 4-connected to ``start`` (marked seen)."""
    kind = board.kind(start)
    area, stack = [start], [start]
    seen.add(start)
    while stack:
        cell = stack.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near = Cell(cell.x + dx, cell.y + dy)
            if near in board and near not in seen and board.kind(near) is kind:
                seen.add(near)
                area.append(near)
                stack.append(near)
    return frozenset(area)
