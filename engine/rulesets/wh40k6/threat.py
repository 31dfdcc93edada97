"""Threat and sight for wh40k6: a model's Movement-phase reach and charge reach, and the
enemy models that see it (with its cover save from each) or whose unit can charge its
unit (digest wh40k6 §6.2, §6.11, §11.3-§11.4), from the rules' own path, charge and
sight functions.

Must not import tui, textual, rich or another ruleset.
"""

from __future__ import annotations

from engine.board import Cell
from engine.footprints import rect_distance, square
from engine.rulesets.wh40k6 import tables as t
from engine.rulesets.wh40k6.charge import charge_need, may_ever_charge, may_target
from engine.rulesets.wh40k6.geometry import Sight
from engine.rulesets.wh40k6.movement import move_allowance
from engine.rulesets.wh40k6.paths import Field, can_fly
from engine.rulesets.wh40k6.state import Model, State, Unit
from engine.threat import Menace, Threat


def charge_cells(state: State, model: Model, unit: Unit, sight: Sight) -> frozenset[Cell]:
    """Where ``model`` can end a 12" charge in base contact with a unit it may charge."""
    assert model.cell is not None
    if not may_ever_charge(state.on_table(unit)):
        return frozenset()
    fly = can_fly(model)
    size = model.profile.size
    out: set[Cell] = set()
    for enemy in state.deployed(1 - unit.player):
        if not may_target(state, unit, enemy, sight):
            continue
        reach = Field(state, unit.player, unit.models, spare=[enemy.id]).reach(
            model, model.cell, t.MAX_CHARGE, fly
        )
        rects = [e.rect for e in state.on_table(enemy)]
        out.update(c for c in reach if any(rect_distance(square(c, size), r) == 1 for r in rects))
    return frozenset(out)


def can_charge_unit(state: State, charger: Unit, target: Unit, sight: Sight) -> bool:
    """Could ``charger`` declare a charge on ``target`` and reach it with a 12 (§6.11)?"""
    if not may_ever_charge(state.on_table(charger)):
        return False
    if not may_target(state, charger, target, sight):
        return False
    return charge_need(state, charger, target, False)[0] is not None


def threat_of(state: State, model: Model) -> Threat | None:
    """Where ``model`` can go, and which enemy models see it or can charge its unit."""
    if not model.on_table or model.cell is None:
        return None
    unit = state.unit_of(model)
    allowance = move_allowance(model)
    field = Field(state, unit.player, unit.models)
    move = frozenset(field.reach(model, model.cell, allowance, can_fly(model)))
    sight = Sight(state)
    charge = charge_cells(state, model, unit, sight) - move
    menaces = []
    for enemy_unit in state.deployed(1 - unit.player):
        reaches = can_charge_unit(state, enemy_unit, unit, sight)
        for enemy in state.on_table(enemy_unit):
            sees = sight.sees(enemy, model)
            if not (sees or reaches):
                continue
            save = sight.cover(model, enemy) if sees else None
            cover = "" if save is None else f"{save}+ cover save"
            menaces.append(Menace(enemy.id, frozenset(enemy.rect.cells()), sees, reaches, cover))
    notes = (f'move {allowance}"', 'charge 2D6 up to 12"')
    return Threat(model.id, move, charge, tuple(menaces), notes=notes)
