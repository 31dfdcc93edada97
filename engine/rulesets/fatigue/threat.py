"""Threat and sight for the fatigue game: where a model can walk and attack, and the enemy
models that see it (with cover) or whose unit can attack its unit (digest fatigue §6.5,
§6.6, §11.3), from the rules' own reach, contact and sight functions.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.fatigue.charge import attack_targets, charge_reach, contact_cells
from engine.rulesets.fatigue.formation import walk_reach
from engine.rulesets.fatigue.geometry import has_los, is_covered
from engine.rulesets.fatigue.movement import not_next_to_enemy
from engine.rulesets.fatigue.pieces import Model
from engine.rulesets.fatigue.state import FState
from engine.rulesets.fatigue.tables import COVER_PENALTY
from engine.threat import Menace, Threat


def _attack_cells(state: FState, model: Model) -> set[Cell]:
    """Cells next to an ATTACK target this model's walk or leap reaches (§6.6 step 1)."""
    unit = state.unit_of(model)
    reach = charge_reach(state, unit)
    out: set[Cell] = set()
    for target in attack_targets(state, unit, reach):
        for way in (reach.walk, reach.leap):
            if way is not None and model.id in way:
                out.update(contact_cells(state, target, {model.id: way[model.id]}))
    return out


def threat_of(state: FState, model: Model) -> Threat | None:
    """Where ``model`` can go, and which enemy models see it or can attack its unit."""
    if not model.in_play or model.cell is None:
        return None
    unit = state.unit_of(model)
    allowed = not_next_to_enemy(state, unit)
    walk = walk_reach(state, unit, lambda m: m.profile.mobility).get(model.id, {})
    move = frozenset(c for c in walk if allowed(c))
    attack = frozenset(_attack_cells(state, model)) - move
    menaces = []
    for enemy_unit in state.units_in_order():
        if enemy_unit.player == unit.player:
            continue
        reaches = unit in attack_targets(state, enemy_unit)
        for enemy in enemy_unit.alive():
            if enemy.cell is None:
                continue
            sees = has_los(state, enemy.cell, model.cell)
            if not (sees or reaches):
                continue
            covered = sees and is_covered(state, [enemy.cell], model.cell)
            cover = f"in cover: -{COVER_PENALTY} to hit" if covered else ""
            menaces.append(Menace(enemy.id, frozenset({enemy.cell}), sees, reaches, cover))
    notes = (f"walk {model.profile.mobility}", "attack: walk or leap into contact")
    return Threat(model.id, move, attack, tuple(menaces), charge_word="attack", notes=notes)
