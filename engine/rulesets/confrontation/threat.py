"""Threat and sight for Confrontation: a fighter's walk and charge reach, and the enemy
fighters that see it (front half and line of sight) or can charge it (digest
confrontation §6.5, §6.6, §6.8, §11), from the rules' own move and sight functions.

The rules have no cover: a fighter in sight is in the open to it.

Must not import tui, textual, rich, another ruleset or the registry.
"""

from __future__ import annotations

from engine.board import Cell
from engine.rulesets.confrontation.actions import walk_cells
from engine.rulesets.confrontation.charge import charge_reach
from engine.rulesets.confrontation.geometry import can_see, free_contact_cells
from engine.rulesets.confrontation.state import CState, Fighter
from engine.threat import Menace, Threat


def _mates(state: CState, f: Fighter) -> set[str]:
    """The fighters of its card, which a move may pass through (§11)."""
    return set(state.cards[f.card].fighters)


def charge_cells(state: CState, f: Fighter, target: Fighter) -> list[Cell]:
    """Free cells in contact with ``target`` a charge of 2 x MOV reaches (§6.6 step 3)."""
    reach = charge_reach(state, f, 2 * f.profile.mov, _mates(state, f))
    return [c for c in free_contact_cells(state, target) if c in reach]


def threat_of(state: CState, f: Fighter) -> Threat | None:
    """Where ``f`` can walk and charge, and which enemies see it or can charge it."""
    if not f.on_table or f.cell is None:
        return None
    move = frozenset(walk_cells(state, f, f.profile.mov, _mates(state, f)))
    charge: set[Cell] = set()
    menaces = []
    for enemy in state.on_table(1 - f.player):
        assert enemy.cell is not None
        charge.update(charge_cells(state, f, enemy))
        sees = can_see(state, enemy, f)
        reaches = bool(charge_cells(state, enemy, f))
        if sees or reaches:
            menaces.append(Menace(enemy.id, frozenset({enemy.cell}), sees, reaches))
    mov = f.profile.mov
    notes = (f"walk {mov}", f"charge {2 * mov}", "no cover in these rules")
    return Threat(f.id, move, frozenset(charge) - move, tuple(menaces), notes=notes)
