"""Threat and sight for Kill Team: Normal Move and charge reach, and who sees or can
charge a model (digest killteam §6.3.1, §6.3.6, §11.4), from the rules' own functions.

Must not import tui, textual or rich.
"""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.killteam.charge import CHARGE_RANGE, charge_area
from engine.rulesets.killteam.geometry import (
    can_see,
    dist,
    enemies,
    is_obscured,
    terrain_saves_injury,
)
from engine.rulesets.killteam.moves import enemy_zone, move_area
from engine.rulesets.killteam.state import KTState, Model
from engine.threat import Menace, Threat

LONGEST_ROLL = 12
"""The most a 2D6 charge roll gives (a Medic's +1 comes on top)."""


def charge_reach(state: KTState, charger: Model, targets: list[Model]) -> list[Cell]:
    """Cells a charge at ``targets`` can end on with the best roll (§6.3.6 step 4)."""
    roll = LONGEST_ROLL + (1 if charger.injected else 0)
    return charge_area(state, charger, targets, roll)[1]


def threat_of(state: KTState, model: Model) -> Threat | None:
    """Where ``model`` can go (Normal Move, charge) and which enemies see or can charge it."""
    if not model.on_table or model.cell is None:
        return None
    zone = enemy_zone(state, model)
    move = frozenset(move_area(state, model, model.sheet.M, path_avoid=zone, end_avoid=zone).ends)
    foes = [e for e in enemies(state, model) if dist(state, model, e) <= CHARGE_RANGE]
    charge = frozenset(charge_reach(state, model, foes)) - move if foes else frozenset()
    menaces = []
    for enemy in enemies(state, model):
        assert enemy.cell is not None
        sees = can_see(state, enemy, model)
        reaches = dist(state, enemy, model) <= CHARGE_RANGE and bool(
            charge_reach(state, enemy, [model])
        )
        if not (sees or reaches):
            continue
        cover = ""
        if sees and is_obscured(state, enemy, model):
            cover = "obscured: -1 to hit"
            if terrain_saves_injury(state, enemy, model):
                cover += ", -1 to injure"
        menaces.append(Menace(enemy.id, frozenset({enemy.cell}), sees, reaches, cover))
    notes = (f'Normal Move {model.sheet.M}"', 'charge 2D6 up to 12"')
    return Threat(model.id, move, charge, tuple(menaces), notes=notes)
