"""Threat and sight for Apocalypse: the Move reach of a unit, and the enemy units that
see it or can move into base contact to fight it (digest apocalypse §6.6, §6.9, §6.10,
§11.3-§11.4), from the rules' own reach and visibility functions.

There is no charge: a unit fights the enemies it touches after moving. Orders are secret,
so the reach is a plain Move of M (Assault doubles it, Forced March adds 3").

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.footprints import in_contact, square
from engine.rulesets.apocalypse.geometry import enemies, obscured, visible
from engine.rulesets.apocalypse.movement import reach
from engine.rulesets.apocalypse.state import ApocState, Unit
from engine.threat import Menace, Threat


def can_reach(state: ApocState, mover: Unit, target: Unit) -> bool:
    """Can ``mover`` end a Move of M in base contact with ``target`` (§6.6, §6.10)?"""
    size = mover.sheet.footprint
    return any(
        in_contact(square(cell, size), target.rect)
        for cell in reach(state, mover, mover.sheet.move)
    )


def threat_of(state: ApocState, unit: Unit) -> Threat | None:
    """Where ``unit`` can move, and which enemy units see it or can move into contact."""
    if not unit.on_battlefield or unit.anchor is None:
        return None
    move = frozenset(reach(state, unit, unit.sheet.move))
    menaces = []
    for enemy in enemies(state, unit):
        sees = visible(state, enemy, unit)
        reaches = can_reach(state, enemy, unit)
        if not (sees or reaches):
            continue
        cover = "obscured: -1 to hit" if sees and obscured(state, enemy, unit) else ""
        menaces.append(Menace(enemy.uid, frozenset(enemy.rect.cells()), sees, reaches, cover))
    note = f'Move {unit.sheet.move}" (Assault order: double)'
    return Threat(unit.uid, move, frozenset(), tuple(menaces), charge_word="", notes=(note,))
